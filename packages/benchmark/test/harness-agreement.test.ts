// Validation's harness rules (src/check-systems.ts) restate what @assay/harnesses and the scripted
// harness refuse at run time, because @assay/benchmark cannot depend on them. This holds the two
// together: every system the run would refuse as misconfigured, validation refuses, and a system
// the run accepts, validation accepts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { SystemSpec } from '@assay/core';
import { HarnessConfigError, prepareHarnessRun, type ModelProxy } from '../../harnesses/src/index.js';
import { scriptedAgentOf } from '../../../activities/src/harness/scripted-harness.js';
import { inspectJob } from '../src/index.js';
import { validParts, writeBenchmark } from './benchmark-fixture.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'assay-agreement-'));
const bench = writeBenchmark(validParts());
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
  rmSync(bench, { recursive: true, force: true });
});

const proxy: ModelProxy = {
  host: '127.0.0.1',
  port: 1,
  open: () => 'http://127.0.0.1:1/route',
  usage: () => ({
    requests: 0,
    failed: 0,
    throttled: 0,
    lastThrottledAt: null,
    models: [],
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
  }),
  serveRoute: async () => undefined,
  close: () => undefined,
  stop: async () => undefined,
};

/** Whether the run refuses the system as misconfigured (the key variable is set: that is the worker's part). */
function runRefuses(system: SystemSpec): boolean {
  try {
    if (['oracle', 'nop', 'scripted'].includes(system.harness)) scriptedAgentOf(system);
    else
      prepareHarnessRun({
        system,
        runId: 'agreement',
        sessionDir: mkdtempSync(path.join(tmp, 's-')),
        image: 'img',
        proxy,
        limits: { maxSteps: 5, agentSeconds: 60 },
        environment: { THE_KEY: 'k' },
      });
    return false;
  } catch (err) {
    if (err instanceof HarnessConfigError || (err instanceof Error && err.name === 'HarnessNotAvailable')) return true;
    throw err;
  }
}

function validationRefuses(system: SystemSpec): boolean {
  const file = path.join(bench, 'job.yaml');
  writeFileSync(file, stringify({ schema: 'assay.job/v1', id: 'j', benchmark: '.', systems: [system] }));
  // The key variable is set, as runRefuses gives it: whether the worker has it is checked apart.
  vi.stubEnv('THE_KEY', 'k');
  try {
    return inspectJob(file, { repoRoot: bench, cwd: bench }).issues.length > 0;
  } finally {
    vi.unstubAllEnvs();
  }
}

const sys = (harness: string, settings: Record<string, unknown> = {}, model?: string): SystemSpec =>
  ({ id: 'a', harness, settings, ...(model === undefined ? {} : { model }) }) as SystemSpec;

const CASES: [string, SystemSpec][] = [
  ['scripted, known agent', sys('scripted', { agent: 'wrong-type' })],
  ['scripted, unknown agent', sys('scripted', { agent: 'wrong-typ' })],
  ['scripted, no agent', sys('scripted')],
  ['oracle', sys('oracle')],
  ['model harness with a model', sys('claude-code', {}, 'm')],
  ['model harness without a model', sys('gemini-cli')],
  ['model harness, http base URL', sys('codex', { baseUrl: 'http://127.0.0.1:9/v1' }, 'm')],
  ['model harness, ftp base URL', sys('codex', { baseUrl: 'ftp://x/v1' }, 'm')],
  ['model harness, key variable named', sys('qwen-code', { apiKeyEnv: 'THE_KEY' }, 'm')],
  ['command, complete', sys('command', { image: 'i', command: 'go {instruction_file} {outputs_dir}' })],
  ['command, no image', sys('command', { command: 'go' })],
  ['command, no command', sys('command', { image: 'i' })],
  ['command, unknown placeholder', sys('command', { image: 'i', command: 'go {task_file}' })],
  ['command, routed', sys('command', { image: 'i', command: 'go {base_url}', api: 'openai-chat' })],
  ['command, unknown api', sys('command', { image: 'i', command: 'go', api: 'openai' })],
  ['command, routed with a bad base URL', sys('command', { image: 'i', command: 'go', api: 'gemini', baseUrl: 'x' })],
];

describe('validation and the harnesses agree on what cannot run', () => {
  it.each(CASES)('%s', (_name, system) => {
    expect(validationRefuses(system)).toBe(runRefuses(system));
  });

  it('covers refusals and acceptances both', () => {
    const refused = CASES.filter(([, s]) => runRefuses(s)).length;
    expect(refused).toBeGreaterThanOrEqual(7);
    expect(CASES.length - refused).toBeGreaterThanOrEqual(6);
  });
});
