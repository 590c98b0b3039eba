// What a live progress view is computed from: the job workflow's progress query (running units,
// infra failures, job control) and the records on disk (finished units, tokens, cost). Records are
// the truth across continue-as-new, where the query only knows the current run's batch; each record
// is read once, when it first appears.
import type { EndpointView, JobProgress, ModelPrice, TrialOutcome } from '@assay/core';
import {
  PROJECTS_PREFIX,
  TRIALS_PREFIX,
  isProjectRecordKey,
  isTrialRecordKey,
  type ResultsStore,
} from '@assay/results';
import type { ControlView, ProgressInput, UnitResult } from './progress-model.js';
import { usageOfRecord, unitOfRecord, type RecordUsage } from './record-usage.js';

export interface JobPlan {
  systems: readonly string[];
  unitsPerSystem: number;
}

export interface JobWatch {
  /** The current input of computeProgress; `progress` is the latest query answer, if any. */
  snapshot(progress: JobProgress | null, now?: number): Promise<ProgressInput>;
}

/** `prices`: the job's price table (the repository's with the job file's `prices:` over it), for dollars. */
export function createJobWatch(
  store: ResultsStore,
  plan: JobPlan,
  startedAt: number,
  prices: Readonly<Record<string, ModelPrice>> = {},
): JobWatch {
  const read = new Map<string, { unit: UnitResult; usage: RecordUsage } | null>();
  const firstSeen = new Map<string, number>();
  let running: string[] = [];
  let control: ControlView | null = null;
  let endpoints: EndpointView[] = [];

  const readNew = async (): Promise<void> => {
    const keys = [
      ...(await store.list(TRIALS_PREFIX)).filter(isTrialRecordKey),
      ...(await store.list(PROJECTS_PREFIX)).filter(isProjectRecordKey),
    ].filter((k) => !read.has(k));
    for (const key of keys) {
      // Writes are atomic, so a listed record is whole; one that is invalid stays out, as in the summary.
      const json = await store.getJson(key).catch(() => null);
      const unit = json === null ? null : unitOfRecord(key, json);
      read.set(key, unit ? { unit, usage: usageOfRecord(json, prices) } : null);
    }
  };

  return {
    async snapshot(progress, now = Date.now()) {
      await readNew();
      if (progress) {
        running = progress.running;
        control = controlOf(progress);
        endpoints = endpointsOf(progress);
      }
      const fromWorkflow = (progress?.done ?? []).map((o) => outcomeUnit(o, firstSeen, now));
      const records = [...read.values()].flatMap((r) => (r ? [r] : []));
      const sumOf = (f: (u: RecordUsage) => number | null): number | null =>
        records.reduce<number | null>((a, r) => {
          const x = f(r.usage);
          return x === null ? a : (a ?? 0) + x;
        }, null);
      return {
        ...plan,
        startedAt,
        now,
        running,
        // Records last: a unit retried after an infra failure is what its record says.
        units: [...fromWorkflow, ...records.map((r) => r.unit)],
        usage: {
          agentTokens: sumOf((u) => u.agentTokens) ?? 0,
          agentUsd: sumOf((u) => u.agentUsd),
          judgeTokens: sumOf((u) => u.judgeTokens) ?? 0,
          judgeUsd: sumOf((u) => u.judgeUsd),
        },
        control,
        endpoints,
      };
    },
  };
}

/** Outcomes that leave no record ('cancelled' comes with job control). */
const NO_RECORD = new Set<string>(['infra-failed', 'cancelled']);

/** A workflow outcome as a unit; it has no time of its own, so it gets the moment we first saw it. */
function outcomeUnit(o: TrialOutcome, firstSeen: Map<string, number>, now: number): UnitResult {
  const at = firstSeen.get(o.key) ?? now;
  firstSeen.set(o.key, at);
  return {
    key: o.key,
    kind: o.kind ?? 'task',
    status: o.status,
    unjudged: o.unjudged,
    reason: o.error ?? null,
    // A unit with a record is what its record says (and when): this one only fills the gap until
    // it is read. Failures the workflow alone knows of are timed when we first saw them.
    at: NO_RECORD.has(o.status) ? at : -1,
  };
}

/** The optional `endpoints` field of JobProgress (back-pressure), read without trusting it. */
export function endpointsOf(progress: unknown): EndpointView[] {
  const list = (progress as { endpoints?: unknown } | null)?.endpoints;
  if (!Array.isArray(list)) return [];
  return list.flatMap((e: unknown) => {
    const o = (e ?? {}) as Record<string, unknown>;
    const num = (k: string) => (typeof o[k] === 'number' ? o[k] : null);
    const [limit, concurrency, throttled, recent] = ['limit', 'concurrency', 'throttled', 'recentThrottled'].map(num);
    if (typeof o.endpoint !== 'string' || limit == null || concurrency == null || throttled == null || recent == null)
      return [];
    return [{ endpoint: o.endpoint, limit, concurrency, throttled, recentThrottled: recent }];
  });
}

/** The optional `control` field of JobProgress (job control may add it), read without trusting it. */
export function controlOf(progress: unknown): ControlView | null {
  const c = (progress as { control?: unknown } | null)?.control;
  if (!c || typeof c !== 'object') return null;
  const o = c as Record<string, unknown>;
  if (typeof o.state !== 'string') return null;
  const view: ControlView = { state: o.state };
  if (typeof o.reason === 'string') view.reason = o.reason;
  if (typeof o.concurrency === 'number') view.concurrency = o.concurrency;
  const s = o.spend as Record<string, unknown> | undefined;
  if (s && typeof s.usd === 'number' && typeof s.tokens === 'number' && typeof s.agentHours === 'number')
    view.spend = { usd: s.usd, tokens: s.tokens, agentHours: s.agentHours };
  return view;
}
