// Steering a running job from the CLI against a real Temporal server and real agent containers:
// pause (the running agent finishes, nothing new starts), set-concurrency, resume; pause --now (the
// agent's container is stopped and removed, its trial runs again); cancel with a grace period
// (the running container is stopped, unfinished trials recorded as cancelled, finished ones
// untouched); and a later `assay run` that runs only the cancelled trials; budgets in agent-hours
// and, for a model-using agent against the scripted model server, in dollars. Container create
// events (and the model server's requests) prove that no finished trial ran twice.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Docker from 'dockerode';
import { parse, stringify } from 'yaml';
import { ensureBaseImage, freePort } from '@assay/infra';
import { startMockLlm } from '@assay/mock-llm';
import { Client, Connection } from '@temporalio/client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cancelledRecordSchema,
  jobControlFileSchema,
  trialRecordSchema,
  jobWorkflowId,
  trialKey,
  trialWorkflowId,
  type JobProgress,
} from '@assay/core';
import { jobControlKey, openResultsStore } from '@assay/results';
import { readTrials } from './support/records.js';
import {
  ROOT,
  collectOutput,
  spawnCli,
  useTestServer,
  waitFor,
  watchContainerCreates,
  writeJob,
} from './support/e2e.js';

const docker = new Docker();
const server = useTestServer();
const TASKS = ['fin-term-loan-schedule', 'legal-nda-review', 'edu-fractions-lesson'];
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function cli(args: string[]): Promise<string> {
  const run = collectOutput(spawnCli(args, server().address));
  expect(await run.exit, run.text()).toBe(0);
  return run.text();
}

/** `assay <command> --json`: the job's control state as the workflow acknowledged it. */
async function control(args: string[]): Promise<JobProgress['control']> {
  const out = await cli([...args, '--json']);
  return (JSON.parse(out.slice(out.indexOf('{'))) as { control: JobProgress['control'] }).control;
}

function startWorker(env: Record<string, string> = {}): void {
  const worker = collectOutput(spawnCli(['worker'], server().address, { ASSAY_WORKER_LOG_LEVEL: 'INFO', ...env }));
  stops.push(async () => {
    process.kill(worker.pid ?? 0, 'SIGINT');
    await worker.exit;
    if (process.env.ASSAY_TEST_WORKER_LOG) writeFileSync(process.env.ASSAY_TEST_WORKER_LOG, worker.text());
  });
}

async function containers(jobId: string, status?: 'running') {
  return docker.listContainers({
    all: status === undefined,
    filters: { label: [`assay.job=${jobId}`], ...(status ? { status: [status] } : {}) },
  });
}

async function setUp(jobId: string, delaySeconds: number) {
  const file = writeJob({
    id: jobId,
    trials: 1,
    tasks: TASKS,
    concurrency: 1,
    systems: [{ id: 'oracle', harness: 'oracle', settings: { delaySeconds } }],
  });
  const creates = await watchContainerCreates(jobId);
  stops.push(async () => creates.stop());
  startWorker();
  await cli(['run', file, '--no-worker', '--detach', '--heartbeat-seconds', '3']);
  const connection = await Connection.connect({ address: server().address });
  stops.push(() => connection.close());
  const handle = new Client({ connection }).workflow.getHandle(jobWorkflowId(jobId));
  const trialId = (task: string) => trialWorkflowId(jobId, trialKey('oracle', task, 1));
  return { file, results: path.join(path.dirname(file), 'results'), creates, handle, trialId };
}

/** job-control.json once it says `state` (the job writes it shortly after the change, without waiting). */
async function controlFile(results: string, state: string) {
  return waitFor(async () => {
    const raw = await openResultsStore(results).getJson(jobControlKey());
    const file = raw === null ? null : jobControlFileSchema.parse(raw);
    return file?.state === state ? file : undefined;
  }, `job-control.json to say ${state}`);
}

const recordCount = async (results: string, n: number) => ((await readTrials(results)).length >= n ? true : undefined);

describe('job control', () => {
  it('pause lets the running agent finish and starts nothing; set-concurrency and resume run the rest once', async () => {
    const t0 = Date.now();
    const jobId = 'ctl-pause';
    const { file, results, creates, handle } = await setUp(jobId, 8);
    await waitFor(async () => ((await containers(jobId, 'running')).length > 0 ? true : undefined), 'an agent');

    expect(await control(['pause', file, '--reason', 'provider outage'])).toMatchObject({
      state: 'paused',
      reason: 'provider outage',
    });
    await waitFor(() => recordCount(results, 1), 'the running trial to finish', 120_000);
    await new Promise((r) => setTimeout(r, 5000));
    expect(creates.workflowIds()).toHaveLength(1); // nothing new started while paused
    expect(await containers(jobId, 'running')).toHaveLength(0);
    expect((await handle.describe()).memo).toMatchObject({ assayControl: 'paused' });
    expect(await cli(['status', file])).toContain('paused (provider outage); concurrency 1');
    // The results folder says so too (the viewer reads it): who paused, why, since when.
    const paused = await controlFile(results, 'paused');
    expect(paused).toMatchObject({ jobId, reason: 'provider outage', pausedBy: 'pause', concurrency: 1 });
    expect(Date.parse(paused.since)).toBeGreaterThan(t0);

    expect((await control(['set-concurrency', file, '2']))?.concurrency).toBe(2);
    expect((await control(['resume', file]))?.state).toBe('running');
    // Two lanes now: the two remaining agents run at the same time.
    await waitFor(async () => ((await containers(jobId, 'running')).length === 2 ? true : undefined), 'two agents');
    const running = await controlFile(results, 'running');
    expect(running).toMatchObject({ reason: null, pausedBy: null, concurrency: 2 });
    expect(Date.parse(running.since)).toBeGreaterThan(Date.parse(paused.since));
    const progress = await handle.result();
    // Written before the workflow returned: the job's last state is on disk once it has ended.
    const done = jobControlFileSchema.parse(await openResultsStore(results).getJson(jobControlKey()));
    expect(done).toMatchObject({ state: 'done', concurrency: 2 });
    expect(progress.control).toMatchObject({ state: 'running', concurrency: 2 });
    const records = await readTrials(results);
    expect(records.map((r) => [r.task.id, r.status]).sort()).toEqual(TASKS.map((t) => [t, 'completed']).sort());
    const ids = creates.workflowIds();
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3); // each trial's agent ran exactly once
    console.log(`pause/resume/set-concurrency: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }, 400_000);

  it('pause --now stops the agent and reruns its trial; cancel stops the next after its grace; run again runs only what was cancelled', async () => {
    const t0 = Date.now();
    const jobId = 'ctl-cancel';
    const { file, results, creates, handle, trialId } = await setUp(jobId, 10);
    const [first, second, third] = TASKS as [string, string, string];
    await waitFor(async () => ((await containers(jobId, 'running')).length > 0 ? true : undefined), 'an agent');

    await control(['pause', file, '--now']);
    // Its container is stopped and removed (not left behind to be re-attached), and no record is written.
    await waitFor(async () => ((await containers(jobId)).length === 0 ? true : undefined), 'the agent stopped');
    await new Promise((r) => setTimeout(r, 3000));
    expect(await readTrials(results)).toEqual([]);
    expect(creates.workflowIds()).toEqual([trialId(first)]);

    await control(['resume', file]);
    await waitFor(() => recordCount(results, 1), 'the stopped trial to run again', 120_000);
    await waitFor(
      () => (creates.workflowIds().includes(trialId(second)) ? true : undefined),
      'the second trial to start',
    );
    await waitFor(async () => ((await containers(jobId, 'running')).length > 0 ? true : undefined), 'its agent');
    expect((await control(['cancel', file, '--grace', '2']))?.state).toBe('cancelling');
    const progress = await handle.result();
    expect(progress.control?.state).toBe('cancelled');
    expect(progress.done.map((o: { key: string; status: string }) => [o.key, o.status])).toEqual([
      [trialKey('oracle', first, 1), 'completed'],
      [trialKey('oracle', second, 1), 'cancelled'],
      [trialKey('oracle', third, 1), 'cancelled'],
    ]);
    expect(await containers(jobId)).toHaveLength(0); // the running agent was stopped and removed

    const store = openResultsStore(results);
    const cancelled = await Promise.all(
      [second, third].map(async (t) =>
        cancelledRecordSchema.parse(await store.getJson(`trials/oracle/${t}/1/cancelled.json`)),
      ),
    );
    expect(cancelled.map((c) => [c.key, c.status, c.started])).toEqual([
      [trialKey('oracle', second, 1), 'cancelled', true],
      [trialKey('oracle', third, 1), 'cancelled', false],
    ]);
    const before = await readTrials(results);
    expect(before.map((r) => r.task.id)).toEqual([first]); // finished trial untouched, no record for the others

    // A later run of the same job runs the cancelled trials, and only them.
    await cli(['run', file, '--heartbeat-seconds', '3']);
    const after = await readTrials(results);
    expect(after.map((r) => [r.task.id, r.status]).sort()).toEqual(TASKS.map((t) => [t, 'completed']).sort());
    expect(after.find((r) => r.task.id === first)?.recordedAt).toBe(before[0]?.recordedAt);
    const count = (t: string) => creates.workflowIds().filter((id) => id === trialId(t)).length;
    console.log(`creates: ${creates.workflowIds().join(' ')}`);
    // first: stopped by pause --now, then once; second: stopped by cancel, then once; third: once.
    expect([count(first), count(second), count(third)]).toEqual([2, 2, 1]);
    console.log(`pause --now/cancel/re-run: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }, 600_000);

  it('--retry agent-failed runs a failed trial again, keeping its record under attempts/; an added system runs only its trials', async () => {
    const t0 = Date.now();
    const jobId = 'ctl-retry';
    const base = (await ensureBaseImage({ root: ROOT })).tag;
    const [task] = TASKS as [string];
    const file = writeJob({
      id: jobId,
      trials: 1,
      tasks: [task],
      systems: [{ id: 'fails', harness: 'command', settings: { image: base, command: 'exit 3' } }],
    });
    const results = path.join(path.dirname(file), 'results');
    const creates = await watchContainerCreates(jobId);
    stops.push(async () => creates.stop());
    const trialId = (system: string) => trialWorkflowId(jobId, trialKey(system, task, 1));

    await cli(['run', file, '--heartbeat-seconds', '3']);
    const [first] = await readTrials(results);
    expect(first?.status).toBe('agent-failed');
    await cli(['run', file, '--heartbeat-seconds', '3']); // an agent failure is a result: not run again
    expect(creates.workflowIds()).toEqual([trialId('fails')]);

    await cli(['run', file, '--retry', 'agent-failed', '--heartbeat-seconds', '3']);
    expect(creates.workflowIds()).toEqual([trialId('fails'), trialId('fails')]);
    const [second] = await readTrials(results);
    expect(second?.status).toBe('agent-failed');
    expect(second?.recordedAt).not.toBe(first?.recordedAt);
    const store = openResultsStore(results);
    const kept = trialRecordSchema.parse(await store.getJson(`trials/fails/${task}/1/attempts/1/record.json`));
    expect(kept).toEqual(first); // the first attempt, as it was recorded

    // The job file gains a system: only its trial runs.
    const spec = parse(readFileSync(file, 'utf8')) as { systems: unknown[] };
    spec.systems.push({ id: 'oracle', harness: 'oracle' });
    writeFileSync(file, stringify(spec));
    await cli(['run', file, '--heartbeat-seconds', '3']);
    expect(creates.workflowIds()).toEqual([trialId('fails'), trialId('fails'), trialId('oracle')]);
    const records = await readTrials(results);
    expect(records.map((r) => [r.system.id, r.status]).sort()).toEqual([
      ['fails', 'agent-failed'],
      ['oracle', 'completed'],
    ]);
    expect(records.find((r) => r.system.id === 'fails')?.recordedAt).toBe(second?.recordedAt);
    console.log(`retry/extend: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }, 400_000);

  it('pauses itself when its budget is reached, refuses to resume under it, and resumes once the file raises it', async () => {
    const t0 = Date.now();
    const jobId = 'ctl-budget';
    const file = writeJob({
      id: jobId,
      trials: 1,
      tasks: TASKS,
      concurrency: 1,
      systems: [{ id: 'oracle', harness: 'oracle', settings: { delaySeconds: 6 } }],
      budget: { agentHours: 0.0025 }, // 9 agent-seconds: reached by the second 6-second agent
    });
    const results = path.join(path.dirname(file), 'results');
    const creates = await watchContainerCreates(jobId);
    stops.push(async () => creates.stop());
    startWorker();
    await cli(['run', file, '--no-worker', '--detach', '--heartbeat-seconds', '3']);
    const connection = await Connection.connect({ address: server().address });
    stops.push(() => connection.close());
    const handle = new Client({ connection }).workflow.getHandle(jobWorkflowId(jobId));

    const paused = await waitFor(
      async () => {
        const p = (await handle.query('progress').catch(() => undefined)) as JobProgress | undefined;
        return p?.control?.state === 'paused' ? p : undefined;
      },
      'the budget pause',
      180_000,
    );
    expect(paused.control?.reason).toMatch(/^budget reached \(all\): agentHours 0\.00\d+ of 0\.0025$/);
    expect(paused.control?.spend?.agentHours).toBeGreaterThanOrEqual(0.0025);
    expect(paused.control?.projected?.agentHours).toBeGreaterThan(paused.control?.spend?.agentHours ?? Infinity);
    await new Promise((r) => setTimeout(r, 4000));
    expect(creates.workflowIds()).toHaveLength(2);
    expect(await readTrials(results)).toHaveLength(2);
    const status = await cli(['status', file]);
    expect(status).toContain('paused (budget reached');
    expect(status).toMatch(/spend \$0\.00, 0 tokens, 0\.00 agent-hours; projected to the end of the job/);

    const refused = collectOutput(spawnCli(['resume', file], server().address));
    expect(await refused.exit).toBe(1);
    expect(refused.text()).toContain('raise the budget in the job file');

    const spec = parse(readFileSync(file, 'utf8')) as { budget: { agentHours: number } };
    spec.budget.agentHours = 1;
    writeFileSync(file, stringify(spec));
    expect((await control(['resume', file]))?.state).toBe('running');
    const progress = await handle.result();
    expect(progress.control?.budget).toMatchObject({ agentHours: 1 });
    expect(await readTrials(results)).toHaveLength(3);
    // A finished job's last control state is history: status says it ended, not "running".
    const ended = await cli(['status', file]);
    expect(ended).toMatch(/: completed; ran at concurrency \d+\nspent \$0\.00, 0 tokens/);
    expect(ended).not.toContain('; concurrency');
    const ids = creates.workflowIds();
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    console.log(`budget pause/resume: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }, 400_000);

  it('a model-using agent reaches its dollar budget mid-job: the job pauses saying why, status shows the spend, resume after raising it runs the rest once', async () => {
    const t0 = Date.now();
    const jobId = 'ctl-budget-usd';
    // Each agent makes one model call of 77 input and 9 output tokens: $0.095 at these prices.
    const llm = await startMockLlm({
      script: { rules: [], default: { text: 'DRAFT-OK', usage: { input: 77, output: 9, cachedInput: 0 } } },
    });
    stops.push(() => llm.close());
    const image = (await ensureBaseImage({ root: ROOT })).tag;
    const body = '{\\"model\\":\\"$ASSAY_MODEL\\",\\"messages\\":[{\\"role\\":\\"user\\",\\"content\\":\\"draft\\"}]}';
    const command =
      'curl -sS "$ASSAY_MODEL_BASE_URL/chat/completions" -H "authorization: Bearer $ASSAY_MODEL_API_KEY"' +
      ` -H content-type:application/json -d "${body}" > {outputs_dir}/reply.json`;
    const file = writeJob({
      id: jobId,
      trials: 1,
      tasks: TASKS,
      concurrency: 1,
      systems: [
        {
          id: 'drafter',
          harness: 'command',
          model: 'mock-model',
          settings: { image, command, api: 'openai-chat', baseUrl: llm.url },
        },
      ],
      prices: { 'mock-model': { inputPerMTok: 1000, outputPerMTok: 2000 } },
      budget: { usd: 0.15 }, // reached by the second agent ($0.19)
    });
    const results = path.join(path.dirname(file), 'results');
    const creates = await watchContainerCreates(jobId);
    stops.push(async () => creates.stop());
    startWorker({ ASSAY_MODEL_PROXY_PORT: String(await freePort()) });
    await cli(['run', file, '--no-worker', '--detach', '--heartbeat-seconds', '3']);
    const connection = await Connection.connect({ address: server().address });
    stops.push(() => connection.close());
    const handle = new Client({ connection }).workflow.getHandle(jobWorkflowId(jobId));

    const paused = await waitFor(
      async () => {
        const p = (await handle.query('progress').catch(() => undefined)) as JobProgress | undefined;
        return p?.control?.state === 'paused' ? p : undefined;
      },
      'the budget pause',
      180_000,
    );
    expect(paused.control?.reason).toBe('budget reached (all): usd 0.19 of 0.15');
    expect(paused.control?.spend).toMatchObject({ tokens: 172, unpricedTokens: 0 });
    expect(paused.control?.spend?.usd).toBeCloseTo(0.19, 6);
    expect(paused.control?.projected?.usd).toBeCloseTo(0.285, 6); // one trial to go at the average
    await new Promise((r) => setTimeout(r, 4000));
    expect(creates.workflowIds()).toHaveLength(2);
    expect(llm.requests).toHaveLength(2);
    const records = await readTrials(results);
    expect(records.map((r) => [r.usage?.inputTokens, r.usage?.outputTokens])).toEqual([
      [77, 9],
      [77, 9],
    ]);
    const status = await cli(['status', file]);
    expect(status).toContain('paused (budget reached (all): usd 0.19 of 0.15)');
    expect(status).toContain('spend $0.19, 172 tokens, 0.00 agent-hours; projected to the end of the job $0.2');

    const refused = collectOutput(spawnCli(['resume', file], server().address));
    expect(await refused.exit).toBe(1);
    expect(refused.text()).toContain('raise the budget in the job file');
    const spec = parse(readFileSync(file, 'utf8')) as { budget: { usd: number } };
    spec.budget.usd = 1;
    writeFileSync(file, stringify(spec));
    expect((await control(['resume', file]))?.state).toBe('running');
    const progress = await handle.result();
    expect(progress.control?.spend?.usd).toBeCloseTo(0.285, 6);
    const all = await readTrials(results);
    expect(all.map((r) => [r.task.id, r.status]).sort()).toEqual(TASKS.map((t) => [t, 'completed']).sort());
    expect(new Set(creates.workflowIds()).size).toBe(3);
    expect(creates.workflowIds()).toHaveLength(3);
    expect(llm.requests).toHaveLength(3); // no trial's agent ran (or called the model) twice
    console.log(`usd budget pause/resume: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }, 300_000);
});
