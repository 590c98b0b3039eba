// The `command` harness (users' own agents) and the run preparation shared by all
// harnesses. The container test uses the offline base image (curl inside) and runs when
// a Docker engine and that image are present; it takes a few seconds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SystemSpec } from '@assay/core';
import { startMockLlm, type MockLlmServer } from '@assay/mock-llm';
import { renderCommandTemplate } from '../src/adapters/command.js';
import { HarnessConfigError } from '../src/harness-config-error.js';
import { startModelProxy, type ModelProxy } from '../src/model-proxy.js';
import { parseUsageLine } from '../src/parse-usage-line.js';
import { DUMMY_API_KEY, prepareHarnessRun, routeIdFor } from '../src/prepare-harness-run.js';
import { makeTrialDirs, readTree, runCliSession } from './support/run-cli-session.js';
import { checkDockerReady } from '../../../test/support/docker-ready.js';

const REAL = 'sk-real-command-harness-55aa';
let mock: MockLlmServer;
let proxy: ModelProxy;
let tmp: string;

beforeAll(async () => {
  mock = await startMockLlm({
    script: { rules: [], default: { text: 'PLAN-OK', usage: { input: 77, output: 9, cachedInput: 0 } } },
  });
  proxy = await startModelProxy({ port: 0 });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-command-'));
});
afterAll(async () => {
  await proxy.stop();
  await mock.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const system = (settings: Record<string, unknown>, model = 'mock-model'): SystemSpec => ({
  id: 'mine',
  harness: 'command',
  model,
  settings,
});
const limits = { maxSteps: 9, agentSeconds: 120 };

describe('command template', () => {
  it('replaces placeholders with quoted values and keeps the instruction file a variable', () => {
    const out = renderCommandTemplate(
      'mine',
      'my-agent --task {instruction_file} --out {outputs_dir} --model {model}',
      {
        instruction_file: '$ASSAY_INSTRUCTION_FILE',
        outputs_dir: '/workspace/outputs',
        model: "o'neil",
      },
    );
    expect(out).toBe(`my-agent --task "$ASSAY_INSTRUCTION_FILE" --out /workspace/outputs --model 'o'"'"'neil'`);
  });
  it('rejects unknown placeholders and missing settings', () => {
    expect(() => renderCommandTemplate('mine', 'x {nope}', {})).toThrow(/unknown placeholder \{nope\}/);
    expect(() =>
      prepareHarnessRun({
        system: system({ image: 'x' }),
        runId: 'r',
        sessionDir: path.join(tmp, 's0'),
        image: '',
        proxy,
        limits,
      }),
    ).toThrow(/settings\.image and settings\.command/);
  });
  it('reads the last {"usage": …} line', () => {
    expect(parseUsageLine('noise\n{"usage":{"inputTokens":5,"outputTokens":2}}\n')).toMatchObject({
      inputTokens: 5,
      outputTokens: 2,
      cachedInputTokens: 0,
    });
    expect(parseUsageLine('nothing here')).toBeNull();
  });
});

describe('run preparation', () => {
  it('opens a proxy route per run id, hands the container only the dummy key, and refuses a missing key variable', () => {
    const sessionDir = path.join(tmp, 's1');
    const prepared = prepareHarnessRun({
      system: { id: 'cc', harness: 'claude-code', model: 'm', settings: { baseUrl: mock.url, apiKeyEnv: 'MY_KEY' } },
      runId: 'wf-1',
      sessionDir,
      image: 'img',
      proxy,
      limits,
      environment: { MY_KEY: REAL },
    });
    expect(prepared.routeId).toBe(routeIdFor('wf-1'));
    expect(prepared.container.network).toBe('host');
    expect(prepared.container.env.ANTHROPIC_API_KEY).toBe(DUMMY_API_KEY);
    expect(prepared.container.env.ANTHROPIC_BASE_URL).toBe(`http://127.0.0.1:${proxy.port}/r/${routeIdFor('wf-1')}`);
    expect(prepared.container.binds).toEqual([`${sessionDir}:/session`]);
    expect(JSON.stringify(prepared.container) + readTree(sessionDir)).not.toContain(REAL);
    expect(() =>
      prepareHarnessRun({
        system: { id: 'cc', harness: 'claude-code', model: 'm', settings: { apiKeyEnv: 'ABSENT_KEY' } },
        runId: 'wf-2',
        sessionDir,
        image: 'img',
        proxy,
        limits,
        environment: {},
      }),
    ).toThrow(/ABSENT_KEY/);
    expect(() =>
      prepareHarnessRun({
        system: { id: 'cc', harness: 'codex', settings: {} },
        runId: 'wf-3',
        sessionDir,
        image: 'img',
        proxy,
        limits,
      }),
    ).toThrow(/names no model/);
  });

  it('reports every bad setting as a HarnessConfigError (the worker does not retry those)', () => {
    const prepare =
      (sys: SystemSpec, environment: Record<string, string> = {}) =>
      () =>
        prepareHarnessRun({
          system: sys,
          runId: 'wf-cfg',
          sessionDir: path.join(tmp, 's-cfg'),
          image: 'img',
          proxy,
          limits,
          environment,
        });
    expect(prepare(system({ image: 'x' }))).toThrow(HarnessConfigError);
    expect(prepare(system({ image: 'x', command: 'agent {nope}' }))).toThrow(HarnessConfigError);
    expect(prepare({ id: 'c', harness: 'codex', settings: {} })).toThrow(HarnessConfigError);
    expect(prepare({ id: 'c', harness: 'codex', model: 'm', settings: { baseUrl: 'ftp://x' } })).toThrow(
      HarnessConfigError,
    );
    expect(prepare({ id: 'c', harness: 'codex', model: 'm', settings: { apiKeyEnv: 'ABSENT_KEY' } })).toThrow(
      HarnessConfigError,
    );
    // A valid system prepares; only settings problems use the class.
    expect(prepare({ id: 'c', harness: 'codex', model: 'm', settings: { baseUrl: mock.url } })).not.toThrow();
  });

  it('keeps the pre-run session state of the first preparation for a retried activity', () => {
    const sessionDir = path.join(tmp, 's2');
    const stateFile = path.join(tmp, 'state', 'session-state.json');
    const sys: SystemSpec = { id: 'k', harness: 'kimi-cli', model: 'm', settings: { baseUrl: mock.url } };
    prepareHarnessRun({ system: sys, runId: 'wf-k', sessionDir, stateFile, image: 'img', proxy, limits });
    const first = fs.readFileSync(stateFile, 'utf8');
    fs.mkdirSync(path.join(sessionDir, '.kimi/sessions/x'), { recursive: true });
    fs.writeFileSync(path.join(sessionDir, '.kimi/sessions/x/wire.jsonl'), '{"grown":"by the first attempt"}\n');
    prepareHarnessRun({ system: sys, runId: 'wf-k', sessionDir, stateFile, image: 'img', proxy, limits });
    expect(fs.readFileSync(stateFile, 'utf8')).toBe(first);
  });
});

const docker = new Docker();
const dockerReady = await checkDockerReady(docker);

describe.skipIf(!dockerReady)('command harness in a container', () => {
  it('runs the template with the proxy URL and dummy key, and counts usage at the proxy', async () => {
    const dirs = makeTrialDirs(path.join(tmp, 'c1'));
    const command = [
      'curl -sS "$ASSAY_MODEL_BASE_URL/chat/completions" -H "authorization: Bearer $ASSAY_MODEL_API_KEY"',
      ' -H content-type:application/json -d "{\\"model\\":\\"$ASSAY_MODEL\\",\\"messages\\":[{\\"role\\":\\"user\\",\\"content\\":\\"$(head -c 200 {instruction_file})\\"}]}"',
      ' > {outputs_dir}/reply.json && echo "steps={max_steps}" > {session_dir}/note.txt',
    ].join('');
    const run = await runCliSession({
      docker,
      mock,
      proxy,
      image: 'assay/base:bookworm',
      dirs,
      runId: `cmd-${Date.now()}`,
      environment: { PROVIDER_KEY: REAL },
      system: system({
        image: 'assay/base:bookworm',
        command,
        api: 'openai-chat',
        baseUrl: mock.url,
        apiKeyEnv: 'PROVIDER_KEY',
      }),
      instruction: 'Plan the launch.',
    });
    expect(run.exitCode).toBe(0);
    expect(fs.readFileSync(path.join(dirs.workspace, 'outputs', 'reply.json'), 'utf8')).toContain('PLAN-OK');
    expect(fs.readFileSync(path.join(dirs.sessionDir, 'note.txt'), 'utf8').trim()).toBe('steps=20');
    expect(run.usage).toMatchObject({ inputTokens: 77, outputTokens: 9, turns: 1 });
    expect(run.proxyUsage).toMatchObject({ inputTokens: 77, outputTokens: 9, requests: 1 });
    expect(mock.sawCredential(REAL)).toBe(true);
    mock.assertNoSecret(REAL, { env: run.containerEnv.join('\n'), logs: run.logs, session: readTree(dirs.sessionDir) });
  }, 60_000);
});
