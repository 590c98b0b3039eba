// A running agent's throttled model answers (429 / 529 / overloaded, counted by the worker's
// proxy) are sent to its job while the agent runs, so the job lowers that endpoint's lanes before
// every other trial has burned its retries too. Sent from the agent activity's heartbeat loop, at
// most every few seconds; a lost report is not retried (the next one carries the new count).
import { modelEndpoint, type SystemSpec, type ThrottleReport } from '@assay/core';

/** Signals the job workflow (built by the worker over its Temporal client). */
export type NotifyThrottled = (jobId: string, report: ThrottleReport) => Promise<void>;

export interface ThrottleForwarder {
  /** Called on every heartbeat: sends what is new once the interval has passed. */
  poll(): void;
  /** Sends what is left (the run ended) and waits for what was sent. */
  flush(): Promise<void>;
}

export interface ForwardThrottlesOptions {
  jobId: string;
  endpoint: string;
  unit: string;
  /** Throttled answers of the run so far. */
  read: () => number;
  notify: NotifyThrottled;
  everyMs?: number;
  now?: () => number;
}

export function forwardThrottles(opts: ForwardThrottlesOptions): ThrottleForwarder {
  const every = opts.everyMs ?? 2000;
  const now = opts.now ?? Date.now;
  let sent = 0;
  let lastAt = -Infinity;
  let inflight: Promise<void> = Promise.resolve();
  const send = (): void => {
    const seen = opts.read();
    if (seen <= sent) return;
    const report: ThrottleReport = { endpoint: opts.endpoint, count: seen - sent, unit: opts.unit };
    sent = seen;
    lastAt = now();
    // A job that has ended (or a server hiccup) must not fail the agent's run.
    inflight = opts.notify(opts.jobId, report).catch(() => undefined);
  };
  return {
    poll: () => {
      if (now() - lastAt >= every) send();
    },
    flush: async () => {
      send();
      await inflight;
    },
  };
}

/** No endpoint (scripted agents, `command` without a model API) or no job to tell: nothing to forward. */
const NO_FORWARDING: ThrottleForwarder = { poll: () => undefined, flush: async () => undefined };

/**
 * The forwarder of one agent run, for assay's own tasks and Harbor tasks alike: to the unit's job, for
 * its system's endpoint as the job computes it for its lanes (same function, same system), counting what
 * the worker's proxy saw for this run. Nothing to forward without an endpoint, a count or a job to tell.
 */
export function throttleForwarder(run: {
  jobId: string;
  /** The unit's workflow id (for the job's history). */
  unit: string;
  system: Pick<SystemSpec, 'harness' | 'settings'>;
  throttled: (() => number) | undefined;
  notify: NotifyThrottled | undefined;
}): ThrottleForwarder {
  const endpoint = modelEndpoint(run.system);
  if (!endpoint || !run.throttled || !run.notify) return NO_FORWARDING;
  return forwardThrottles({ jobId: run.jobId, endpoint, unit: run.unit, read: run.throttled, notify: run.notify });
}
