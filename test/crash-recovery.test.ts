// Crash safety: kill -9 the worker while an agent container runs and again
// while a trial is being evaluated, then restart the Temporal server from its
// SQLite file. The job must finish with the records of an uninterrupted run,
// start each agent container exactly once, and leave no container behind.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { readTrials } from './support/records.js';
import { jobWorkflowId, trialKey, trialWorkflowId } from '@assay/core';
import { collectOutput, spawnCli, useTestServer, waitFor, watchContainerCreates, writeJob } from './support/e2e.js';

const docker = new Docker();
const server = useTestServer();

const TASKS = ['fin-term-loan-schedule', 'legal-nda-review'];
const systems = (delaySeconds: number) => [
  { id: 'oracle', harness: 'oracle', settings: { delaySeconds } },
  { id: 'missing', harness: 'scripted', settings: { agent: 'missing-deliverable', delaySeconds } },
];

async function comparable(resultsDir: string) {
  return (await readTrials(resultsDir))
    .map((r) => ({
      key: trialKey(r.system.id, r.task.id, r.trial),
      status: r.status,
      score: r.score,
      verdicts: r.verdicts,
      deliverables: r.deliverables,
    }))
    .sort((a, b) => a.key.localeCompare(b.key));
}

describe('crash recovery', () => {
  it('survives kill -9 of the worker mid-agent and mid-evaluation, and a server restart', async () => {
    const worker = (extra: Record<string, string> = {}) =>
      collectOutput(spawnCli(['worker'], server().address, { ASSAY_FAULT_DELAYS: 'evaluate=6000', ...extra }));

    // Baseline: the same job without interruptions (no agent delay needed).
    const baselineFile = writeJob({ id: 'crash-baseline', trials: 1, tasks: TASKS, systems: systems(0) });
    const baseline = collectOutput(spawnCli(['run', baselineFile, '--json'], server().address));
    expect(await baseline.exit, baseline.text()).toBe(0);
    const expected = await comparable(path.join(path.dirname(baselineFile), 'results'));
    expect(expected).toHaveLength(4);

    const jobId = 'crash-chaos';
    const file = writeJob({ id: jobId, trials: 1, tasks: TASKS, systems: systems(8), concurrency: 4 });
    const creates = await watchContainerCreates(jobId);
    let w = worker();
    const submit = collectOutput(
      spawnCli(['run', file, '--no-worker', '--detach', '--heartbeat-seconds', '4'], server().address),
    );
    expect(await submit.exit, submit.text()).toBe(0);

    // 1. Kill the worker while agent containers are running.
    await waitFor(async () => {
      const running = await docker.listContainers({ filters: { label: [`assay.job=${jobId}`], status: ['running'] } });
      return running.length > 0 ? running : undefined;
    }, 'an agent container to run');
    killHard(w);

    // The containers keep running without a worker; a new worker re-attaches.
    w = worker();
    // Being evaluated: its agent's result is stored and its record not yet (the agent and the
    // evaluation are one activity, so the trial's stage query says 'agent' for both).
    const trialDir = (key: string) => path.join(path.dirname(file), 'results', 'trials', key);
    const evaluating = (key: string) =>
      existsSync(path.join(trialDir(key), 'agent-result.json')) && !existsSync(path.join(trialDir(key), 'record.json'));

    // 2. Kill it again while a trial is being evaluated.
    await waitFor(
      async () => {
        for (const s of ['oracle', 'missing']) for (const t of TASKS) if (evaluating(trialKey(s, t, 1))) return true;
        return undefined;
      },
      'a trial to be evaluating',
      180_000,
    );
    killHard(w);

    // 3. Restart the server from its SQLite file, then bring a worker back.
    await server().stop();
    await server().restart();
    w = worker({ ASSAY_FAULT_DELAYS: '' });

    const result = collectOutput(spawnCli(['status', file, '--wait', '--json'], server().address));
    expect(await result.exit, result.text()).toBe(0);
    const status = JSON.parse(result.text().slice(result.text().indexOf('{'))) as { workflow: { status: string } };
    expect(status.workflow.status).toBe('COMPLETED');
    process.kill(w.pid ?? 0, 'SIGTERM');
    await w.exit;

    const resultsDir = path.join(path.dirname(file), 'results');
    const actual = await comparable(resultsDir);
    expect(
      actual.map(({ key, status, score, verdicts, deliverables }) => ({ key, status, score, verdicts, deliverables })),
    ).toEqual(expected);

    // Each agent container was created exactly once, and none is left.
    creates.stop();
    expect(creates.workflowIds().sort()).toEqual(
      ['oracle', 'missing'].flatMap((s) => TASKS.map((t) => trialWorkflowId(jobId, trialKey(s, t, 1)))).sort(),
    );
    expect(await docker.listContainers({ all: true, filters: { label: [`assay.job=${jobId}`] } })).toEqual([]);
    // The agent of at least one trial was re-attached after the first kill.
    const attempts = actual.map(
      (r) =>
        JSON.parse(readFileSync(path.join(resultsDir, 'trials', r.key, 'record.json'), 'utf8')).agent
          .containerAttempts as number,
    );
    expect(Math.max(...attempts)).toBeGreaterThan(1);
    expect(jobWorkflowId(jobId)).toBe('assay-job:crash-chaos');
  }, 900_000);
});

function killHard(w: { pid: number | undefined }): void {
  if (!w.pid) throw new Error('worker pid unknown');
  process.kill(w.pid, 'SIGKILL');
}
