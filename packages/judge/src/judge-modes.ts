// Scheduling of judge sessions per mode:
//   per-item  one session per criterion, up to `attempts` sessions each;
//   batched   batches of `batchSize`, `concurrency` at once, up to `attempts` sessions per batch
//             (a retry re-sends only the criteria still unresolved), then a one-item fallback
//             (`fallbackAttempts` sessions) for criteria still unresolved;
//   holistic  every criterion in one session, re-run up to `attempts` times until one reply
//             covers them all (the paper's ablation).
import type { EvidenceSource } from './evidence-source.js';
import type { JudgeModel } from './judge-model.js';
import type { SubmittedVerdict } from './judge-tools.js';
import { runJudgeSession } from './run-judge-session.js';
import type { JudgeContext, JudgeItem, JudgeMode, SessionRecord } from './types.js';

export interface ScheduleInput {
  mode: JudgeMode;
  items: readonly JudgeItem[];
  model: JudgeModel;
  evidence: EvidenceSource;
  context: JudgeContext;
  overview: string;
  batchSize: number;
  concurrency: number;
  attempts: number;
  fallbackAttempts: number;
  maxSteps: number;
  correctionTurns: number;
  signal?: AbortSignal;
  onSession?: (s: SessionRecord) => void;
}

export interface ScheduleOutput {
  decided: Map<string, { verdict: SubmittedVerdict; phase: SessionRecord['phase']; reportedModel: string | null }>;
  sessions: SessionRecord[];
  /** Some session waits for a batched reply: the outcome is partial and must not be kept. */
  deferred: boolean;
}

/** Run `fn` over `xs` with at most `n` in flight. */
async function mapPool<T, R>(xs: readonly T[], n: number, fn: (x: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(xs.length);
  let next = 0;
  const worker = async () => {
    while (next < xs.length) {
      const i = next;
      next += 1;
      out[i] = await fn(xs[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(n, xs.length)) }, worker));
  return out;
}

function chunk<T>(xs: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

export async function scheduleSessions(s: ScheduleInput): Promise<ScheduleOutput> {
  const decided: ScheduleOutput['decided'] = new Map();
  const sessions: SessionRecord[] = [];
  let counter = 0;
  // A deferred session (batch judging) ends its chain: no retry, no fallback, until its reply is known.
  let deferred = false;

  const session = async (items: readonly JudgeItem[], phase: SessionRecord['phase'], attempt: number) => {
    counter += 1;
    const out = await runJudgeSession({
      id: `${phase}-${counter}`,
      phase,
      attempt,
      model: s.model,
      evidence: s.evidence,
      context: s.context,
      items,
      overview: s.overview,
      maxSteps: s.maxSteps,
      correctionTurns: s.correctionTurns,
      signal: s.signal,
    });
    if (out.deferred) {
      deferred = true;
      return out;
    }
    sessions.push(out.record);
    s.onSession?.(out.record);
    for (const [id, verdict] of out.verdicts) decided.set(id, { verdict, phase, reportedModel: out.reportedModel });
    return out;
  };

  /** Sessions over `items` until all are decided or `attempts` run out; returns the undecided. */
  const untilDecided = async (
    items: readonly JudgeItem[],
    phase: SessionRecord['phase'],
    attempts: number,
  ): Promise<JudgeItem[]> => {
    let pending = [...items];
    for (let attempt = 1; attempt <= attempts && pending.length > 0 && !s.signal?.aborted; attempt += 1) {
      if ((await session(pending, phase, attempt)).deferred) return [];
      pending = pending.filter((i) => !decided.has(i.id));
    }
    return pending;
  };

  if (s.mode === 'per-item') {
    await mapPool(s.items, s.concurrency, (item) => untilDecided([item], 'per-item', s.attempts));
  } else if (s.mode === 'batched') {
    const left = await mapPool(chunk(s.items, s.batchSize), s.concurrency, (batch) =>
      untilDecided(batch, 'batch', s.attempts),
    );
    await mapPool(left.flat(), s.concurrency, (item) => untilDecided([item], 'fallback', s.fallbackAttempts));
  } else {
    // Holistic: each attempt re-sends every criterion; the newest valid verdict per item stands.
    for (let attempt = 1; attempt <= s.attempts && !s.signal?.aborted; attempt += 1) {
      const out = await session(s.items, 'holistic', attempt);
      if (out.deferred || out.record.outcome === 'complete') break;
    }
  }
  return { decided, sessions, deferred };
}
