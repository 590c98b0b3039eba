// Instant stand-ins for the activities the job and trial workflows call, for measuring the
// orchestration alone (issue #10 part 6): the real workflows run on a real server, but every
// agent "finishes" at once and nothing touches Docker or the disk. Outcomes are shaped like the
// real ones (one deliverable, three verdicts) so history payloads are of a realistic size.
// What the real listFinishedTrials reads back from the records, `recorded`, lets each continued
// run of the job skip what is done.
import { trialKey, type TrialInput } from '@assay/core';

function verdicts(trial: TrialInput) {
  return ['c1', 'c2', 'c3'].map((id, i) => ({
    criterionId: id,
    decision: i === 2 && trial.trial % 2 === 0 ? 'fail' : 'pass',
    source: 'check',
    rationale: `instant verdict ${id} for ${trial.system.id}/${trial.taskId}/${trial.trial}`,
  }));
}

/**
 * `hostId`: the host this worker plays (prepare answers it, so the trial's later steps go to its
 * queue); `recorded` is shared by every host's activities, as the records are by every worker.
 */
export function createInstantActivities(hostId: string, recorded: Set<string>) {
  let prepared = 0;
  const activities = {
    // The job workflow's.
    async listFinishedTrials(): Promise<string[]> {
      return [...recorded];
    },
    async recordInfraFailure(): Promise<void> {},
    async recordCancelled(): Promise<void> {},
    async discardTrialWork(): Promise<void> {},
    async archiveForRetry(): Promise<void> {},
    async writeJobControl(): Promise<void> {},
    // The trial workflow's, in its order.
    async prepareWorkspace(trial: TrialInput) {
      const dir = `/work/${trial.jobId}/${trial.system.id}/${trial.taskId}/${trial.trial}`;
      prepared++;
      return { workspace: `${dir}/workspace`, instructionDir: `${dir}/instruction`, hostId };
    },
    // The agent, collect, evaluate and record in one activity: the run and the record it returns.
    async runAgentAndFinish(args: { trial: TrialInput }) {
      recorded.add(trialKey(args.trial.system.id, args.trial.taskId, args.trial.trial));
      const v = verdicts(args.trial);
      const passed = v.filter((x) => x.decision === 'pass').length;
      return {
        status: 'completed',
        score: { value: passed / v.length, decided: true },
        verdicts: v,
        usage: null,
        agent: { durationSeconds: 0 },
      };
    },
    async findTrialRecordOf() {
      return { record: null, agentFinished: false };
    },
  };
  return { activities, prepared: () => prepared };
}
