// Provider back-pressure: the AIMD rules as pure functions, then the job workflow on the
// time-skipping server: a throttle report halves the endpoint's lanes (once per cool-down), units
// of that endpoint wait while units without a model do not, running ones are left alone, and the
// lanes come back a step at a time after a quiet period, also across continue-as-new.
import { Context } from '@temporalio/activity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEndpoint, modelEndpoint, type BackPressure, type SystemSpec } from '@assay/core';
import { jobWorkflow } from '@assay/workflows';
import {
  jobProgressQuery,
  jobWorkflowId,
  setConcurrencyUpdate,
  throttledSignal,
  type JobProgress,
} from '@assay/workflows/definitions';
import { lanesOf, newEndpointState, noteThrottle, raiseDueAt, raiseLimit, viewOf } from '../src/endpoint-limits.js';
import { Gate, agentRun, jobInput, trialStubs } from './support/stub-activities.js';
import { startWorkflowTestEnv, type Stubs, type WorkflowTestEnv } from './support/workflow-test-env.js';

const BP: BackPressure = { coolDownSeconds: 30, raiseAfterSeconds: 60 };
const E = 'http://llm.test:9';

describe('endpoint limits (pure)', () => {
  it('halves from what was running, at most once per cool-down, never below one lane', () => {
    const s0 = newEndpointState(E);
    const s1 = noteThrottle(s0, 3, 1_000, 6, 8, BP);
    expect([s1.limit, s1.throttled, s1.lastCutAt]).toEqual([3, 3, 1_000]);
    const s2 = noteThrottle(s1, 2, 20_000, 3, 8, BP); // within the cool-down: counted, not cut
    expect([s2.limit, s2.throttled, s2.lastThrottleAt]).toEqual([3, 5, 20_000]);
    const s3 = noteThrottle(s2, 1, 31_000, 3, 8, BP);
    expect(s3.limit).toBe(1);
    expect(noteThrottle(s3, 1, 62_000, 1, 8, BP).limit).toBe(1);
    // Nothing of it running any more (a late report): halve the lanes it has.
    expect(noteThrottle(s0, 1, 0, 0, 8, BP).limit).toBe(4);
  });

  it('raises a step after a quiet period until the concurrency applies again', () => {
    const cut = noteThrottle(newEndpointState(E), 1, 0, 20, 20, BP);
    expect(cut.limit).toBe(10);
    expect(raiseDueAt(cut, BP)).toBe(60_000);
    const later = noteThrottle(cut, 1, 10_000, 10, 20, BP); // a throttle in the cool-down delays the raise
    expect(raiseDueAt(later, BP)).toBe(70_000);
    const up = raiseLimit(later, 70_000, 20);
    expect([up.limit, raiseDueAt(up, BP)]).toEqual([12, 130_000]); // a tenth of 20 per step
    let s = up;
    for (let i = 0; i < 4; i++) s = raiseLimit(s, 0, 20);
    expect(s.limit).toBeNull();
    expect(raiseDueAt(s, BP)).toBeNull();
    expect(lanesOf({ ...cut, limit: 10 }, 4)).toBe(4); // set-concurrency below the limit wins
  });

  it('counts throttles of the last 5 minutes and describes the endpoint', () => {
    let s = noteThrottle(newEndpointState(E), 30, 0, 8, 8, BP);
    s = noteThrottle(s, 7, 150_000, 4, 8, BP);
    expect(viewOf(s, 200_000, 8)).toEqual({
      endpoint: E,
      limit: 2,
      concurrency: 8,
      throttled: 37,
      recentThrottled: 37,
    });
    expect(describeEndpoint(viewOf(s, 200_000, 8))).toBe('llm.test:9 2/8 lanes, 37 throttled in the last 5 min');
    expect(viewOf(s, 320_000, 8).recentThrottled).toBe(7); // the first minute's bucket has left the window
  });

  it('gives an endpoint only to systems that call a model', () => {
    const sys = (harness: SystemSpec['harness'], settings: Record<string, unknown> = {}): SystemSpec => ({
      id: 's',
      harness,
      settings,
    });
    expect(modelEndpoint(sys('claude-code'))).toBe('https://api.anthropic.com');
    expect(modelEndpoint(sys('codex', { baseUrl: 'http://127.0.0.1:18080/v1' }))).toBe('http://127.0.0.1:18080');
    expect(modelEndpoint(sys('command', { api: 'openai-chat', baseUrl: `${E}/v1` }))).toBe(E);
    expect(modelEndpoint(sys('command'))).toBeNull();
    expect(modelEndpoint(sys('oracle'))).toBeNull();
    expect(modelEndpoint(sys('scripted', { agent: 'wrong-type' }))).toBeNull();
  });
});

let t: WorkflowTestEnv;
beforeAll(async () => {
  t = await startWorkflowTestEnv();
});
afterAll(async () => {
  await t?.teardown();
});

const LLM: SystemSpec = { id: 'llm', harness: 'command', settings: { api: 'openai-chat', baseUrl: `${E}/v1` } };
const LOCAL: SystemSpec = { id: 'local', harness: 'nop', settings: {} };

/** Agents held until their gate opens; `running` tracks which run now, `calls` every start. */
function heldAgents(gates: Map<string, Gate>) {
  const calls: string[] = [];
  const running = new Set<string>();
  let maxLlm = 0;
  const runAgent: Stubs['runAgent'] = async ({ trial }) => {
    const key = `${trial.system.id}/${trial.taskId}`;
    calls.push(key);
    running.add(key);
    maxLlm = Math.max(maxLlm, [...running].filter((k) => k.startsWith('llm/')).length);
    const gate = gates.get(key);
    if (gate) {
      const ctx = Context.current();
      let open = false;
      void gate.pass().then(() => (open = true));
      while (!open) {
        ctx.heartbeat();
        await ctx.sleep(100);
      }
    }
    running.delete(key);
    return agentRun();
  };
  return { runAgent, calls, running, maxLlm: () => maxLlm };
}

async function until(probe: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('job workflow back-pressure', () => {
  it('halves a throttled endpoint, holds only its units, and raises it again after a quiet period', async () => {
    const recorded: string[] = [];
    const keys = ['t1', 't2', 't3', 't4', 't5', 't6'].map((k) => `llm/${k}`);
    const gates = new Map(keys.map((k) => [k, new Gate()]));
    const agents = heldAgents(gates);
    const stubs: Stubs = { ...trialStubs(recorded), listFinishedTrials: async () => [], runAgent: agents.runAgent };
    const input = jobInput({
      jobId: 'bp',
      systems: [LLM, LOCAL],
      taskIds: ['t1', 't2', 't3', 't4', 't5', 't6'],
      concurrency: 4,
      backPressure: { coolDownSeconds: 5, raiseAfterSeconds: 20 }, // long enough for a loaded machine
    });
    await t.withWorker(stubs, async (taskQueue) => {
      const handle = await t.client.workflow.start(jobWorkflow, {
        taskQueue,
        workflowId: jobWorkflowId('bp'),
        args: [input],
      });
      const progress = (): Promise<JobProgress> => handle.query(jobProgressQuery);
      await until(() => agents.running.size === 4, 'four agents');
      await handle.signal(throttledSignal, { endpoint: E, count: 5 });
      await handle.signal(throttledSignal, { endpoint: E, count: 3 }); // within the cool-down
      await until(async () => (await progress()).endpoints?.[0]?.throttled === 8, 'both reports');
      expect((await progress()).endpoints).toEqual([
        { endpoint: E, limit: 2, concurrency: 4, throttled: 8, recentThrottled: 8 },
      ]);
      expect((await handle.describe()).memo).toMatchObject({ assayEndpoints: 'llm.test:9 2/4' });
      // Three finish: one llm unit may start (2 lanes), and the units without a model are not held back.
      for (const k of keys.slice(0, 3)) gates.get(k)!.open();
      await until(() => agents.calls.filter((c) => c.startsWith('local/')).length === 6, 'the local units');
      await until(() => agents.calls.includes('llm/t5'), 'llm/t5');
      await new Promise((r) => setTimeout(r, 1000));
      expect(agents.calls.includes('llm/t6')).toBe(false);
      // Running units are never stopped by back-pressure: t4 and t5 still run.
      expect([...agents.running].sort()).toEqual(['llm/t4', 'llm/t5']);
      // Quiet for raiseAfterSeconds: 3 lanes, so t6 starts.
      await until(() => agents.calls.includes('llm/t6'), 'llm/t6 after the raise');
      expect((await progress()).endpoints?.[0]).toMatchObject({ limit: 3, concurrency: 4 });
      for (const k of keys.slice(3)) gates.get(k)!.open();
      const done = await handle.result();
      expect(done.done).toHaveLength(12);
    });
    expect([...agents.calls].sort()).toEqual([...new Set(agents.calls)].sort()); // each started once
    expect(recorded).toHaveLength(12);
  });

  it('keeps the endpoint limited across continue-as-new', async () => {
    const recorded: string[] = [];
    const keys = ['t1', 't2', 't3', 't4'].map((k) => `llm/${k}`);
    const gates = new Map(keys.map((k) => [k, new Gate()]));
    const agents = heldAgents(gates);
    const stubs: Stubs = {
      ...trialStubs(recorded),
      listFinishedTrials: async () => [...recorded],
      runAgent: agents.runAgent,
    };
    const input = jobInput({
      jobId: 'bp-can',
      systems: [LLM],
      taskIds: ['t1', 't2', 't3', 't4'],
      concurrency: 2,
      batchSize: 2,
      backPressure: { coolDownSeconds: 5, raiseAfterSeconds: 600 },
    });
    await t.withWorker(stubs, async (taskQueue) => {
      const handle = await t.client.workflow.start(jobWorkflow, {
        taskQueue,
        workflowId: jobWorkflowId('bp-can'),
        args: [input],
      });
      await until(() => agents.running.size === 2, 'two agents');
      await handle.signal(throttledSignal, { endpoint: E, count: 4 });
      await until(async () => (await handle.query(jobProgressQuery)).endpoints?.[0]?.limit === 1, 'the cut');
      gates.get('llm/t1')!.open();
      gates.get('llm/t2')!.open();
      // The next run starts its batch with the endpoint still at one lane.
      await until(() => agents.calls.includes('llm/t3'), 'the next run');
      await new Promise((r) => setTimeout(r, 1000));
      expect(agents.calls.includes('llm/t4')).toBe(false);
      const p: JobProgress = await handle.query(jobProgressQuery);
      expect(p.endpoints).toEqual([{ endpoint: E, limit: 1, concurrency: 2, throttled: 4, recentThrottled: 4 }]);
      gates.get('llm/t3')!.open();
      gates.get('llm/t4')!.open();
      await handle.result();
    });
    expect(agents.maxLlm()).toBe(2);
    expect([...recorded].sort()).toEqual(['llm/t1/1', 'llm/t2/1', 'llm/t3/1', 'llm/t4/1']);
  });

  it('shows the lanes against the new concurrency as soon as set-concurrency applies', async () => {
    const recorded: string[] = [];
    const keys = ['t1', 't2'].map((k) => `llm/${k}`);
    const gates = new Map(keys.map((k) => [k, new Gate()]));
    const agents = heldAgents(gates);
    const stubs: Stubs = { ...trialStubs(recorded), listFinishedTrials: async () => [], runAgent: agents.runAgent };
    const input = jobInput({
      jobId: 'bp-set',
      systems: [LLM],
      taskIds: ['t1', 't2'],
      concurrency: 4,
      backPressure: { coolDownSeconds: 5, raiseAfterSeconds: 600 },
    });
    await t.withWorker(stubs, async (taskQueue) => {
      const handle = await t.client.workflow.start(jobWorkflow, {
        taskQueue,
        workflowId: jobWorkflowId('bp-set'),
        args: [input],
      });
      await until(() => agents.running.size === 2, 'two agents');
      await handle.signal(throttledSignal, { endpoint: E, count: 3 });
      await until(async () => (await handle.query(jobProgressQuery)).endpoints?.[0]?.limit === 1, 'the cut');
      expect((await handle.describe()).memo).toMatchObject({ assayEndpoints: 'llm.test:9 1/4' });
      // No throttle, no step up, no unit finishing: only the update itself can refresh what is shown.
      await handle.executeUpdate(setConcurrencyUpdate, { args: [8] });
      const p: JobProgress = await handle.query(jobProgressQuery);
      expect(p.endpoints).toEqual([{ endpoint: E, limit: 1, concurrency: 8, throttled: 3, recentThrottled: 3 }]);
      expect((await handle.describe()).memo).toMatchObject({ assayEndpoints: 'llm.test:9 1/8' });
      for (const k of keys) gates.get(k)!.open();
      await handle.result();
    });
  });
});
