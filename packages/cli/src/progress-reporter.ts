// Live progress of `assay run` and `assay status --wait`: polls the job workflow and the records,
// and hands each new view to the display (bars, plain lines or JSON events).
import type { JobProgress } from '@assay/core';
import type { JobWatch } from './progress/job-watch.js';
import { computeProgress, type ProgressView } from './progress/progress-model.js';
import type { ProgressDisplay } from './progress/progress-display.js';

export interface ProgressReporter {
  /**
   * Stops polling and shows the last view, from `final` (the workflow's result) and the records:
   * every unit that finished is in it, also those no poll saw.
   */
  stop(final: JobProgress | null): Promise<ProgressView>;
}

export function startProgressReporter(opts: {
  query: () => Promise<JobProgress>;
  watch: JobWatch;
  display: ProgressDisplay;
  pollMs?: number;
}): ProgressReporter {
  let latest: JobProgress | null = null;
  // One poll at a time, awaited before stopping: a query still retrying on a closed connection
  // throws from a timer and would take the process down.
  let inflight: Promise<void> | null = null;
  const poll = async (): Promise<void> => {
    latest = (await opts.query().catch(() => null)) ?? latest;
    opts.display.update(computeProgress(await opts.watch.snapshot(latest)));
  };
  const timer = setInterval(() => {
    inflight ??= poll()
      .catch(() => undefined)
      .finally(() => {
        inflight = null;
      });
  }, opts.pollMs ?? 1000);
  return {
    async stop(final) {
      clearInterval(timer);
      await inflight;
      const view = computeProgress(await opts.watch.snapshot(final ?? latest));
      opts.display.finish(view);
      return view;
    },
  };
}
