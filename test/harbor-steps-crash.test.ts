// A multi-step Harbor trial survives kill -9 of its worker during step 2's agent: the next worker resumes at
// step 2 (re-attaching to its running container), step 1's agent and verifier never run again, and the record
// equals an undisturbed run's. With step 2's container gone as well, step 2 runs again from step 1's snapshot
// (the checkpoint), step 1 still never runs again, and the record says the step was restarted. A step with a
// workdir/: killed during its setup.sh, the next worker re-attaches to the setup's container (setup.sh runs
// once); its agent's container gone, the agent starts again from the setup's snapshot (no second upload or
// setup.sh over the interrupted agent's work).
import path from 'node:path';
import Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { containerNameFor } from '@assay/activities';
import { trialKey, trialWorkflowId, type TrialRecord } from '@assay/core';
import { watchCreates, type CreatedAttributes } from './support/docker-events.js';
import { readTrials } from './support/records.js';
import { ROOT, collectOutput, spawnCli, useTestServer, waitFor, writeJob } from './support/e2e.js';

const docker = new Docker();
const server = useTestServer();
const SLOW = { dir: path.join(ROOT, 'test/fixtures/harbor/steps-slow'), task: 'slow-steps' };
const SLOW_SETUP = { dir: path.join(ROOT, 'test/fixtures/harbor/steps-slow-workdir'), task: 'slow-setup' };
/** `role step name`: which step made each container. */
const describeStep = (a: CreatedAttributes) => `${a['assay.role'] ?? '?'} ${a['assay.step'] ?? '?'} ${a.name ?? '?'}`;

/** Wait until step `step`'s container in this role runs; its id. */
const running = (jobId: string, role: string, step: string) =>
  waitFor(
    async () => {
      const found = await docker.listContainers({
        filters: { label: [`assay.job=${jobId}`, `assay.role=${role}`, `assay.step=${step}`], status: ['running'] },
      });
      return found[0]?.Id;
    },
    `a running ${role} container of step ${step}`,
    300_000,
  );

/** What must not differ between a disturbed and an undisturbed run: rewards, scores, how each step ended. */
const comparable = (r: TrialRecord | undefined) => ({
  status: r?.status,
  score: r?.score,
  verifier: { ...r?.verifier, durationSeconds: 0 },
  multiStep: r?.multiStep,
  steps: r?.steps?.map((s) => ({ name: s.name, score: s.score, rewards: s.verifier.rewards, aborted: s.aborted })),
});

/** Run the job on workers of its own; `disturb` acts once the job is submitted. */
async function runJob(
  jobId: string,
  disturb: (killWorker: () => void) => Promise<void>,
  fixture: { dir: string; task: string } = SLOW,
) {
  const file = writeJob({
    id: jobId,
    benchmark: `harbor:${fixture.dir}`,
    trials: 1,
    systems: [{ id: 'oracle', harness: 'oracle' }],
  });
  const creates = await watchCreates(docker, jobId, describeStep);
  const worker = () => collectOutput(spawnCli(['worker'], server().address));
  const workers = [worker()];
  const submit = collectOutput(
    spawnCli(['run', file, '--no-worker', '--detach', '--heartbeat-seconds', '4'], server().address),
  );
  expect(await submit.exit, submit.text()).toBe(0);
  await disturb(() => {
    const w = workers.at(-1);
    if (!w?.pid) throw new Error('worker pid unknown');
    process.kill(w.pid, 'SIGKILL');
    workers.push(worker());
  });
  const status = collectOutput(spawnCli(['status', file, '--wait', '--json'], server().address));
  expect(await status.exit, status.text()).toBe(0);
  const last = workers.at(-1);
  if (last?.pid) process.kill(last.pid, 'SIGTERM');
  await last?.exit;
  creates.stop();
  if (process.env.ASSAY_TEST_WORKER_LOG) for (const x of workers) console.log(`--- worker\n${x.text()}`);
  const [record, ...others] = await readTrials(path.join(path.dirname(file), 'results'));
  expect(others).toEqual([]);
  expect(await docker.listContainers({ all: true, filters: { label: [`assay.job=${jobId}`] } })).toEqual([]);
  return { record, seen: creates.seen(), id: trialWorkflowId(jobId, trialKey('oracle', fixture.task, 1)) };
}

describe('Harbor multi-step crash recovery', () => {
  it('resumes at step 2 after kill -9 during its agent; step 1 never runs again; the record is the undisturbed one', async () => {
    const calm = await runJob('harbor-steps-calm', async () => undefined);
    // Reward 1 at step 2 needs step 1's solve.sh to have run once and step 2's once, in one environment.
    expect(calm.record?.steps?.map((s) => s.score)).toEqual([100, 100]);
    expect(calm.record?.score).toMatchObject({ value: 100, source: 'verifier' });

    const jobId = 'harbor-steps-crash';
    const crashed = await runJob(jobId, async (kill) => {
      await running(jobId, 'agent', 'build');
      kill();
    });
    expect(comparable(crashed.record)).toEqual(comparable(calm.record));
    const [setup, build] = crashed.record?.steps ?? [];
    expect(build?.agent.containerAttempts).toBeGreaterThan(1);
    expect(build?.agent.restarted).toBe(false);
    expect(setup?.agent.containerAttempts).toBe(1);
    // Step 1's agent and verifier containers were made once each; step 2's agent once (re-attached).
    const id = crashed.id;
    const seen = crashed.seen;
    expect(seen.filter((c) => c.includes(' setup '))).toEqual([
      `agent setup ${containerNameFor(`${id}:step-1`)}`,
      `verifier setup ${containerNameFor(`${id}:step-1:verifier`)}`,
    ]);
    expect(seen.filter((c) => c.startsWith('agent build '))).toEqual([
      `agent build ${containerNameFor(`${id}:step-2`)}`,
    ]);
    expect(seen.filter((c) => c.startsWith('verifier build ')).length).toBeGreaterThanOrEqual(1);
  }, 900_000);

  it("restarts step 2 from step 1's snapshot when its container is gone too, and says so", async () => {
    const jobId = 'harbor-steps-restart';
    const { record, seen, id } = await runJob(jobId, async (kill) => {
      const container = await running(jobId, 'agent', 'build');
      kill();
      await docker.getContainer(container).remove({ force: true });
    });
    // From step 1's snapshot: step 2's start count is 1 again, so its reward is 1; step 1 is kept, not re-run.
    expect(record?.steps?.map((s) => [s.name, s.score, s.agent.restarted])).toEqual([
      ['setup', 100, false],
      ['build', 100, true],
    ]);
    expect(seen.filter((c) => c.includes(' setup ')).length).toBe(2); // its agent and its verifier, once each
    expect(seen.filter((c) => c.startsWith('agent build '))).toEqual([
      `agent build ${containerNameFor(`${id}:step-2`)}`,
      `agent build ${containerNameFor(`${id}:step-2`)}`,
    ]);
  }, 900_000);

  it("resumes a step's setup.sh after kill -9 during it (run once), and restarts its agent from the setup's snapshot", async () => {
    const calm = await runJob('harbor-setup-calm', async () => undefined, SLOW_SETUP);
    // Reward 1 at step 2 needs setup.sh to have run once, its agent started once, on the workdir's data.
    expect(calm.record?.steps?.map((s) => [s.name, s.score, s.setup?.exitCode ?? null])).toEqual([
      ['one', 100, null],
      ['two', 100, 0],
    ]);

    const jobId = 'harbor-setup-crash';
    const crashed = await runJob(
      jobId,
      async (kill) => {
        await running(jobId, 'step-setup', 'two');
        kill();
      },
      SLOW_SETUP,
    );
    expect(comparable(crashed.record)).toEqual(comparable(calm.record));
    expect(crashed.record?.steps?.[1]?.agent.restarted).toBe(false);
    // The setup's container was made once (re-attached, never a second setup.sh), then step 2's agent once.
    const id = crashed.id;
    expect(crashed.seen.filter((c) => c.includes(' two '))).toEqual([
      `step-setup two ${containerNameFor(`${id}:step-2:setup`)}`,
      `agent two ${containerNameFor(`${id}:step-2`)}`,
      `verifier two ${containerNameFor(`${id}:step-2:verifier`)}`,
    ]);

    const restartId = 'harbor-setup-restart';
    const restarted = await runJob(
      restartId,
      async (kill) => {
        const container = await running(restartId, 'agent', 'two');
        kill();
        await docker.getContainer(container).remove({ force: true });
      },
      SLOW_SETUP,
    );
    // From the setup's snapshot: one setup.sh run and one agent start in the environment the verifier sees.
    expect(restarted.record?.steps?.map((s) => [s.name, s.score, s.agent.restarted])).toEqual([
      ['one', 100, false],
      ['two', 100, true],
    ]);
    expect(restarted.seen.filter((c) => c.startsWith('step-setup two '))).toHaveLength(1);
    expect(restarted.seen.filter((c) => c.startsWith('agent two '))).toHaveLength(2);
  }, 900_000);
});
