// Activities of the job workflow itself: what is already recorded (so a resubmitted job runs
// nothing twice), the record of a unit that failed for infrastructure reasons or was cancelled,
// the clean-up of a trial `pause --now` stopped, the archive of attempts that run again, and the
// job's control state as a file beside its records (job-control.json, for the viewer).
import {
  CANCELLED_RECORD_SCHEMA,
  jobControlFileSchema,
  projectTrialKey,
  trialKey,
  type CancelledRecord,
  type JobControlFile,
  type TrialInput,
} from '@assay/core';
import {
  INFRA_FAILURE_FILE,
  cancelledKey,
  jobControlKey,
  openResultsStore,
  projectRecordKey,
  trialRecordKey,
  readProjectRecords,
  readTrialRecords,
} from '@assay/results';
import { trialPaths } from './trial-paths.js';
import { archiveForRetry, discardWorkDir } from './archive-for-retry.js';

export interface CancelledUnit {
  /** `system/task-or-project/trial`. */
  key: string;
  kind: 'task' | 'project';
  started: boolean;
  reason: string;
}

/** `workRoot`: the worker's own scratch root, when it has one (see trialPaths). */
export function createJobActivities(opts: { workRoot?: string } = {}) {
  return {
    /** Keys (`system/task/trial`) of trials with a record that is not an infrastructure failure. */
    async listFinishedTrials(args: { resultsDir: string }): Promise<string[]> {
      const store = openResultsStore(args.resultsDir);
      const trials = await readTrialRecords(store, { problems: [] });
      const projects = await readProjectRecords(store, { problems: [] });
      return [
        ...trials.filter((r) => r.status !== 'infra-failed').map((r) => trialKey(r.system.id, r.task.id, r.trial)),
        ...projects.map((r) => projectTrialKey(r.system.id, r.project.id, r.trial)),
      ];
    },

    /** `key` is `trials/<system>/<task>/<trial>` or `projects/<system>/<project>/<trial>`. */
    async recordInfraFailure(args: { resultsDir: string; key: string; error: string }): Promise<void> {
      await openResultsStore(args.resultsDir).putJson(`${args.key}/${INFRA_FAILURE_FILE}`, {
        error: args.error,
        at: new Date().toISOString(),
      });
    },

    /** `cancelled.json` for each unit `assay cancel` stopped or never started (no record.json, no score). */
    async recordCancelled(args: { resultsDir: string; units: CancelledUnit[] }): Promise<void> {
      const store = openResultsStore(args.resultsDir);
      const cancelledAt = new Date().toISOString();
      for (const u of args.units) {
        const [system = '', unit = '', trial = ''] = u.key.split('/');
        const kind = u.kind === 'task' ? trialRecordKey : projectRecordKey;
        // Its record was written while it was being stopped: finished after all, not cancelled.
        if (await store.has(kind(system, unit, Number(trial)))) continue;
        const record: CancelledRecord = { schema: CANCELLED_RECORD_SCHEMA, status: 'cancelled', ...u, cancelledAt };
        await store.putJson(cancelledKey(u.kind, system, unit, Number(trial)), record);
      }
    },

    /**
     * A trial whose agent `pause --now` or `cancel` stopped starts again from a clean workspace:
     * its work volume is unmounted and its image and folder removed, so prepareWorkspace makes
     * new ones and copies the inputs again.
     */
    async discardTrialWork(args: { trial: TrialInput }): Promise<void> {
      // On whichever host takes it: the trial's next prepare starts clean on any host anyway.
      discardWorkDir(trialPaths(args.trial, opts.workRoot).workDir);
    },

    archiveForRetry,

    /** `job-control.json`: the job's control state as it is now (validated, so a reader can trust its shape). */
    async writeJobControl(args: { resultsDir: string; control: JobControlFile }): Promise<void> {
      await openResultsStore(args.resultsDir).putJson(jobControlKey(), jobControlFileSchema.parse(args.control));
    },
  };
}

export type JobActivities = ReturnType<typeof createJobActivities>;
