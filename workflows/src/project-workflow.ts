// One system carrying one project through its timeline (DeliverBench):
//   for each stage: release its materials and feedback into the workspace,
//   then for each subtask a child workflow (agent -> checkpoint -> evaluation);
//   after the last stage, evaluate the final package; record.
// Subtasks are child workflows so this history stays small even for 21 subtasks;
// each child's id is deterministic, so a finished subtask is never run again.
import { executeChild, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { ProjectActivities } from '@assay/activities';
import {
  injectFeedbackUpdate,
  projectProgressQuery,
  type FeedbackInjection,
  type ProjectProgress,
  type ProjectTrialInput,
  type SubtaskOutcome,
} from './definitions.js';
import { subtaskWorkflow } from './subtask-workflow.js';

export interface ProjectOutcome {
  key: string;
  processScore: number | null;
  finalScore: number | null;
  checkpoints: SubtaskOutcome[];
}

export async function projectWorkflow(input: ProjectTrialInput): Promise<ProjectOutcome> {
  const progress: ProjectProgress = {
    stage: null,
    subtask: null,
    phase: 'starting',
    checkpoints: [],
    finalScore: null,
    injectedFeedback: 0,
  };
  const pending: FeedbackInjection[] = [];
  const injected: { name: string; beforeSubtask: string | null }[] = [];
  let nextSubtask: string | null = null;
  let finished = false;
  setHandler(projectProgressQuery, () => progress);
  setHandler(
    injectFeedbackUpdate,
    (feedback) => {
      pending.push(feedback);
      progress.injectedFeedback++;
      injected.push({ name: feedback.name, beforeSubtask: nextSubtask });
      return { accepted: true as const, releaseBefore: nextSubtask };
    },
    {
      validator: (feedback) => {
        if (finished) throw new Error('the project has no subtask left to receive feedback');
        if (!/^[A-Za-z0-9._-]{1,100}$/.test(feedback.name)) throw new Error('feedback name must be a plain file name');
      },
    },
  );

  const quick = proxyActivities<ProjectActivities>({
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: `${input.heartbeatSeconds}s`,
    retry: { maximumAttempts: 5, initialInterval: '2s' },
  });
  const verifier = proxyActivities<ProjectActivities>({
    startToCloseTimeout: `${Math.ceil(input.limits.verifierSeconds)}s`,
    heartbeatTimeout: `${input.heartbeatSeconds}s`,
    retry: { maximumAttempts: 5, initialInterval: '5s' },
  });

  const plan = await quick.prepareProjectWorkspace(input);
  let index = 0;
  for (const stage of plan.stages) {
    progress.stage = stage.id;
    progress.phase = 'releasing';
    await quick.releaseStage({ project: input, stageId: stage.id });
    for (const subtaskId of stage.subtasks) {
      index++;
      nextSubtask = subtaskId;
      if (pending.length > 0) await quick.releaseFeedback({ project: input, feedback: pending.splice(0) });
      progress.subtask = subtaskId;
      progress.phase = 'subtask';
      const outcome = await executeChild(subtaskWorkflow, {
        workflowId: `${workflowInfo().workflowId}:${subtaskId}`,
        args: [{ project: input, stageId: stage.id, subtaskId, index }],
      });
      progress.checkpoints.push(outcome);
    }
  }
  finished = true;
  nextSubtask = null;
  progress.phase = 'final';
  const final = await verifier.evaluateFinalPackage({ project: input });
  progress.finalScore = final.score;
  progress.phase = 'recording';
  const record = await quick.recordProject({ project: input, injected });
  progress.phase = 'done';
  return {
    key: `${input.system.id}/${input.projectId}/${input.trial}`,
    processScore: record.process.score,
    finalScore: record.final.score,
    checkpoints: progress.checkpoints,
  };
}
