// A DeliverBench-style project across two simulated hosts (issue #10): one host's worker is killed
// -9 while subtask 2 of the sample project runs there and is not restarted. The project continues
// on the other host from its last checkpoint (a fresh workspace, the snapshot restored), runs only
// the unfinished subtask again, and its records equal an uninterrupted run's.
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { projectTrialKey, projectWorkflowId } from '@assay/core';
import {
  collectOutput,
  spawnCli,
  unmountUnder,
  useTestServer,
  waitFor,
  watchContainerCreates,
  writeJob,
} from './support/e2e.js';
import { SAMPLE_PROJECT, SAMPLE_SUBTASKS, comparableProject, readProjects } from './support/records.js';

const docker = new Docker();
const server = useTestServer();
const HOSTS = ['mhp-a', 'mhp-b'] as const;
type Host = (typeof HOSTS)[number];
const workRoots = Object.fromEntries(HOSTS.map((h) => [h, mkdtempSync(path.join(os.tmpdir(), `assay-${h}-`))]));
const PROJECT = SAMPLE_PROJECT;
const SUBTASKS = SAMPLE_SUBTASKS;
const systems = (delaySeconds: number) => [
  { id: 'oracle', harness: 'oracle', settings: { delaySeconds } },
  { id: 'p07', harness: 'scripted', settings: { agent: 'correction-not-applied', delaySeconds } },
];
const ENV = { ASSAY_HOST_WAIT_SECONDS: '5', ASSAY_HEARTBEAT_SECONDS: '4' };
const JOB = 'mhp-kill';

async function runCli(args: string[], env: Record<string, string> = ENV): Promise<string> {
  const child = collectOutput(spawnCli(args, server().address, env));
  expect(await child.exit, child.text()).toBe(0);
  return child.text();
}

async function hostOfContainer(id: string): Promise<Host | undefined> {
  const info = await docker.getContainer(id).inspect();
  const source = info.Mounts.find((m) => m.Destination === '/workspace')?.Source ?? '';
  return HOSTS.find((h) => source.startsWith(workRoots[h]!));
}

afterAll(async () => {
  for (const c of await docker.listContainers({ all: true, filters: { label: [`assay.job=${JOB}`] } }))
    await docker.getContainer(c.Id).remove({ force: true });
  for (const root of Object.values(workRoots)) unmountUnder(root!);
});

describe('multi-host project', () => {
  it('continues a project from its last checkpoint on the other host when its host is killed in subtask 2', async () => {
    const baseFile = writeJob({ id: 'mhp-base', trials: 1, projects: [PROJECT], systems: systems(0) });
    await runCli(['run', baseFile], {});
    const byName = (a: { system: string }, b: { system: string }) => a.system.localeCompare(b.system);
    const expected = (await readProjects(path.join(path.dirname(baseFile), 'results')))
      .map((r) => comparableProject(r))
      .sort(byName);
    expect(expected).toHaveLength(2);

    const file = writeJob({ id: JOB, trials: 1, projects: [PROJECT], systems: systems(8), concurrency: 2 });
    const creates = await watchContainerCreates(JOB);
    const workers = Object.fromEntries(
      HOSTS.map((h) => [
        h,
        collectOutput(spawnCli(['worker', '--host-id', h, '--work-root', workRoots[h]!], server().address, ENV)),
      ]),
    );
    await runCli(['run', file, '--no-worker', '--detach']);

    // Kill the host running some project's subtask 2, once that agent's container runs.
    const second = await waitFor(
      async () => {
        const running = await docker.listContainers({
          filters: { label: [`assay.job=${JOB}`, `assay.subtask=${SUBTASKS[1]}`], status: ['running'] },
        });
        return running[0];
      },
      'subtask 2 to run',
      300_000,
    );
    const victim = (await hostOfContainer(second.Id))!;
    const survivor = HOSTS.find((h) => h !== victim)!;
    process.kill(workers[victim]!.pid!, 'SIGKILL');
    // Subtasks whose checkpoint was recorded before the kill: finished, never to run again.
    const resultsDir = path.join(path.dirname(file), 'results');
    const finished = ['oracle', 'p07'].flatMap((s) =>
      SUBTASKS.filter((t) =>
        existsSync(path.join(resultsDir, 'projects', s, PROJECT, '1', 'subtasks', t, 'checkpoint-record.json')),
      ).map((t) => `${projectWorkflowId(JOB, projectTrialKey(s, PROJECT, 1))}:${t}`),
    );

    const status = await runCli(['status', file, '--wait', '--json']);
    expect(JSON.parse(status.slice(status.indexOf('{'))).workflow.status).toBe('COMPLETED');
    process.kill(workers[survivor]!.pid!, 'SIGTERM');
    await workers[survivor]!.exit;
    creates.stop();

    const records = await readProjects(resultsDir);
    expect(records.map((r) => comparableProject(r)).sort(byName)).toEqual(expected);

    // The project whose subtask 2 was killed: restored from subtask 1's checkpoint on the survivor.
    const moved = records.find((r) =>
      second.Labels['assay.workflow-id']?.startsWith(projectWorkflowId(JOB, projectTrialKey(r.system.id, PROJECT, 1))),
    );
    expect(moved?.host).toBe(survivor);
    expect(moved?.moves).toHaveLength(1);
    expect(moved?.moves?.[0]).toMatchObject({
      from: victim,
      to: survivor,
      restoredFrom: SUBTASKS[0],
      session: 'restarted',
    });
    expect(moved?.checkpoints.map((c) => c.host)).toEqual(SUBTASKS.map((_, i) => (i === 0 ? victim : survivor)));

    // No finished subtask ran again: each has one agent container; an unfinished one may have more.
    const counts = new Map<string, number>();
    for (const id of creates.workflowIds()) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect(counts.size).toBe(2 * SUBTASKS.length);
    expect(finished.length).toBeGreaterThan(0);
    for (const id of finished) expect(counts.get(id), id).toBe(1);
  }, 1_200_000);
});
