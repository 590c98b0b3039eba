// One assay round: the same oracle + nop x N trials at concurrency C, as `assay run job.yaml`
// (embedded worker) against an already running Temporal dev server (a ready machine). Per-trial
// time and the time of each activity come from the trial workflows' histories.
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { Connection, Client } from '@temporalio/client';
import { assayCreated, watchCreated } from './docker-events.js';
import type { SideResult, TrialTiming } from './harbor-side.js';
import { processCpuSeconds, runMeasured } from './measure-process.js';
import { TASK_ID } from './generate-tasks.js';
import { assayNodeArgs } from '../cli/assay-node-args.js';

export interface AssaySetup {
  /** The checkout whose CLI runs (this one, or a baseline checkout). */
  root: string;
  label: string;
  benchmarkDir: string;
  workDir: string;
  temporal: { address: string; pid: number };
}

export async function runAssayRound(
  setup: AssaySetup,
  round: number,
  opts: { trials: number; concurrency: number },
): Promise<SideResult> {
  const jobId = `hb-${setup.label}-r${round}-${Date.now().toString(36)}`;
  const resultsDir = path.join(setup.workDir, jobId);
  const jobFile = path.join(setup.workDir, `${jobId}.yaml`);
  writeFileSync(
    jobFile,
    [
      'schema: assay.job/v1',
      `id: ${jobId}`,
      `benchmark: ${setup.benchmarkDir}`,
      `trials: ${opts.trials}`,
      `concurrency: ${opts.concurrency}`,
      'systems:',
      '  - { id: oracle, harness: oracle }',
      '  - { id: nop, harness: nop }',
      'judge: { mode: checks-only }',
      `results: ${resultsDir}`,
      '',
    ].join('\n'),
  );
  const cpuBefore = processCpuSeconds(setup.temporal.pid);
  const watch = watchCreated();
  // With the Node flags of that checkout's `pnpm assay`: what a user's command gets.
  const cli = [...assayNodeArgs(setup.root), path.join(setup.root, 'scripts/assay.mjs')];
  const measured = await runMeasured(process.execPath, [...cli, 'run', jobFile], {
    cwd: setup.root,
    // The worker's own phases (activities/src/mark-phase.ts) go to the log; a checkout without them ignores it.
    env: { ...process.env, TEMPORAL_ADDRESS: setup.temporal.address, ASSAY_PHASE_TIMINGS: '1' },
    logFile: path.join(setup.workDir, `${jobId}.log`),
  });
  const extraCpuSeconds = processCpuSeconds(setup.temporal.pid) - cpuBefore;
  const events = await watch.stop();
  const problems: string[] = [];
  if (measured.exitCode !== 0) problems.push(`assay (${setup.label}) exited ${measured.exitCode}`);
  const trials = await readAssayTrials(setup.temporal.address, jobId, resultsDir, problems);
  const workerPhases = readWorkerPhases(path.join(setup.workDir, `${jobId}.log`));
  for (const t of trials) Object.assign(t.phases, workerPhases.get(t.workflowId ?? '') ?? {});
  if (trials.length !== 2 * opts.trials) problems.push(`${trials.length} of ${2 * opts.trials} assay trials`);
  return {
    side: `assay (${setup.label})`,
    measured,
    trials,
    created: assayCreated(events, jobId),
    extraCpuSeconds,
    problems,
  };
}

/** Per trial workflow: seconds in each phase its worker marked (`assay-phase <id> <phase> <ms>` lines). */
function readWorkerPhases(logFile: string): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  if (!existsSync(logFile)) return out;
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    const m = /^assay-phase (\S+) (.+) ([\d.]+)$/.exec(line);
    if (!m) continue;
    const phases = out.get(m[1]!) ?? {};
    const key = `    worker: ${m[2]!}`;
    phases[key] = (phases[key] ?? 0) + Number(m[3]) / 1000;
    out.set(m[1]!, phases);
  }
  return out;
}

interface HistoryEvent {
  eventId?: { toString(): string } | null;
  eventTime?: { seconds?: { toString(): string } | null; nanos?: number | null } | null;
  activityTaskScheduledEventAttributes?: { activityType?: { name?: string | null } | null } | null;
  activityTaskStartedEventAttributes?: { scheduledEventId?: { toString(): string } | null } | null;
  activityTaskCompletedEventAttributes?: { scheduledEventId?: { toString(): string } | null } | null;
  workflowTaskScheduledEventAttributes?: object | null;
  workflowTaskStartedEventAttributes?: object | null;
  workflowTaskCompletedEventAttributes?: {
    scheduledEventId?: { toString(): string } | null;
    startedEventId?: { toString(): string } | null;
  } | null;
}

const timeOf = (e: HistoryEvent): number =>
  Number(e.eventTime?.seconds?.toString() ?? 0) * 1000 + (e.eventTime?.nanos ?? 0) / 1e6;

/** Each trial's workflow span and, per activity, time queued (scheduled -> started) and running. */
async function readAssayTrials(
  address: string,
  jobId: string,
  resultsDir: string,
  problems: string[],
): Promise<TrialTiming[]> {
  const connection = await Connection.connect({ address });
  const client = new Client({ connection });
  const out: TrialTiming[] = [];
  try {
    for (const system of ['oracle', 'nop']) {
      const dir = path.join(resultsDir, 'trials', system, TASK_ID);
      if (!existsSync(dir)) continue;
      for (const trial of readdirSync(dir)) {
        const record = JSON.parse(readFileSync(path.join(dir, trial, 'record.json'), 'utf8')) as {
          score: { value: number | null };
          agent: { durationSeconds: number };
        };
        const want = system === 'oracle' ? 100 : 0;
        if (record.score.value !== want) problems.push(`assay ${system} trial ${trial} scored ${record.score.value}`);
        const id = `assay-trial:${jobId}:${system}:${TASK_ID}:${trial}`;
        const history = await client.workflow.getHandle(id).fetchHistory();
        const timing = phasesOf((history.events ?? []) as HistoryEvent[]);
        const agentSeconds = record.agent.durationSeconds;
        out.push({ agent: system, workflowId: id, ...timing, reward: record.score.value, agentSeconds });
      }
    }
  } finally {
    await connection.close();
  }
  return out;
}

function phasesOf(events: HistoryEvent[]): Omit<TrialTiming, 'agent' | 'reward' | 'agentSeconds' | 'workflowId'> {
  const first = events[0];
  const last = events[events.length - 1];
  const startMs = first ? timeOf(first) : NaN;
  const endMs = last ? timeOf(last) : NaN;
  const scheduled = new Map<string, { name: string; at: number; startedAt?: number }>();
  const phases: Record<string, number> = {};
  let inActivities = 0;
  // Workflow tasks: queued (scheduled -> started) and running (started -> completed), the first apart.
  const wtScheduled = new Map<string, number>();
  const wtStarted = new Map<string, number>();
  let wtIndex = 0;
  for (const e of events) {
    const id = e.eventId?.toString() ?? '';
    if (e.workflowTaskScheduledEventAttributes) wtScheduled.set(id, timeOf(e));
    const wts = e.workflowTaskStartedEventAttributes;
    if (wts) wtStarted.set(id, timeOf(e));
    const wtc = e.workflowTaskCompletedEventAttributes;
    if (wtc) {
      const sched = wtScheduled.get(wtc.scheduledEventId?.toString() ?? '');
      const start = wtStarted.get(wtc.startedEventId?.toString() ?? '');
      const which = wtIndex++ === 0 ? 'first workflow task' : 'later workflow tasks';
      if (sched !== undefined && start !== undefined) {
        phases[`  ${which} queued`] = (phases[`  ${which} queued`] ?? 0) + (start - sched) / 1000;
        phases[`  ${which} running`] = (phases[`  ${which} running`] ?? 0) + (timeOf(e) - start) / 1000;
      }
    }
    const s = e.activityTaskScheduledEventAttributes;
    if (s) scheduled.set(id, { name: s.activityType?.name ?? '?', at: timeOf(e) });
    const st = e.activityTaskStartedEventAttributes;
    if (st) {
      const a = scheduled.get(st.scheduledEventId?.toString() ?? '');
      if (a) a.startedAt = timeOf(e);
    }
    const c = e.activityTaskCompletedEventAttributes;
    if (c) {
      const a = scheduled.get(c.scheduledEventId?.toString() ?? '');
      if (!a) continue;
      const started = a.startedAt ?? a.at;
      phases[`${a.name} queued`] = (phases[`${a.name} queued`] ?? 0) + (started - a.at) / 1000;
      phases[a.name] = (phases[a.name] ?? 0) + (timeOf(e) - started) / 1000;
      inActivities += (timeOf(e) - a.at) / 1000;
    }
  }
  phases['workflow tasks (between activities)'] = (endMs - startMs) / 1000 - inActivities;
  return { startMs, endMs, seconds: (endMs - startMs) / 1000, phases };
}
