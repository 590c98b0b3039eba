import { defineConfig } from 'vitest/config';

// Two projects: package tests run in parallel; the end-to-end tests under test/
// (each with its own Temporal server and real containers) run one file at a time,
// so on a 2-core machine their heartbeats and time limits are not starved.
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 600_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'packages',
          include: [
            'packages/*/test/**/*.test.ts',
            'analysis/test/**/*.test.ts',
            'workflows/test/**/*.test.ts',
            'activities/test/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/**/*.test.ts'],
          fileParallelism: false,
        },
      },
    ],
  },
});
