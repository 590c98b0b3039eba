// job-control.json: the job's control state written beside its records whenever it changes, for
// readers that cannot query the workflow (the viewer). The write is an activity the control loop
// never waits for: one write at a time, and whatever changes while one is in flight goes into the
// next (only the latest state is ever written).
import { condition, log, proxyActivities } from '@temporalio/workflow';
import type { JobActivities } from '@assay/activities';
import { JOB_CONTROL_SCHEMA, type JobControlFile, type JobControlState } from '@assay/core/pure';
import type { EndpointView, JobControl } from './definitions.js';

export interface ControlFile {
  /** Resolves once the file holds the state as it is now (before continue-as-new, at the end). */
  settle(): Promise<void>;
  /** The job has ended (`done`, or as its control says when cancelled): written, then nothing more. */
  end(state: JobControlState): Promise<void>;
}

type Body = Omit<JobControlFile, 'updatedAt'>;

const iso = (ms: number): string => new Date(ms).toISOString();

export function startControlFile(
  job: { jobId: string; resultsDir: string },
  read: () => { control: JobControl; endpoints: EndpointView[] },
): ControlFile {
  const acts = proxyActivities<JobActivities>({ startToCloseTimeout: '1 minute', retry: { maximumAttempts: 3 } });
  let ended: { state: JobControlState; at: number } | null = null;
  const body = (): Body => {
    const { control, endpoints } = read();
    return {
      schema: JOB_CONTROL_SCHEMA,
      jobId: job.jobId,
      state: ended?.state ?? control.state,
      reason: control.reason ?? null,
      pausedBy: !ended && control.state === 'paused' ? (control.pausedBy ?? 'pause') : null,
      since: iso(ended?.at ?? control.since ?? 0),
      concurrency: control.concurrency,
      endpoints,
      spend: control.spend ?? null,
      projected: control.projected ?? null,
      spendBy: control.spendBy ?? null,
      budget: control.budget ?? null,
    };
  };
  // Compared as JSON: the body is small plain data, and this runs on every activation.
  let written = '';
  let writing = false;
  const changed = (): boolean => JSON.stringify(body()) !== written;
  void (async () => {
    for (;;) {
      await condition(changed);
      const next = body();
      written = JSON.stringify(next);
      writing = true;
      try {
        await acts.writeJobControl({ resultsDir: job.resultsDir, control: { ...next, updatedAt: iso(Date.now()) } });
      } catch (err) {
        // The file is for people, not for the job: a failed write waits for the next change.
        log.warn('job-control.json not written', { error: String(err) });
      } finally {
        writing = false;
      }
    }
  })();
  const settle = (): Promise<void> => condition(() => !writing && !changed());
  return {
    settle,
    end: (state) => {
      ended = { state, at: Date.now() };
      return settle();
    },
  };
}
