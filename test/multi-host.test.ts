// Two simulated hosts on one machine (issue #10): two workers with their own host ids and work
// roots against one dev server, one results folder (the shared-mount backend). The sample tasks
// spread over both hosts; then one host's worker is killed -9 while its agents run and is not
// restarted: its trials start again from a clean workspace on the other host, each recorded once,
// with the move in the record.
import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { LABEL_WORKFLOW } from '@assay/activities';
import { trialKey, trialWorkflowId, type TrialRecord } from '@assay/core';
import {
  collectOutput,
  spawnCli,
  unmountUnder,
  useTestServer,
  waitFor,
  watchContainerCreates,
  writeJob,
} from './support/e2e.js';
import { readTrials } from './support/records.js';

const docker = new Docker();
const server = useTestServer();
const HOSTS = ['mh-a', 'mh-b'] as const;
type Host = (typeof HOSTS)[number];
const workRoots = Object.fromEntries(HOSTS.map((h) => [h, mkdtempSync(path.join(os.tmpdir(), `assay-${h}-`))]));
const TASKS = [
  'med-discharge-reconciliation',
  'fin-term-loan-schedule',
  'legal-nda-review',
  'biz-quarterly-review-deck',
  'stem-sensor-calibration',
  'edu-fractions-lesson',
];
const systems = (delaySeconds: number) => [
  { id: 'oracle', harness: 'oracle', settings: { delaySeconds } },
  { id: 'missing', harness: 'scripted', settings: { agent: 'missing-deliverable', delaySeconds } },
];
const ENV = { ASSAY_HOST_WAIT_SECONDS: '5', ASSAY_HEARTBEAT_SECONDS: '4' };
const jobsStarted: string[] = [];

function startHost(host: Host) {
  const args = ['worker', '--host-id', host, '--work-root', workRoots[host]!];
  return collectOutput(spawnCli(args, server().address, ENV));
}

async function runCli(args: string[]): Promise<string> {
  const child = collectOutput(spawnCli(args, server().address, ENV));
  expect(await child.exit, child.text()).toBe(0);
  return child.text();
}

const outcomeOf = (r: TrialRecord) => ({ status: r.status, score: r.score, verdicts: r.verdicts });
const byKey = (records: TrialRecord[]) =>
  Object.fromEntries(records.map((r) => [trialKey(r.system.id, r.task.id, r.trial), r]));

/** The host whose work root holds this container's workspace. */
async function hostOfContainer(id: string): Promise<Host | undefined> {
  const info = await docker.getContainer(id).inspect();
  const source = info.Mounts.find((m) => m.Destination === '/workspace')?.Source ?? '';
  return HOSTS.find((h) => source.startsWith(workRoots[h]!));
}

afterAll(async () => {
  // The killed host's agents were left running on this machine's engine; its volumes stay mounted.
  for (const job of jobsStarted)
    for (const c of await docker.listContainers({ all: true, filters: { label: [`assay.job=${job}`] } }))
      await docker.getContainer(c.Id).remove({ force: true });
  for (const root of Object.values(workRoots)) unmountUnder(root!);
});

describe('multi-host', () => {
  let baseline: Record<string, TrialRecord> = {};

  it('spreads the sample tasks over both hosts, each trial recorded with the host that ran it', async () => {
    const workers = HOSTS.map(startHost);
    const file = writeJob({ id: 'mh-spread', trials: 1, tasks: TASKS, concurrency: 6, systems: systems(1) });
    jobsStarted.push('mh-spread');
    await runCli(['run', file, '--no-worker', '--json']);
    for (const w of workers) process.kill(w.pid!, 'SIGTERM');
    await Promise.all(workers.map((w) => w.exit));
    const records = await readTrials(path.join(path.dirname(file), 'results'));
    expect(records).toHaveLength(TASKS.length * 2);
    expect(new Set(records.map((r) => r.host))).toEqual(new Set(HOSTS));
    for (const r of records) expect(r.moves).toEqual([]);
    // Every host's work folders are under its own work root, none in the results folder.
    expect(readdirSync(path.join(path.dirname(file), 'results'))).not.toContain('work');
    baseline = byKey(records);
  }, 600_000);

  it('moves the trials of a host killed -9 mid-agent to the other host, recorded once with the move', async () => {
    const jobId = 'mh-kill';
    jobsStarted.push(jobId);
    const tasks = TASKS.slice(0, 2);
    const file = writeJob({ id: jobId, trials: 1, tasks, concurrency: 4, systems: systems(20) });
    const creates = await watchContainerCreates(jobId);
    const workers = Object.fromEntries(HOSTS.map((h) => [h, startHost(h)]));
    await runCli(['run', file, '--no-worker', '--detach']);

    // Kill the host of the first agent container that runs, and leave it dead.
    const victim = await waitFor(async () => {
      const running = await docker.listContainers({ filters: { label: [`assay.job=${jobId}`], status: ['running'] } });
      return running[0] ? hostOfContainer(running[0].Id) : undefined;
    }, 'an agent container to run');
    const survivor = HOSTS.find((h) => h !== victim)!;
    process.kill(workers[victim]!.pid!, 'SIGKILL');

    const status = await runCli(['status', file, '--wait', '--json']);
    expect(JSON.parse(status.slice(status.indexOf('{'))).workflow.status).toBe('COMPLETED');
    process.kill(workers[survivor]!.pid!, 'SIGTERM');
    await workers[survivor]!.exit;

    const resultsDir = path.join(path.dirname(file), 'results');
    const records = await readTrials(resultsDir);
    expect(records).toHaveLength(4);
    const moved = records.filter((r) => (r.moves ?? []).length > 0);
    expect(moved.length).toBeGreaterThan(0);
    for (const r of records) {
      const key = trialKey(r.system.id, r.task.id, r.trial);
      // Same outcome as the undisturbed run, whichever host it ended on.
      expect(outcomeOf(r), key).toEqual(outcomeOf(baseline[key]!));
      // Recorded once: no earlier attempt kept beside the record.
      expect(readdirSync(path.join(resultsDir, 'trials', key))).not.toContain('attempts');
      if ((r.moves ?? []).length === 0) continue;
      expect(r.host, key).toBe(survivor);
      expect(r.moves, key).toHaveLength(1);
      expect(r.moves![0]).toMatchObject({ from: victim, to: survivor });
      expect(r.moves![0]!.reason).toMatch(
        new RegExp(
          `^no worker of host "${victim}" took runAgentAndFinish within 5 s( after the agent finished there)?$`,
        ),
      );
    }
    // Nothing left on the surviving host: what remains are the dead host's own containers.
    const left = await docker.listContainers({ all: true, filters: { label: [`assay.job=${jobId}`] } });
    for (const c of left) expect(await hostOfContainer(c.Id)).toBe(victim);
    // Each trial's agent ran to its end once, in a container of its own; the only other containers are
    // those the dead host made. A trial it prepared but had not started an agent for moves without one,
    // so a moved trial has one or two containers: one per trial, plus what the dead host left.
    creates.stop();
    const leftBy = (id: string) => left.filter((c) => c.Labels[LABEL_WORKFLOW] === id).length;
    const expectedCreates = records.flatMap((r) => {
      const id = trialWorkflowId(jobId, trialKey(r.system.id, r.task.id, r.trial));
      if ((r.moves ?? []).length === 0) expect(leftBy(id), id).toBe(0);
      return Array.from({ length: 1 + leftBy(id) }, () => id);
    });
    expect(creates.workflowIds().sort()).toEqual(expectedCreates.sort());
  }, 900_000);
});
