// Stopping a running project mid-subtask against a real Temporal server and real containers
// (issue #16): `pause --now` stops the subtask's agent (its container removed, nothing recorded
// for it) and `resume` runs that subtask again in a workspace restored from the last checkpoint;
// `cancel` mid-subtask and a later `assay run` do the same across workflow runs. The agent appends
// a line per run to a file in the workspace, so a checkpoint's copy of that file shows which runs
// its workspace saw; container create events show that no finished subtask ran again.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Docker from 'dockerode';
import { Client, Connection } from '@temporalio/client';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureBaseImage } from '@assay/infra';
import { jobWorkflowId, projectTrialKey, projectWorkflowId, type JobProgress, type ProjectRecord } from '@assay/core';
import {
  ROOT,
  collectOutput,
  spawnCli,
  useTestServer,
  waitFor,
  watchContainerCreates,
  writeJob,
} from './support/e2e.js';
import { SAMPLE_PROJECT, SAMPLE_SUBTASKS, readProjects } from './support/records.js';

const docker = new Docker();
const server = useTestServer();
const PROJECT = SAMPLE_PROJECT;
const SUBTASKS = SAMPLE_SUBTASKS;
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function cli(args: string[]): Promise<string> {
  const run = collectOutput(spawnCli(args, server().address));
  expect(await run.exit, run.text()).toBe(0);
  return run.text();
}

async function containers(jobId: string, label?: string) {
  const filters = { label: [`assay.job=${jobId}`, ...(label ? [label] : [])] };
  return docker.listContainers({ all: true, filters });
}

/** One project, one `command` agent that notes its run in the workspace, then takes 30 s in `slow`, else 1 s. */
async function setUp(jobId: string, slow: string) {
  const image = (await ensureBaseImage({ root: ROOT })).tag;
  const command = `echo "run $ASSAY_SUBTASK_ID" >> {outputs_dir}/runs.txt && if [ "$ASSAY_SUBTASK_ID" = ${slow} ]; then sleep 30; else sleep 1; fi`;
  const file = writeJob({
    id: jobId,
    trials: 1,
    projects: [PROJECT],
    systems: [{ id: 'notes', harness: 'command', settings: { image, command } }],
  });
  const creates = await watchContainerCreates(jobId);
  stops.push(async () => {
    creates.stop();
    for (const c of await containers(jobId)) await docker.getContainer(c.Id).remove({ force: true });
  });
  const results = path.join(path.dirname(file), 'results');
  const subtaskDir = (id: string) => path.join(results, 'projects', 'notes', PROJECT, '1', 'subtasks', id);
  const subtaskId = (id: string) => `${projectWorkflowId(jobId, projectTrialKey('notes', PROJECT, 1))}:${id}`;
  const running = (id: string) =>
    waitFor(
      async () => (await containers(jobId, `assay.subtask=${id}`)).find((c) => c.State === 'running'),
      `subtask ${id}'s agent`,
      150_000,
    );
  return { file, results, creates, subtaskDir, subtaskId, running };
}

/** What a checkpoint's snapshot holds as outputs/runs.txt must be exactly these runs. */
function expectRuns(checkpoint: ProjectRecord['checkpoints'][number] | undefined, runs: string[]): void {
  const text = runs.map((r) => `run ${r}\n`).join('');
  const file = checkpoint?.snapshot.files.find((f) => f.path === 'outputs/runs.txt');
  expect(file?.sha256, `${checkpoint?.subtaskId} runs.txt`).toBe(createHash('sha256').update(text).digest('hex'));
}

/** Agent containers per subtask workflow id. */
function countCreates(ids: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

function expectAgentRuns(ids: string[], subtaskId: (id: string) => string, again: string): void {
  const counts = countCreates(ids);
  expect(counts.size).toBe(SUBTASKS.length);
  for (const id of SUBTASKS) expect(counts.get(subtaskId(id)), id).toBe(id === again ? 2 : 1);
}

describe('stopping a project mid-subtask', () => {
  it('pause --now stops the subtask agent; resume runs it again from the last checkpoint, finished ones never', async () => {
    const t0 = Date.now();
    const jobId = 'pn-now';
    const [, second] = SUBTASKS as [string, string];
    const { file, results, creates, subtaskDir, subtaskId, running } = await setUp(jobId, second);
    const worker = collectOutput(spawnCli(['worker'], server().address));
    stops.push(async () => {
      process.kill(worker.pid ?? 0, 'SIGINT');
      await worker.exit;
    });
    await cli(['run', file, '--no-worker', '--detach', '--heartbeat-seconds', '3']);
    await running(second);

    await cli(['pause', file, '--now']);
    // The agent's container is stopped and removed, and nothing is recorded for its subtask.
    await waitFor(async () => ((await containers(jobId)).length === 0 ? true : undefined), 'the agent stopped', 60_000);
    await waitFor(() => (existsSync(path.join(subtaskDir(second), 'stopped.json')) ? true : undefined), 'its note');
    expect(existsSync(path.join(subtaskDir(second), 'checkpoint-record.json'))).toBe(false);
    expect(existsSync(path.join(subtaskDir(second), 'agent-result.json'))).toBe(false);
    await new Promise((r) => setTimeout(r, 3000));
    expect(creates.workflowIds()).toEqual([subtaskId(SUBTASKS[0]!), subtaskId(second)]); // nothing new while paused
    expect(await cli(['status', file])).toContain('paused');

    await cli(['resume', file]);
    const connection = await Connection.connect({ address: server().address });
    stops.push(() => connection.close());
    const progress = (await new Client({ connection }).workflow
      .getHandle(jobWorkflowId(jobId))
      .result()) as JobProgress;
    expect(progress.done.map((o) => [o.key, o.status])).toEqual([[projectTrialKey('notes', PROJECT, 1), 'completed']]);

    const [record] = await readProjects(results);
    expect(record?.checkpoints.map((c) => c.subtaskId)).toEqual(SUBTASKS);
    expect(record?.restarts).toEqual([
      {
        subtaskId: second,
        reason: 'stopped by assay pause --now',
        at: expect.any(String),
        host: record?.host,
        restoredFrom: SUBTASKS[0],
        session: 'restarted',
      },
    ]);
    expect(record?.moves).toEqual([]);
    // The second run of t02 started from t01's checkpoint: the stopped run's line is not there.
    expectRuns(record?.checkpoints[1], SUBTASKS.slice(0, 2));
    expectRuns(record?.checkpoints[5], SUBTASKS);
    // The stopped run is set aside under attempts/, with its note.
    const note = JSON.parse(readFileSync(path.join(subtaskDir(second), 'attempts/1/stopped.json'), 'utf8')) as {
      reason: string;
    };
    expect(note.reason).toBe('stopped by assay pause --now');
    expect(existsSync(path.join(subtaskDir(second), 'stopped.json'))).toBe(false);
    expectAgentRuns(creates.workflowIds(), subtaskId, second);
    console.log(`project pause --now/resume: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }, 300_000);

  it('a project cancelled mid-subtask runs again from its last checkpoint when the job is run again', async () => {
    const t0 = Date.now();
    const jobId = 'pn-cancel';
    const [first, second, third] = SUBTASKS as [string, string, string];
    const { file, results, creates, subtaskDir, subtaskId, running } = await setUp(jobId, third);
    const worker = collectOutput(spawnCli(['worker'], server().address));
    stops.push(async () => {
      process.kill(worker.pid ?? 0, 'SIGINT');
      await worker.exit;
    });
    await cli(['run', file, '--no-worker', '--detach', '--heartbeat-seconds', '3']);
    await running(third);

    await cli(['cancel', file, '--grace', '0']);
    const connection = await Connection.connect({ address: server().address });
    stops.push(() => connection.close());
    const progress = (await new Client({ connection }).workflow
      .getHandle(jobWorkflowId(jobId))
      .result()) as JobProgress;
    expect(progress.control?.state).toBe('cancelled');
    expect(await containers(jobId)).toHaveLength(0);
    expect(existsSync(path.join(subtaskDir(third), 'stopped.json'))).toBe(true);
    expect(existsSync(path.join(subtaskDir(third), 'checkpoint-record.json'))).toBe(false);
    expect(await readProjects(results)).toEqual([]);

    // The next submission is a new workflow run: its workspace is made from t02's checkpoint.
    await cli(['run', file, '--heartbeat-seconds', '3']);
    const [record] = await readProjects(results);
    expect(record?.checkpoints.map((c) => [c.subtaskId, c.agent.status])).toEqual(
      SUBTASKS.map((s) => [s, 'completed']),
    );
    expectRuns(record?.checkpoints[2], [first, second, third]);
    expectRuns(record?.checkpoints[5], SUBTASKS);
    expect(record?.restarts).toBeUndefined();
    const note = JSON.parse(readFileSync(path.join(subtaskDir(third), 'attempts/1/stopped.json'), 'utf8')) as {
      reason: string;
    };
    expect(note.reason).toBe('stopped by assay cancel');
    expectAgentRuns(creates.workflowIds(), subtaskId, third);
    console.log(`project cancel/re-run: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }, 300_000);
});
