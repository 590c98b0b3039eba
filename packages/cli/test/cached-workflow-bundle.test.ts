// The workflow bundle cache: reused while no input changed, rebuilt when a source of the workflows
// package or of a workspace package it depends on changes, and not for an unrelated package.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cachedWorkflowBundle } from '../src/worker/cached-workflow-bundle.js';

function workspace(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'assay-bundle-cache-'));
  const put = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };
  put('pnpm-lock.yaml', 'lockfileVersion: 9\n');
  put(
    'workflows/package.json',
    JSON.stringify({ name: '@assay/workflows', dependencies: { '@assay/core': 'workspace:*' } }),
  );
  put('workflows/src/index.ts', 'export * from "./job";\n');
  put('packages/core/package.json', JSON.stringify({ name: '@assay/core', dependencies: { zod: '4' } }));
  put('packages/core/src/deep/score.ts', 'export const x = 1;\n');
  put('packages/evidence/package.json', JSON.stringify({ name: '@assay/evidence' }));
  put('packages/evidence/src/index.ts', 'export const y = 1;\n');
  return root;
}

describe('cachedWorkflowBundle', () => {
  it('builds once per content of its inputs', async () => {
    const root = workspace();
    let builds = 0;
    const get = () =>
      cachedWorkflowBundle({
        root,
        workflowsDir: path.join(root, 'workflows'),
        bundlerOptions: { ignoreModules: [] },
        build: async () => ({ code: `bundle ${++builds}` }),
      });
    const first = await get();
    expect([first.reused, builds]).toEqual([false, 1]);
    expect(readFileSync(first.codePath, 'utf8')).toBe('bundle 1');
    expect((await get()).codePath).toBe(first.codePath);
    expect(builds).toBe(1);

    writeFileSync(path.join(root, 'packages/evidence/src/index.ts'), 'export const y = 2;\n');
    expect((await get()).reused).toBe(true);

    writeFileSync(path.join(root, 'packages/core/src/deep/score.ts'), 'export const x = 2;\n');
    const changed = await get();
    expect([changed.reused, builds]).toEqual([false, 2]);
    expect(changed.codePath).not.toBe(first.codePath);

    writeFileSync(path.join(root, 'pnpm-lock.yaml'), 'lockfileVersion: 9\n# a new version\n');
    expect((await get()).reused).toBe(false);
  });
});
