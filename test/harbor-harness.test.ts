// A model harness on a Harbor task, end to end through the real CLI: a real Temporal dev server, the
// harness's image chain layered on the task's own image, the real CLI in it talking to the scripted model
// server through the worker's key-injecting proxy (reached through the relay in the CLI's container, which
// keeps the task's own network: none here, a compose task's trial network with its sidecar in another
// test), the verifier on the agent's snapshot, and `assay report`. Another test runs the CLI on a task image
// whose USER is not root.
// The scripted model writes the file the task's tests check with the CLI's own tool, in the CLI's working
// directory: it lands in the task's (/app) only if the harness runs where Harbor's agents run.
// Building the harness image needs the npm registry (≈ 2 min the first time), so, like the harness e2e of
// packages/harnesses, this runs only with ASSAY_HARNESS_E2E=1 (ASSAY_HARNESSES=claude-code,... picks others
// than codex). With codex, a second test kills the worker mid-agent: the CLI's container is re-attached.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@assay/infra';
import { startMockLlm, type MockLlmServer, type MockReply, type MockRequest } from '@assay/mock-llm';
import { toolSchemas } from '../packages/harnesses/test/support/deliverable-script.js';
import { ROOT, collectOutput, spawnCli, useTestServer, waitFor, writeJob } from './support/e2e.js';
import { readTrials } from './support/records.js';
import { runContainer } from './support/run-container.js';

const DATASET = path.join(ROOT, 'test/fixtures/harbor-model');
const enabled = process.env.ASSAY_HARNESS_E2E === '1';
const harnesses = process.env.ASSAY_HARNESSES?.split(',').filter(Boolean) ?? ['codex'];
const ASK = /the single word "(\w+)" to the file (\S+) in your working directory/;
const FETCH = /Fetch the token it serves at (\S+) and write it to the file (\S+) in your working directory/;
const COMPOSE_DATASET = path.join(ROOT, 'test/fixtures/harbor-model-compose');
const USER_DATASET = path.join(ROOT, 'test/fixtures/harbor-model-user');

/** The crash test's shell command sleeps first, so its worker can be killed while the CLI waits on it. */
let slowShell = false;

const SHELL_TOOL =
  /^(bash|shell|shell_command|exec|exec_command|run_shell_command|terminal|run_command|execute_command)$/i;

/**
 * The model's side: write the word to the named relative file with the CLI's shell tool (it runs in the CLI's
 * working directory; some CLIs' file tools take absolute paths only), then finish.
 */
function reply(req: MockRequest): MockReply {
  const tools = toolSchemas(req);
  if (tools.length === 0) return { text: 'ok', usage: { input: 100, output: 5, cachedInput: 0 } };
  if (req.messages.at(-1)?.role === 'tool' || req.toolResult.length > 0)
    return { text: 'Done: the file is written.', usage: { input: 1500, output: 20, cachedInput: 0 } };
  const said = req.messages.map((m) => m.text).join('\n');
  const ask = ASK.exec(said);
  const fetch = FETCH.exec(said);
  const shell = tools.find((t) => SHELL_TOOL.test(t.name));
  const params = (shell?.params.properties ?? {}) as Record<string, { type?: unknown }>;
  const key = ['command', 'cmd', 'script'].find((k) => k in params);
  if (!(ask || fetch) || !shell || !key)
    return { text: 'I cannot do that.', usage: { input: 1500, output: 20, cachedInput: 0 } };
  // No command substitution: Gemini CLI refuses it. A compose task's file comes from its sidecar, by name.
  const script = fetch
    ? `curl -sf '${fetch[1]}' -o '${fetch[2]}'`
    : `${slowShell ? 'sleep 10 && ' : ''}printf '%s\\n' '${ask?.[1]}' > '${ask?.[2]}'`;
  const command = params[key]?.type === 'array' ? ['bash', '-lc', script] : script;
  return {
    toolCalls: [{ name: shell.name, arguments: { [key]: command } }],
    usage: { input: 1200, output: 40, cachedInput: 300 },
  };
}

describe.skipIf(!enabled)('a model harness on a Harbor task', () => {
  const server = useTestServer();
  const secret = `sk-real-${randomBytes(12).toString('hex')}`;
  let mock: MockLlmServer;

  beforeAll(async () => {
    mock = await startMockLlm({ script: { rules: [], default: reply } });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it.each(harnesses)(
    '%s writes the file the tests check, the verifier rewards it, the key stays out',
    async (harness) => {
      mock.clearRecords();
      const jobId = `harbor-${harness}`;
      const job = writeJob({
        id: jobId,
        benchmark: `harbor:${DATASET}`,
        trials: 1,
        concurrency: 2,
        systems: [
          { id: 'oracle', harness: 'oracle' },
          {
            id: harness,
            harness,
            model: 'mock-model',
            settings: {
              baseUrl: harness === 'codex' ? `${mock.url}/v1` : mock.url,
              apiKeyEnv: 'ASSAY_E2E_PROVIDER_KEY',
            },
          },
        ],
        limits: { maxSteps: 20 },
      });
      const started = Date.now();
      const env = { ASSAY_E2E_PROVIDER_KEY: secret, ASSAY_MODEL_PROXY_PORT: String(await freePort()) };
      const run = collectOutput(spawnCli(['run', job, '--json'], server().address, env));
      expect(await run.exit, run.text()).toBe(0);
      console.error(`[${harness}] job (oracle + ${harness}, images included) in ${(Date.now() - started) / 1000} s`);

      const results = path.join(path.dirname(job), 'results');
      const records = await readTrials(results);
      const model = records.find((r) => r.system.id === harness);
      const trialDir = path.join(results, 'trials', harness, 'write-greeting', '1');
      const transcript = readFileSync(path.join(trialDir, 'transcript.log'), 'utf8');
      expect(model?.status, transcript.slice(-4000)).toBe('completed');
      expect(model?.verifier).toMatchObject({ rewards: { reward: 1, clean_env: 1 }, reward: 1, file: 'reward.json' });
      expect(model?.score).toMatchObject({ value: 100, success: true, source: 'verifier' });
      expect(readFileSync(path.join(trialDir, 'verifier', 'test-stdout.txt'), 'utf8')).toContain('cwd=/app');
      expect(records.find((r) => r.system.id === 'oracle')?.score.value).toBe(100);

      // The CLI's own usage reached the agent's result and is what the server sent; every model call went
      // through the proxy. (The proxy's token counts are not compared: a CLI that hangs up once it has the
      // completion event can leave the proxy counting that response as failed.)
      const agent = JSON.parse(readFileSync(path.join(trialDir, 'agent-result.json'), 'utf8')) as {
        usage: { inputTokens: number; outputTokens: number } | null;
        proxyUsage: { requests: number } | null;
        harnessVersion?: string;
      };
      // The CLI's version as the image the agent ran says (its file's first line); the oracle has none.
      const ran = model?.provenance?.agentImage ?? '';
      const versionFile = await runContainer(new Docker(), ran, ['head', '-n1', '/opt/assay-harness-version']);
      expect(versionFile.code, versionFile.out).toBe(0);
      expect(agent.harnessVersion).toBe(versionFile.out.trim());
      expect(model?.provenance?.harnessVersion).toBe(versionFile.out.trim());
      expect(records.find((r) => r.system.id === 'oracle')?.provenance?.harnessVersion).toBeUndefined();
      const sent = mock.totalUsage();
      expect(agent.usage).toMatchObject({ inputTokens: sent.input, outputTokens: sent.output });
      expect(agent.proxyUsage?.requests).toBe(mock.requests.length);

      // The real key reached the model server through the proxy, and nowhere else.
      expect(mock.sawCredential(secret)).toBe(true);
      mock.assertNoSecret(secret, {
        transcript,
        'agent-result.json': JSON.stringify(agent),
        record: JSON.stringify(model),
        'job.json': readFileSync(path.join(results, 'job.json'), 'utf8'),
      });
      const left = await new Docker().listContainers({ all: true, filters: { label: [`assay.job=${jobId}`] } });
      expect(left.map((c) => c.Names)).toEqual([]);

      const out = mkdtempSync(path.join(os.tmpdir(), 'assay-harbor-harness-report-'));
      const report = collectOutput(spawnCli(['report', job, '--out', out], server().address));
      expect(await report.exit, report.text()).toBe(0);
      const [header = '', ...rows] = readFileSync(path.join(out, 'tables', 'leaderboard.csv'), 'utf8')
        .trim()
        .split('\n');
      const row = rows.find((l) => l.startsWith(`${harness},`))?.split(',') ?? [];
      expect(row[header.split(',').indexOf('mean')]).toBe('100');
    },
    1_800_000,
  );

  it.each(harnesses)(
    '%s on a compose task: on the trial network with its sidecar, the model through the relay, no host network',
    async (harness) => {
      mock.clearRecords();
      const jobId = `harbor-compose-${harness}`;
      const job = writeJob({
        id: jobId,
        benchmark: `harbor:${COMPOSE_DATASET}`,
        trials: 1,
        systems: [
          {
            id: harness,
            harness,
            model: 'mock-model',
            settings: {
              baseUrl: harness === 'codex' ? `${mock.url}/v1` : mock.url,
              apiKeyEnv: 'ASSAY_E2E_PROVIDER_KEY',
            },
          },
        ],
        limits: { maxSteps: 20 },
      });
      const started = Date.now();
      const env = { ASSAY_E2E_PROVIDER_KEY: secret, ASSAY_MODEL_PROXY_PORT: String(await freePort()) };
      const run = collectOutput(spawnCli(['run', job, '--json'], server().address, env));
      // The CLI's container as Docker has it: its network and mounts.
      const docker = new Docker();
      const agent = await waitFor(
        async () => {
          const [c] = await docker.listContainers({ filters: { label: [`assay.job=${jobId}`, 'assay.role=agent'] } });
          return c ? docker.getContainer(c.Id).inspect() : undefined;
        },
        'the CLI container',
        1_200_000,
      );
      expect(await run.exit, run.text()).toBe(0);
      console.error(`[${harness}] compose job (images included) in ${(Date.now() - started) / 1000} s`);

      const results = path.join(path.dirname(job), 'results');
      const [record] = await readTrials(results);
      const trialDir = path.join(results, 'trials', harness, 'relay-token', '1');
      const transcript = readFileSync(path.join(trialDir, 'transcript.log'), 'utf8');
      // The token is the sidecar's: the CLI reached `web` by name on the trial network, and the verifier too.
      expect(record?.verifier, transcript.slice(-4000)).toMatchObject({ rewards: { reward: 1 } });
      const network = agent.HostConfig.NetworkMode ?? '';
      expect(network).toMatch(/^assay-net-/);
      expect(
        (await docker
          .getNetwork(network)
          .inspect()
          .catch(() => null)) ?? 'removed with the record',
      ).toBe('removed with the record');
      expect(agent.HostConfig.Binds?.some((b) => b.endsWith(':/assay-relay:ro'))).toBe(true);
      // Every model call went through the proxy (the relay's socket), with the real key only past it.
      const agentRun = JSON.parse(readFileSync(path.join(trialDir, 'agent-result.json'), 'utf8')) as {
        proxyUsage: { requests: number } | null;
      };
      expect(agentRun.proxyUsage?.requests).toBe(mock.requests.length);
      expect(mock.requests.length).toBeGreaterThan(0);
      expect(mock.sawCredential(secret)).toBe(true);
      mock.assertNoSecret(secret, { transcript, inspect: JSON.stringify(agent), record: JSON.stringify(record) });
    },
    1_800_000,
  );

  it.each(harnesses)(
    "%s on a task image whose USER is not root: installed as root, run as the task's user",
    async (harness) => {
      mock.clearRecords();
      const job = writeJob({
        id: `harbor-user-${harness}`,
        benchmark: `harbor:${USER_DATASET}`,
        trials: 1,
        systems: [
          {
            id: harness,
            harness,
            model: 'mock-model',
            settings: {
              baseUrl: harness === 'codex' ? `${mock.url}/v1` : mock.url,
              apiKeyEnv: 'ASSAY_E2E_PROVIDER_KEY',
            },
          },
        ],
        limits: { maxSteps: 20 },
      });
      const env = { ASSAY_E2E_PROVIDER_KEY: secret, ASSAY_MODEL_PROXY_PORT: String(await freePort()) };
      const run = collectOutput(spawnCli(['run', job, '--json'], server().address, env));
      expect(await run.exit, run.text()).toBe(0);
      const results = path.join(path.dirname(job), 'results');
      const [record] = await readTrials(results);
      const trialDir = path.join(results, 'trials', harness, 'greeting-as-user', '1');
      const transcript = readFileSync(path.join(trialDir, 'transcript.log'), 'utf8');
      expect(record?.verifier, transcript.slice(-4000)).toMatchObject({ rewards: { reward: 1, as_user: 1 } });
      expect(readFileSync(path.join(trialDir, 'verifier', 'test-stdout.txt'), 'utf8')).toContain(
        'cwd=/app user=someone',
      );
    },
    1_800_000,
  );

  it('codex on a Harbor task survives kill -9 of its worker: the CLI is re-attached, not restarted', async () => {
    if (!harnesses.includes('codex')) return;
    mock.clearRecords();
    slowShell = true;
    const jobId = 'harbor-codex-crash';
    const job = writeJob({
      id: jobId,
      benchmark: `harbor:${DATASET}`,
      trials: 1,
      systems: [
        {
          id: 'codex',
          harness: 'codex',
          model: 'mock-model',
          settings: { baseUrl: `${mock.url}/v1`, apiKeyEnv: 'ASSAY_E2E_PROVIDER_KEY' },
        },
      ],
    });
    // One proxy port for both workers: the second serves the container the first one started.
    const env = { ASSAY_E2E_PROVIDER_KEY: secret, ASSAY_MODEL_PROXY_PORT: String(await freePort()) };
    const worker = () => collectOutput(spawnCli(['worker'], server().address, env));
    const first = worker();
    const submit = collectOutput(
      spawnCli(['run', job, '--no-worker', '--detach', '--heartbeat-seconds', '4'], server().address, env),
    );
    expect(await submit.exit, submit.text()).toBe(0);
    const docker = new Docker();
    const agents = () =>
      docker.listContainers({ all: true, filters: { label: [`assay.job=${jobId}`, 'assay.role=agent'] } });
    // The model has asked for the (sleeping) shell command: the CLI is mid-run.
    await waitFor(() => (mock.modelCalls().length > 0 ? true : undefined), 'the first model call', 600_000);
    await new Promise((r) => setTimeout(r, 2000)); // its reply delivered: the CLI now runs the 10 s command
    const [agent] = await agents();
    if (!first.pid) throw new Error('worker pid unknown');
    process.kill(first.pid, 'SIGKILL');
    const second = worker();
    const status = collectOutput(spawnCli(['status', job, '--wait', '--json'], server().address));
    expect(await status.exit, status.text()).toBe(0);
    if (second.pid) process.kill(second.pid, 'SIGTERM');
    await second.exit;
    slowShell = false;

    const [record, ...others] = await readTrials(path.join(path.dirname(job), 'results'));
    expect(others).toEqual([]);
    expect(record?.verifier).toMatchObject({ rewards: { reward: 1, clean_env: 1 } });
    expect(record?.agent.containerAttempts).toBeGreaterThan(1);
    // The CLI ran once: a single request without a tool's output (a restarted CLI would open its turn again).
    const opening = mock.modelCalls().filter((r) => !JSON.stringify(r.body).includes('function_call_output'));
    expect(opening).toHaveLength(1);
    expect(agent).toBeDefined();
    expect(await agents()).toEqual([]);
  }, 1_200_000);
});
