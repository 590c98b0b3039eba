// Lint: TypeScript rules everywhere, plus the architecture rule that workflow code
// stays deterministic — no Node built-ins, Docker or model SDKs under workflows/ — and small:
// @assay/core's zod-free entry only.
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.assay/**', 'datasets/**', '**/*.js', '**/*.cjs', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['workflows/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...nodeBuiltins.map((name) => ({
              name,
              message: 'Workflows must be deterministic: no Node built-ins (use an activity).',
            })),
            {
              name: '@assay/core',
              message: 'Workflows import @assay/core/pure: the zod schemas would be bundled into every worker isolate.',
            },
          ],
          patterns: [
            { group: ['dockerode', 'dockerode/*'], message: 'Docker belongs in activities/.' },
            {
              group: ['openai', 'openai/*', '@anthropic-ai/*', '@google/*'],
              message: 'Model SDKs belong in activities/.',
            },
            {
              group: ['@assay/evidence', '@assay/judge', '@assay/infra', '@assay/mock-llm', '@assay/activities'],
              message: 'Workflows import activities as types only.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
);
