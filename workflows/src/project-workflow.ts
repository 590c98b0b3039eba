// One system carrying one project through its timeline (DeliverBench):
//   for each stage: release its materials and feedback into the workspace,
//   then for each subtask a child workflow (agent -> checkpoint -> evaluation);
//   after the last stage, evaluate the final package; record.
// Subtasks are child workflows so this history stays small even for 21 subtasks;
// each child's id is deterministic, so a finished subtask is never run again.
// The workspace lives on one host at a time (project-site.ts): a host gone mid-project moves it.
// `pause --now` stops the running subtask's agent; once released, that subtask runs again from a
// fresh workspace restored from the last checkpoint (the record's `restarts`).
import {
  ApplicationFailure,
  ChildWorkflowFailure,
  condition,
  proxyActivities,
  setHandler,
  startChild,
  workflowInfo,
  type ChildWorkflowHandle,
} from '@temporalio/workflow';
import type { ProjectActivities } from '@assay/activities';
import { unitUsageOf, type ProjectRecord, type UnitUsage } from '@assay/core/pure';
import {
  STOPPED_NOW,
  holdSubtasksSignal,
  injectFeedbackUpdate,
  projectProgressQuery,
  projectTrialKey,
  type FeedbackInjection,
  type ProjectProgress,
  type ProjectTrialInput,
  type SubtaskInput,
  type SubtaskOutcome,
  stopAgentSignal,
  stopSubtaskSignal,
} from './definitions.js';
import { placeProject } from './project-site.js';
import { subtaskWorkflow } from './subtask-workflow.js';

export interface ProjectOutcome {
  key: string;
  processScore: number | null;
  finalScore: number | null;
  checkpoints: SubtaskOutcome[];
  usage: UnitUsage;
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
  // Subtasks that feedback accepted now would still reach, in order (null until the plan is read).
  let upcoming: string[] | null = null;
  setHandler(projectProgressQuery, () => progress);
  // Set by the job while it is paused: the running subtask finishes, the next one waits.
  let held = false;
  setHandler(holdSubtasksSignal, (hold) => {
    held = hold;
  });
  const subtasks = stoppableSubtasks();
  setHandler(
    injectFeedbackUpdate,
    (feedback) => {
      pending.push(feedback);
      progress.injectedFeedback++;
      const releaseBefore = upcoming?.[0] ?? null;
      injected.push({ name: feedback.name, beforeSubtask: releaseBefore });
      return { accepted: true as const, releaseBefore };
    },
    {
      validator: (feedback) => {
        if (upcoming?.length === 0) throw new Error('the project has no subtask left to receive feedback');
        if (!/^[A-Za-z0-9._-]{1,100}$/.test(feedback.name)) throw new Error('feedback name must be a plain file name');
      },
    },
  );

  const verifier = proxyActivities<ProjectActivities>({
    startToCloseTimeout: `${Math.ceil(input.limits.verifierSeconds)}s`,
    heartbeatTimeout: `${input.heartbeatSeconds}s`,
    retry: { maximumAttempts: 5, initialInterval: '5s' },
  });

  const site = await placeProject(input);
  upcoming = site.stages.flatMap((s) => s.subtasks);
  let index = 0;
  for (const stage of site.stages) {
    progress.stage = stage.id;
    progress.phase = 'releasing';
    await site.releaseStage(stage.id);
    for (const subtaskId of stage.subtasks) {
      index++;
      for (;;) {
        if (held) {
          progress.phase = 'paused';
          await condition(() => !held);
        }
        subtasks.clearStop();
        // What arrives from here on (even while this release runs) goes before the following subtask.
        const feedback = pending.splice(0);
        upcoming.shift();
        if (feedback.length > 0) await site.releaseFeedback(feedback);
        progress.subtask = subtaskId;
        progress.phase = 'subtask';
        const at = { stageId: stage.id, subtaskId, index };
        const outcome = await site.run((_, place) => subtasks.run({ project: input, ...at, ...place }));
        if (outcome) {
          site.checkpointed();
          progress.checkpoints.push(outcome);
          break;
        }
        // Stopped mid-agent: nothing of it is recorded; it runs again from the last checkpoint.
        site.restart(subtaskId, 'stopped by assay pause --now');
        upcoming.unshift(subtaskId);
      }
    }
  }
  // The final package and its evaluation come from the preserved snapshots: any host does it.
  progress.phase = 'final';
  const final = await verifier.evaluateFinalPackage({ project: input });
  progress.finalScore = final.score;
  progress.phase = 'recording';
  const record = await site.record(injected);
  progress.phase = 'done';
  return outcomeOf(input, record, progress.checkpoints);
}

function outcomeOf(input: ProjectTrialInput, record: ProjectRecord, checkpoints: SubtaskOutcome[]): ProjectOutcome {
  return {
    key: projectTrialKey(input.system.id, input.projectId, input.trial),
    processScore: record.process.score,
    finalScore: record.final.score,
    checkpoints,
    usage: unitUsageOf(
      [
        ...record.checkpoints.map((c) => ({
          usage: c.usage,
          agentSeconds: c.agent.durationSeconds,
          verdicts: c.verdicts,
        })),
        { usage: null, agentSeconds: 0, verdicts: record.final.verdicts },
      ],
      input.system.model ?? null,
    ),
  };
}

/**
 * Runs subtasks as children that `pause --now` (the job's stopSubtask signal) can stop: the running
 * one, once its start is confirmed, is told to stop its agent; `run` then answers null.
 */
function stoppableSubtasks() {
  let stopNow = false;
  let running: ChildWorkflowHandle<typeof subtaskWorkflow> | null = null;
  setHandler(stopSubtaskSignal, () => {
    stopNow = true;
    void running?.signal(stopAgentSignal).catch(() => {});
  });
  return {
    /** A stop that came between subtasks is spent: the next subtask starts once the job resumes. */
    clearStop: () => {
      stopNow = false;
    },
    run: async (args: SubtaskInput): Promise<SubtaskOutcome | null> => {
      const child = await startChild(subtaskWorkflow, {
        workflowId: `${workflowInfo().workflowId}:${args.subtaskId}`,
        args: [args],
      });
      running = child;
      try {
        if (stopNow) await child.signal(stopAgentSignal);
        return await child.result();
      } catch (err) {
        if (
          err instanceof ChildWorkflowFailure &&
          err.cause instanceof ApplicationFailure &&
          err.cause.type === STOPPED_NOW
        )
          return null;
        throw err;
      } finally {
        running = null;
      }
    },
  };
}
