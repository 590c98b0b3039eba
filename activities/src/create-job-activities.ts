// Activities of the job workflow itself: what is already recorded (so a resubmitted job runs
// nothing twice) and the record of a unit that failed for infrastructure reasons.
import { projectTrialKey, trialKey } from '@assay/core';
import { openResultsStore, readProjectRecords, readTrialRecords } from '@assay/results';

export function createJobActivities() {
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
      await openResultsStore(args.resultsDir).putJson(`${args.key}/infra-failure.json`, {
        error: args.error,
        at: new Date().toISOString(),
      });
    },
  };
}

export type JobActivities = ReturnType<typeof createJobActivities>;
