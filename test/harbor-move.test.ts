// A Harbor trial whose host is lost moves to another host and runs there afresh, under its move's container
// key: it never re-attaches to the container the lost host left running on a shared engine, never takes the
// agent result (or the snapshot) the lost host wrote before it died, and a multi-step trial starts again at
// step 1 there. Two simulated hosts (worker processes with their own host ids and work roots) on one Docker
// engine, so whatever the lost host left is there to be wrongly reused.
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { LABEL_WORKFLOW, containerNameFor } from '@assay/activities';
import { trialKey, trialWorkflowId, type TrialRecord } from '@assay/core';
import { watchCreates } from './support/docker-events.js';
import { readTrials } from './support/records.js';
import { ROOT, collectOutput, spawnCli, unmountUnder, useTestServer, waitFor, writeJob } from './support/e2e.js';

const docker = new Docker();
const server = useTestServer();
const VICTIM = 'hm-lost';
const SURVIVOR = 'hm-left';
const workRoots = Object.fromEntries(
  [VICTIM, SURVIVOR].map((h) => [h, mkdtempSync(path.join(os.tmpdir(), `assay-${h}-`))]),
);
const ENV = { ASSAY_HOST_WAIT_SECONDS: '5', ASSAY_HEARTBEAT_SECONDS: '4' };
const jobs: string[] = [];

function startHost(host: string, env: Record<string, string> = {}) {
  const args = ['worker', '--host-id', host, '--work-root', workRoots[host]!];
  return collectOutput(spawnCli(args, server().address, { ...ENV, ...env }));
}

/** Submit the job to the victim alone, run `until`, kill it -9, then let the survivor finish the job. */
async function runWithLostHost(
  jobId: string,
  dataset: string,
  until: (resultsDir: string) => Promise<unknown>,
  victimEnv: Record<string, string> = {},
): Promise<{ record: TrialRecord; seen: string[]; id: string }> {
  jobs.push(jobId);
  const file = writeJob({
    id: jobId,
    benchmark: `harbor:${dataset}`,
    trials: 1,
    systems: [{ id: 'oracle', harness: 'oracle' }],
  });
  const resultsDir = path.join(path.dirname(file), 'results');
  const creates = await watchCreates(docker, jobId);
  const victim = startHost(VICTIM, victimEnv);
  const submit = collectOutput(spawnCli(['run', file, '--no-worker', '--detach'], server().address, ENV));
  expect(await submit.exit, submit.text()).toBe(0);
  await until(resultsDir);
  process.kill(victim.pid!, 'SIGKILL');
  const survivor = startHost(SURVIVOR);
  const status = collectOutput(spawnCli(['status', file, '--wait', '--json'], server().address, ENV));
  expect(await status.exit, `${status.text()}\n--- survivor\n${survivor.text()}`).toBe(0);
  process.kill(survivor.pid!, 'SIGTERM');
  await survivor.exit;
  creates.stop();
  const [record, ...others] = await readTrials(resultsDir);
  expect(others).toEqual([]);
  const taskId = record!.task.id;
  return { record: record!, seen: creates.seen(), id: trialWorkflowId(jobId, trialKey('oracle', taskId, 1)) };
}

const runningAgent = (jobId: string, step?: string) =>
  waitFor(
    async () => {
      const label = [`assay.job=${jobId}`, 'assay.role=agent', ...(step ? [`assay.step=${step}`] : [])];
      const found = await docker.listContainers({ filters: { label, status: ['running'] } });
      return found.length > 0 ? found : undefined;
    },
    `a running agent container of ${jobId}`,
    300_000,
  );

const named = (role: string, runId: string) => `${role} ${containerNameFor(runId)}`;

async function snapshotsOf(workflowId: string): Promise<string[]> {
  const images = await docker.listImages({
    filters: { label: [`${LABEL_WORKFLOW}=${workflowId}`], reference: ['assay/harbor-snapshot'] },
  });
  return images.flatMap((i) => i.RepoTags ?? []);
}

afterAll(async () => {
  // The lost host's agents were left on this engine, as a dead machine's would be on its own.
  for (const job of jobs)
    for (const c of await docker.listContainers({ all: true, filters: { label: [`assay.job=${job}`] } }))
      await docker.getContainer(c.Id).remove({ force: true });
  for (const root of Object.values(workRoots)) unmountUnder(root!);
});

describe('a Harbor trial that moves host', () => {
  it('runs its agent afresh on the new host, not re-attaching to the one the lost host left running', async () => {
    const jobId = 'harbor-move-agent';
    const { record, seen, id } = await runWithLostHost(jobId, path.join(ROOT, 'test/fixtures/harbor/slow'), () =>
      runningAgent(jobId),
    );
    expect(record.host).toBe(SURVIVOR);
    expect(record.moves?.map((m) => [m.from, m.to])).toEqual([[VICTIM, SURVIVOR]]);
    // solve.sh started once in the snapshot the verifier saw: the survivor's own container, not the lost one's.
    expect(record.score).toMatchObject({ value: 100, source: 'verifier' });
    expect(seen.filter((c) => c.startsWith('agent '))).toEqual([named('agent', id), named('agent', `${id}:move-1`)]);
    expect(seen.filter((c) => c.startsWith('verifier '))).toEqual([named('verifier', `${id}:move-1:verifier`)]);
    expect(await snapshotsOf(id)).toEqual([]);
  }, 600_000);

  it('never takes the agent result and snapshot the lost host wrote before it died', async () => {
    const jobId = 'harbor-move-result';
    const key = path.join('trials', 'oracle', 'slow-hello', '1', 'agent-result.json');
    // The victim finishes the agent, then holds before its verifier (runAgentAndFinish): it dies there.
    const { record, seen, id } = await runWithLostHost(
      jobId,
      path.join(ROOT, 'test/fixtures/harbor/slow'),
      (results) => waitFor(() => (existsSync(path.join(results, key)) ? true : undefined), 'the agent result', 300_000),
      { ASSAY_FAULT_DELAYS: 'evaluate=120000' },
    );
    expect(record.host).toBe(SURVIVOR);
    expect(record.moves?.map((m) => [m.from, m.to])).toEqual([[VICTIM, SURVIVOR]]);
    expect(record.moves?.[0]?.reason).toMatch(/after the agent finished there/);
    expect(record.score).toMatchObject({ value: 100, source: 'verifier' });
    // The agent ran again on the survivor, and its verifier checked that run's snapshot.
    expect(record.agent.startedAt > record.moves![0]!.at).toBe(true);
    expect(seen.filter((c) => c.startsWith('agent '))).toEqual([named('agent', id), named('agent', `${id}:move-1`)]);
    expect(seen.filter((c) => c.startsWith('verifier '))).toEqual([named('verifier', `${id}:move-1:verifier`)]);
    // Both snapshots (the lost host's, under the workflow id, and the survivor's) went with the record.
    expect(await snapshotsOf(id)).toEqual([]);
  }, 600_000);

  it('starts a multi-step trial again at step 1 on the new host, each step run afresh there', async () => {
    const jobId = 'harbor-move-steps';
    const { record, seen, id } = await runWithLostHost(jobId, path.join(ROOT, 'test/fixtures/harbor/steps-slow'), () =>
      runningAgent(jobId, 'build'),
    );
    expect(record.moves?.map((m) => [m.from, m.to])).toEqual([[VICTIM, SURVIVOR]]);
    // build's reward needs setup and build to have started once each in the survivor's snapshots.
    expect(record.steps?.map((s) => [s.name, s.verifier.reward, s.agent.restarted])).toEqual([
      ['setup', 1, false],
      ['build', 1, false],
    ]);
    const moved = `${id}:move-1`;
    expect(seen.filter((c) => c.startsWith('agent '))).toEqual(
      [`${id}:step-1`, `${id}:step-2`, `${moved}:step-1`, `${moved}:step-2`].map((r) => named('agent', r)),
    );
    expect(seen.filter((c) => c.startsWith('verifier '))).toEqual(
      [`${id}:step-1:verifier`, `${moved}:step-1:verifier`, `${moved}:step-2:verifier`].map((r) =>
        named('verifier', r),
      ),
    );
    expect(await snapshotsOf(id)).toEqual([]);
  }, 600_000);
});
