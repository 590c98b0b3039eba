// Provider back-pressure: lanes per model endpoint (AIMD). When running agents report that their
// endpoint answered 429 / 529 / overloaded, the job halves that endpoint's lanes (from what was
// running on it, at most once per cool-down); after a quiet period it adds a step back, until the
// job's concurrency applies again. Units of other endpoints (and units without a model) are not
// held back, and running units are never stopped. Times are workflow time (deterministic).
import { setHandler, upsertMemo } from '@temporalio/workflow';
import { endpointLabel, modelEndpoint, type SystemSpec } from '@assay/core/pure';
import {
  throttledSignal,
  type BackPressure,
  type EndpointState,
  type EndpointView,
  type ThrottleReport,
} from './definitions.js';

const DEFAULT_BACK_PRESSURE: BackPressure = { coolDownSeconds: 30, raiseAfterSeconds: 60 };
/** "… throttled in the last 5 min": counted in minute buckets. */
const RECENT_MS = 5 * 60_000;
const BUCKET_MS = 60_000;
export function newEndpointState(endpoint: string): EndpointState {
  return { endpoint, limit: null, throttled: 0, lastThrottleAt: null, lastCutAt: null, lastRaiseAt: null, recent: [] };
}

/** Lanes the endpoint has now: its limit, never above the job's concurrency. */
export function lanesOf(s: EndpointState, concurrency: number): number {
  return Math.min(s.limit ?? concurrency, concurrency);
}

function recentOf(recent: [number, number][], now: number): [number, number][] {
  return recent.filter(([at]) => at + RECENT_MS > now);
}

/** After `count` throttles reported at `now`, with `running` units of the endpoint in flight. */
export function noteThrottle(
  s: EndpointState,
  count: number,
  now: number,
  running: number,
  concurrency: number,
  bp: BackPressure,
): EndpointState {
  const bucket = Math.floor(now / BUCKET_MS) * BUCKET_MS;
  const recent = recentOf(s.recent, now).map(([at, n]): [number, number] => [at, n]);
  const last = recent.at(-1);
  if (last && last[0] === bucket) last[1] += count;
  else recent.push([bucket, count]);
  const next = { ...s, throttled: s.throttled + count, lastThrottleAt: now, recent };
  if (s.lastCutAt !== null && now - s.lastCutAt < bp.coolDownSeconds * 1000) return next;
  // Half of what was actually running on it (a job with spare lanes would not notice half its concurrency).
  const lanes = lanesOf(s, concurrency);
  const base = running > 0 ? Math.min(lanes, running) : lanes;
  return { ...next, limit: Math.max(1, Math.floor(base / 2)), lastCutAt: now };
}

/** When the endpoint gets its next step up (null: not limited). */
export function raiseDueAt(s: EndpointState, bp: BackPressure): number | null {
  if (s.limit === null) return null;
  return Math.max(s.lastThrottleAt ?? 0, s.lastCutAt ?? 0, s.lastRaiseAt ?? 0) + bp.raiseAfterSeconds * 1000;
}

/** One step up (a tenth of the concurrency, at least one lane); at the concurrency it is no longer limited. */
export function raiseLimit(s: EndpointState, now: number, concurrency: number): EndpointState {
  const step = Math.max(1, Math.ceil(concurrency / 10));
  const limit = lanesOf(s, concurrency) + step;
  return { ...s, limit: limit >= concurrency ? null : limit, lastRaiseAt: now };
}

export function viewOf(s: EndpointState, now: number, concurrency: number): EndpointView {
  return {
    endpoint: s.endpoint,
    limit: lanesOf(s, concurrency),
    concurrency,
    throttled: s.throttled,
    recentThrottled: recentOf(s.recent, now).reduce((n, [, c]) => n + c, 0),
  };
}

export interface EndpointLimitsOptions {
  backPressure?: BackPressure;
  initial?: EndpointState[];
  concurrency: () => number;
  /** Units running now, by system (the scheduler's active units). */
  running: () => Iterable<SystemSpec>;
  /** Receives the endpoints worth showing whenever they change. */
  show: (views: EndpointView[]) => void;
}

/** The job's per-endpoint lanes: told of throttles by signal, asked by the scheduler, ticked by its timer. */
export class EndpointLimits {
  private readonly states = new Map<string, EndpointState>();
  private readonly endpoints = new Map<string, string | null>();
  private readonly bp: BackPressure;
  /** Bumped on every change, so the scheduler's wait wakes to recompute its timer. */
  version = 0;

  constructor(private readonly opts: EndpointLimitsOptions) {
    this.bp = opts.backPressure ?? DEFAULT_BACK_PRESSURE;
    for (const s of opts.initial ?? []) this.states.set(s.endpoint, s);
  }

  endpointOf(system: SystemSpec): string | null {
    if (!this.endpoints.has(system.id)) this.endpoints.set(system.id, modelEndpoint(system));
    return this.endpoints.get(system.id) ?? null;
  }

  /** Whether a unit of each system may start now: one count of the running units, then a lookup per system. */
  roomFor(): (system: SystemSpec) => boolean {
    const concurrency = this.opts.concurrency();
    const limited = [...this.states.values()].filter((s) => s.limit !== null);
    if (limited.length === 0) return () => true;
    const running = new Map<string, number>();
    for (const sys of this.opts.running()) {
      const e = this.endpointOf(sys);
      if (e) running.set(e, (running.get(e) ?? 0) + 1);
    }
    return (system) => {
      const e = this.endpointOf(system);
      const s = e ? this.states.get(e) : undefined;
      return !s || !e || (running.get(e) ?? 0) < lanesOf(s, concurrency);
    };
  }

  throttled(report: ThrottleReport, now: number): void {
    if (!Number.isInteger(report.count) || report.count <= 0 || !report.endpoint) return;
    const s = this.states.get(report.endpoint) ?? newEndpointState(report.endpoint);
    const running = [...this.opts.running()].filter((sys) => this.endpointOf(sys) === report.endpoint).length;
    const next = noteThrottle(s, report.count, now, running, this.opts.concurrency(), this.bp);
    this.states.set(report.endpoint, next);
    this.changed(now, next.limit !== s.limit);
  }

  /** The next time something changes on its own: a step up, or a throttle leaving the 5-minute window. */
  nextWakeAt(): number | null {
    let at: number | null = null;
    for (const s of this.states.values()) {
      const due = raiseDueAt(s, this.bp);
      const expiry = s.recent[0] ? s.recent[0][0] + RECENT_MS : null;
      for (const t of [due, expiry]) if (t !== null && (at === null || t < at)) at = t;
    }
    return at;
  }

  /** Apply what is due at `now` (the scheduler calls it whenever it wakes). */
  tick(now: number): void {
    let limitChanged = false;
    let due = false;
    for (const s of this.states.values()) {
      const at = raiseDueAt(s, this.bp);
      const expiry = s.recent[0] ? s.recent[0][0] + RECENT_MS : null;
      if (at !== null && at <= now) {
        this.states.set(s.endpoint, raiseLimit(s, now, this.opts.concurrency()));
        limitChanged = true;
      } else if (expiry !== null && expiry <= now)
        this.states.set(s.endpoint, { ...s, recent: recentOf(s.recent, now) });
      else continue;
      due = true;
    }
    if (due) this.changed(now, limitChanged);
  }

  /** The job's concurrency changed (`assay set-concurrency`): lanes are shown against the new one at once. */
  concurrencyChanged(now: number): void {
    if (this.states.size === 0) return;
    this.changed(now, true);
  }

  /** Endpoints limited now or throttled in the last 5 minutes. */
  views(now: number): EndpointView[] {
    const concurrency = this.opts.concurrency();
    return [...this.states.values()]
      .map((s) => viewOf(s, now, concurrency))
      .filter((v) => v.limit < concurrency || v.recentThrottled > 0);
  }

  carry(): EndpointState[] {
    return [...this.states.values()].filter((s) => s.limit !== null || s.recent.length > 0);
  }

  private changed(now: number, limitChanged: boolean): void {
    this.version++;
    const views = this.views(now);
    this.opts.show(views);
    // The Temporal UI shows the lanes in the job's memo; only when they change (each upsert is a command).
    if (limitChanged) {
      const limited = views.filter((v) => v.limit < v.concurrency);
      upsertMemo({
        assayEndpoints: limited.length
          ? limited.map((v) => `${endpointLabel(v.endpoint)} ${v.limit}/${v.concurrency}`).join(', ')
          : null,
      });
    }
  }
}

/** The job's endpoint limits, fed by `throttledSignal` (a report of an endpoint the job never saw is kept too). */
export function installEndpointLimits(opts: EndpointLimitsOptions): EndpointLimits {
  const limits = new EndpointLimits(opts);
  // Carried over continue-as-new: shown from the start.
  if (opts.initial?.length) opts.show(limits.views(Date.now()));
  setHandler(throttledSignal, (report) => limits.throttled(report, Date.now()));
  return limits;
}
