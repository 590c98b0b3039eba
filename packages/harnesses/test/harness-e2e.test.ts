// End to end, per harness: the real CLI in its container against the scripted model
// server, through the worker's key-injecting proxy. Subtask 1 writes a deliverable;
// subtask 2 runs in the same session folder and must continue the same session.
// Image builds are slow on 2 cores, so this runs only with ASSAY_HARNESS_E2E=1
// (ASSAY_HARNESSES=codex,nanobot picks some; ASSAY_RECORD_FIXTURES=1 refreshes fixtures).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SystemSpec } from '@assay/core';
import { startMockLlm, type MockLlmServer } from '@assay/mock-llm';
import { ADAPTERS, type CliHarness } from '../src/adapters/index.js';
import { ensureHarnessImage, type HarnessImage } from '../src/ensure-harness-image.js';
import { INSTALLS } from '../src/installs.js';
import { runContainer } from '../../../test/support/run-container.js';
import { startModelProxy, type ModelProxy } from '../src/model-proxy.js';
import { deliverableScript } from './support/deliverable-script.js';
import { makeTrialDirs, readTree, runCliSession, type CliRunResult } from './support/run-cli-session.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const enabled = process.env.ASSAY_HARNESS_E2E === '1';
const only = process.env.ASSAY_HARNESSES?.split(',').filter(Boolean);
const harnesses = (Object.keys(ADAPTERS) as CliHarness[]).filter((h) => !only || only.includes(h));

function record(harness: string, name: string, text: string): void {
  if (process.env.ASSAY_RECORD_FIXTURES !== '1') return;
  fs.mkdirSync(path.join(FIXTURES, harness), { recursive: true });
  fs.writeFileSync(path.join(FIXTURES, harness, name), text);
}

describe.skipIf(!enabled).each(harnesses)('%s in its container', (harness) => {
  const docker = new Docker();
  const secret = `sk-real-${randomBytes(12).toString('hex')}`;
  let mock: MockLlmServer;
  let proxy: ModelProxy;
  let image: string;
  let built: HarnessImage;
  let tmp: string;
  const runs: CliRunResult[] = [];

  beforeAll(async () => {
    built = await ensureHarnessImage({ root: ROOT, harness, log: (l) => console.error(`[${harness}] ${l}`) });
    image = built.tag;
    console.error(`[${harness}] image ${image}${built.seconds ? ` built in ${built.seconds} s` : ''}`);
    mock = await startMockLlm({ script: deliverableScript() });
    proxy = await startModelProxy({ port: 0 });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), `assay-e2e-${harness}-`));
  }, 1_800_000);

  afterAll(async () => {
    await proxy?.stop();
    await mock?.close();
    if (tmp && process.env.ASSAY_KEEP_E2E !== '1') fs.rmSync(tmp, { recursive: true, force: true });
  });

  const system = (): SystemSpec => ({
    id: `${harness}-e2e`,
    harness,
    model: 'mock-model',
    settings: { baseUrl: mock.url, apiKeyEnv: 'ASSAY_E2E_PROVIDER_KEY' },
  });

  it('knows the version the CLI printed when its image was built: the first line of the file in the image', async () => {
    const { code, out } = await runContainer(docker, image, ['cat', '/opt/assay-harness-version']);
    expect(code, out).toBe(0);
    const firstLine = out.split('\n')[0]?.trim();
    expect(built.harnessVersion).toBe(firstLine);
    // What the CLI (or, for a Python CLI, its installed package) reports: the version it was installed at.
    expect(firstLine).toContain(INSTALLS[harness].version);
  });

  it('writes a deliverable, reports the usage the server saw, and continues its session', async () => {
    const dirs = makeTrialDirs(tmp);
    const environment = { ASSAY_E2E_PROVIDER_KEY: secret };
    const started = Date.now();
    const first = await runCliSession({
      docker,
      mock,
      proxy,
      image,
      system: system(),
      dirs,
      runId: `e2e-${harness}-1-${Date.now()}`,
      environment,
      instruction: 'Write the first deliverable.\nASSAY-TASK file=first.md text=ALPHA-7431\n',
    });
    runs.push(first);
    record(harness, 'subtask-1.log', first.logs);
    if (process.env.ASSAY_KEEP_E2E === '1')
      fs.writeFileSync(path.join(tmp, 'requests-1.json'), JSON.stringify(mock.requests, null, 1));
    console.error(
      `[${harness}] subtask 1: exit ${first.exitCode} in ${first.durationSeconds} s (wall ${(Date.now() - started) / 1000} s), ${first.serverRequests} model requests`,
    );
    if (first.exitCode !== 0) console.error(first.logs.slice(-4000));
    expect(first.exitCode).toBe(0);
    expect(fs.readFileSync(path.join(dirs.workspace, 'outputs', 'first.md'), 'utf8').trim()).toBe('ALPHA-7431');

    // Usage: parsed from the CLI's own output equals what the server sent, and what the proxy counted.
    const server = first.serverUsage;
    expect(first.proxyUsage).toMatchObject({
      inputTokens: server.input,
      outputTokens: server.output,
      cachedInputTokens: server.cachedInput,
    });
    expect(first.usage).not.toBeNull();
    expect({
      input: first.usage?.inputTokens,
      output: first.usage?.outputTokens,
      cachedInput: first.usage?.cachedInputTokens,
    }).toEqual(server);

    const second = await runCliSession({
      docker,
      mock,
      proxy,
      image,
      system: system(),
      dirs,
      runId: `e2e-${harness}-2-${Date.now()}`,
      environment,
      instruction: 'Now write the second deliverable.\nASSAY-TASK file=second.md text=BETA-2209\n',
    });
    runs.push(second);
    record(harness, 'subtask-2.log', second.logs);
    if (process.env.ASSAY_KEEP_E2E === '1')
      fs.writeFileSync(path.join(tmp, 'requests-2.json'), JSON.stringify(mock.requests, null, 1));
    console.error(
      `[${harness}] subtask 2: exit ${second.exitCode} in ${second.durationSeconds} s, ${second.serverRequests} model requests`,
    );
    if (second.exitCode !== 0) console.error(second.logs.slice(-4000));
    expect(second.exitCode).toBe(0);
    expect(fs.readFileSync(path.join(dirs.workspace, 'outputs', 'second.md'), 'utf8').trim()).toBe('BETA-2209');
    expect({
      input: second.usage?.inputTokens,
      output: second.usage?.outputTokens,
      cachedInput: second.usage?.cachedInputTokens,
    }).toEqual(second.serverUsage);

    // Resumed: the second run's model requests carry the first conversation.
    const secondBodies = JSON.stringify(mock.requests.map((r) => r.body));
    expect(secondBodies).toContain('ALPHA-7431');
    if (first.sessionId && second.sessionId) expect(second.sessionId).toBe(first.sessionId);

    // The real key reached the model server, and nowhere else.
    expect(mock.sawCredential(secret)).toBe(true);
    const everywhere = {
      'container env (subtask 1)': first.containerEnv.join('\n'),
      'container env (subtask 2)': second.containerEnv.join('\n'),
      transcripts: first.logs + second.logs,
      'session folder': readTree(dirs.sessionDir),
      workspace: readTree(dirs.workspace),
    };
    mock.assertNoSecret(secret, everywhere);
  }, 900_000);
});
