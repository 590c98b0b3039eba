// The live progress of a job as numbers: per-system counts, rate, ETA, tokens and cost so far.
// Pure: from what the records and the job workflow say plus two timestamps, nothing read here.
import type { EndpointView } from '@assay/core';

/** A finished unit (task trial or project trial): from its record, or from the workflow when it has none. */
export interface UnitResult {
  key: string;
  kind: 'task' | 'project';
  /** A trial status, or 'cancelled' when job control stopped it. */
  status: string;
  unjudged: number;
  /** One line: why it failed (agent-failed, timeout, infra-failed, cancelled). */
  reason: string | null;
  /** When it finished (ms since the epoch): the record's recordedAt, else when we first saw it. */
  at: number;
}

/** Tokens and money so far; a cost is null while no record holds one. */
export interface UsageTotals {
  agentTokens: number;
  agentUsd: number | null;
  judgeTokens: number;
  judgeUsd: number | null;
}

/** Job control as the workflow may report it (an optional field of JobProgress, read defensively). */
export interface ControlView {
  state: string;
  reason?: string;
  concurrency?: number;
  spend?: { usd: number; tokens: number; agentHours: number };
}

export interface ProgressInput {
  systems: readonly string[];
  /** Units (tasks and projects times trials) each system runs. */
  unitsPerSystem: number;
  /** This watch's start (ms): what finished since then makes the rate. */
  startedAt: number;
  now: number;
  running: readonly string[];
  /** Every finished unit known, in any order; a key seen twice counts once (the latest wins). */
  units: readonly UnitResult[];
  usage: UsageTotals;
  control?: ControlView | null;
  /** Model endpoints the job limits for back-pressure (or that were throttled lately). */
  endpoints?: readonly EndpointView[];
}

export interface Counts {
  total: number;
  done: number;
  running: number;
  failed: number;
  unjudged: number;
}

export interface SystemProgress extends Counts {
  id: string;
}

export interface ProgressView extends Counts {
  systems: SystemProgress[];
  elapsedSeconds: number;
  /** Units finished per minute since the watch started; null until one has. */
  perMinute: number | null;
  etaSeconds: number | null;
  usage: UsageTotals;
  failures: UnitResult[];
  control: ControlView | null;
  endpoints: readonly EndpointView[];
}

const FAILED = new Set(['agent-failed', 'agent-timeout', 'infra-failed', 'cancelled']);

const isFailure = (status: string): boolean => FAILED.has(status);

/** The system id of a unit key `<system>/<task or project>/<trial>`. */
const systemOfKey = (key: string): string => key.slice(0, key.indexOf('/'));

export function computeProgress(input: ProgressInput): ProgressView {
  const latest = new Map<string, UnitResult>();
  for (const u of input.units) {
    const seen = latest.get(u.key);
    if (!seen || u.at >= seen.at) latest.set(u.key, u);
  }
  const units = [...latest.values()].filter((u) => u.status !== 'skipped');
  const finished = new Set(units.map((u) => u.key));
  const running = input.running.filter((k) => !finished.has(k));
  const systems = input.systems.map((id): SystemProgress => {
    const mine = units.filter((u) => systemOfKey(u.key) === id);
    return {
      id,
      total: input.unitsPerSystem,
      done: mine.length,
      running: running.filter((k) => systemOfKey(k) === id).length,
      failed: mine.filter((u) => isFailure(u.status)).length,
      unjudged: mine.filter((u) => u.unjudged > 0).length,
    };
  });
  const sum = (f: (s: SystemProgress) => number) => systems.reduce((a, s) => a + f(s), 0);
  const total = sum((s) => s.total);
  const done = sum((s) => s.done);
  const elapsedSeconds = Math.max(0, (input.now - input.startedAt) / 1000);
  const recent = units.filter((u) => u.at >= input.startedAt).length;
  const perMinute = recent > 0 && elapsedSeconds > 0 ? recent / (elapsedSeconds / 60) : null;
  const etaSeconds = perMinute ? ((total - done) / perMinute) * 60 : done >= total ? 0 : null;
  return {
    systems,
    total,
    done,
    running: sum((s) => s.running),
    failed: sum((s) => s.failed),
    unjudged: sum((s) => s.unjudged),
    elapsedSeconds,
    perMinute,
    etaSeconds,
    usage: input.usage,
    failures: units.filter((u) => isFailure(u.status)).sort((a, b) => a.at - b.at || a.key.localeCompare(b.key)),
    control: input.control ?? null,
    endpoints: input.endpoints ?? [],
  };
}
