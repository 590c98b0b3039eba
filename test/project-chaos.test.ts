// Chaos for multi-stage projects: kill -9 the worker while an agent runs, while a
// checkpoint is snapshotted, while it is judged and between stages, and restart
// the Temporal server from its SQLite file. The records must equal those of an
// uninterrupted run, and no subtask that had finished may run again.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import Docker from 'dockerode';
import { Client, Connection } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import {
  SAMPLE_PROJECT,
  SAMPLE_SUBTASKS,
  comparableProject,
  listRegularFiles,
  readProjects,
} from './support/records.js';
import { projectTrialKey, projectWorkflowId } from '@assay/core';
import { collectOutput, spawnCli, useTestServer, waitFor, watchContainerCreates, writeJob } from './support/e2e.js';

const docker = new Docker();
const PROJECT = SAMPLE_PROJECT;
const SUBTASKS = SAMPLE_SUBTASKS;
const server = useTestServer();

const systems = (delaySeconds: number) => [
  { id: 'oracle', harness: 'oracle', settings: { delaySeconds } },
  { id: 'p07', harness: 'scripted', settings: { agent: 'correction-not-applied', delaySeconds } },
];

describe('project chaos', () => {
  it('finishes with the same records after 4 worker kills and a server restart, running no finished subtask again', async () => {
    const baseFile = writeJob({ id: 'pchaos-base', trials: 1, projects: [PROJECT], systems: systems(0) });
    const base = collectOutput(spawnCli(['run', baseFile], server().address));
    expect(await base.exit, base.text()).toBe(0);
    const expected = (await readProjects(path.join(path.dirname(baseFile), 'results')))
      .map((r) => comparableProject(r))
      .sort((a, b) => a.system.localeCompare(b.system));

    const jobId = 'pchaos';
    const file = writeJob({ id: jobId, trials: 1, projects: [PROJECT], systems: systems(4), concurrency: 2 });
    const creates = await watchContainerCreates(jobId);
    const spawnWorker = () =>
      collectOutput(
        spawnCli(['worker'], server().address, { ASSAY_FAULT_DELAYS: 'evaluate=4000,snapshot=4000,release=4000' }),
      );
    let worker = spawnWorker();
    // What each killed worker printed, and where the projects were at each interruption: printed
    // when the records differ, so a failure in CI says what happened.
    const workerLogs: string[] = [];
    const timeline: string[] = [];
    const submit = collectOutput(
      spawnCli(['run', file, '--no-worker', '--detach', '--heartbeat-seconds', '3'], server().address),
    );
    expect(await submit.exit, submit.text()).toBe(0);

    let connection = await Connection.connect({ address: server().address });
    let client = new Client({ connection });
    const projectIds = ['oracle', 'p07'].map((s) => projectWorkflowId(jobId, projectTrialKey(s, PROJECT, 1)));
    const subtaskStage = async (stage: string) => {
      for (const pid of projectIds)
        for (const t of SUBTASKS) {
          const s = await client.workflow
            .getHandle(`${pid}:${t}`)
            .query<string>('subtaskStage')
            .catch(() => undefined);
          if (s === stage) return true;
        }
      return undefined;
    };
    const where = async () => {
      // Asked of the worker about to be killed (it answers at once); bounded, so a slow answer
      // delays the kill by at most 5 s.
      const at = await Promise.all(
        projectIds.map((pid) =>
          client
            .withDeadline(Date.now() + 5_000, () =>
              client.workflow.getHandle(pid).query<{ phase: string; subtask?: string | null }>('projectProgress'),
            )
            .then((p) => `${pid.split(':').at(-1)}: ${p.phase} ${p.subtask ?? ''}`)
            .catch((err: unknown) => `${pid}: ${String(err)}`),
        ),
      );
      return `${new Date().toISOString()} ${at.join('; ')}`;
    };
    const kill = async () => {
      timeline.push(`kill ${interruptions.length + 1} at ${await where()}`);
      const old = worker;
      process.kill(worker.pid ?? 0, 'SIGKILL');
      worker = spawnWorker();
      await old.exit;
      workerLogs.push(old.text());
    };
    const interruptions: string[] = [];

    await waitFor(async () => {
      const running = await docker.listContainers({ filters: { label: [`assay.job=${jobId}`], status: ['running'] } });
      return running.length > 0 ? true : undefined;
    }, 'an agent container');
    await kill();
    interruptions.push('agent running');
    await waitFor(() => subtaskStage('snapshot'), 'a snapshot', 180_000);
    await kill();
    interruptions.push('snapshotting');
    await waitFor(() => subtaskStage('evaluating'), 'an evaluation', 180_000);
    await kill();
    interruptions.push('judging');
    await waitFor(
      async () => {
        for (const pid of projectIds) {
          const p = await client.workflow
            .getHandle(pid)
            .query<{ phase: string; checkpoints: unknown[] }>('projectProgress')
            .catch(() => undefined);
          if (p?.phase === 'releasing' && p.checkpoints.length > 0) return true;
        }
        return undefined;
      },
      'a later stage being released',
      240_000,
    );
    await kill();
    interruptions.push('between stages');
    await connection.close();
    await server().stop();
    await server().restart();
    interruptions.push('server restart');
    connection = await Connection.connect({ address: server().address });
    client = new Client({ connection });

    const status = collectOutput(spawnCli(['status', file, '--wait', '--json'], server().address));
    expect(await status.exit, status.text()).toBe(0);
    await connection.close();
    process.kill(worker.pid ?? 0, 'SIGTERM');
    await worker.exit;

    workerLogs.push(worker.text());
    const results = path.join(path.dirname(file), 'results');
    const actual = (await readProjects(results))
      .map((r) => comparableProject(r))
      .sort((a, b) => a.system.localeCompare(b.system));
    if (JSON.stringify(actual) !== JSON.stringify(expected))
      await printDiagnosis(results, timeline, workerLogs).catch((err: unknown) =>
        console.log(`no diagnosis: ${String(err)}`),
      );
    expect(actual).toEqual(expected);
    expect(interruptions).toHaveLength(5);

    // Exactly one agent container per subtask: nothing that had finished ran again.
    creates.stop();
    const created = creates.workflowIds();
    expect(created.sort()).toEqual(projectIds.flatMap((pid) => SUBTASKS.map((t) => `${pid}:${t}`)).sort());
    expect(await docker.listContainers({ all: true, filters: { label: [`assay.job=${jobId}`] } })).toEqual([]);
  }, 900_000);
});

/** The interruptions, every worker's output and each subtask's files and transcript tail. */
async function printDiagnosis(results: string, timeline: string[], workerLogs: string[]): Promise<void> {
  const lines = [...timeline];
  workerLogs.forEach((log, i) => lines.push(`---- worker ${i}`, log.slice(-6000)));
  const projects = path.join(results, 'projects');
  for (const file of await listRegularFiles(projects)) {
    lines.push(`${file} ${statSync(path.join(projects, file)).size}`);
    if (file.endsWith('transcript.log'))
      lines.push(readFileSync(path.join(projects, file), 'utf8').split('\n').slice(-8).join('\n'));
  }
  console.log(lines.join('\n'));
}
