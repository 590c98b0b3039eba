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
  type ActivityInterfaceFor,
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
import { placeProject, type ProjectSite } from './project-site.js';
import { subtaskWorkflow } from './subtask-workflow.js';

export interface ProjectOutcome {
  key: string;
  processScore: number | null;
  finalScore: number | null;
  checkpoints: SubtaskOutcome[];
  usage: UnitUsage;
}

/** What the phases of one project run share. */
interface ProjectRun {
  input: ProjectTrialInput;
  progress: ProjectProgress;
  hold: { held: boolean };
  subtasks: ReturnType<typeof stoppableSubtasks>;
  feedback: ReturnType<typeof feedbackInbox>;
  verifier: ActivityInterfaceFor<ProjectActivities>;
}

export async function projectWorkflow(input: ProjectTrialInput): Promise<ProjectOutcome> {
  const project = openProject(input);
  const site = await placeProject(input);
  project.feedback.planned(site.stages.flatMap((s) => s.subtasks));
  await runStages(project, site);
  return finish(project, site);
}

/** The project's state and its handlers (progress, hold, stop, feedback), installed before its first await. */
function openProject(input: ProjectTrialInput): ProjectRun {
  const progress: ProjectProgress = {
    stage: null,
    subtask: null,
    phase: 'starting',
    checkpoints: [],
    finalScore: null,
    injectedFeedback: 0,
  };
  setHandler(projectProgressQuery, () => progress);
  const hold = heldByJob();
  const subtasks = stoppableSubtasks();
  const feedback = feedbackInbox(progress);
  const verifier = proxyActivities<ProjectActivities>({
    startToCloseTimeout: `${Math.ceil(input.limits.verifierSeconds)}s`,
    heartbeatTimeout: `${input.heartbeatSeconds}s`,
    retry: { maximumAttempts: 5, initialInterval: '5s' },
  });
  return { input, progress, hold, subtasks, feedback, verifier };
}

/** Each stage: its materials released, then its subtasks in order. */
async function runStages(project: ProjectRun, site: ProjectSite): Promise<void> {
  const { progress } = project;
  let index = 0;
  for (const stage of site.stages) {
    progress.stage = stage.id;
    progress.phase = 'releasing';
    await site.releaseStage(stage.id);
    for (const subtaskId of stage.subtasks) {
      index++;
      await runSubtask(project, site, { stageId: stage.id, subtaskId, index });
    }
  }
}

/**
 * One subtask to its checkpoint: once the job no longer holds it, after the feedback that came
 * before it; stopped mid-agent by `pause --now`, it runs again.
 */
async function runSubtask(
  project: ProjectRun,
  site: ProjectSite,
  at: { stageId: string; subtaskId: string; index: number },
): Promise<void> {
  const { input, progress, hold, subtasks, feedback } = project;
  for (;;) {
    if (hold.held) {
      progress.phase = 'paused';
      await condition(() => !hold.held);
    }
    subtasks.clearStop();
    // What arrives from here on (even while this release runs) goes before the following subtask.
    const released = feedback.take();
    if (released.length > 0) await site.releaseFeedback(released);
    progress.subtask = at.subtaskId;
    progress.phase = 'subtask';
    const outcome = await site.run((_, place) => subtasks.run({ project: input, ...at, ...place }));
    if (outcome) {
      site.checkpointed();
      progress.checkpoints.push(outcome);
      return;
    }
    // Stopped mid-agent: nothing of it is recorded; it runs again from the last checkpoint.
    site.restart(at.subtaskId, 'stopped by assay pause --now');
    feedback.putBack(at.subtaskId);
  }
}

/** The final package's evaluation, then the project's record. */
async function finish(project: ProjectRun, site: ProjectSite): Promise<ProjectOutcome> {
  const { input, progress } = project;
  // The final package and its evaluation come from the preserved snapshots: any host does it.
  progress.phase = 'final';
  const final = await project.verifier.evaluateFinalPackage({ project: input });
  progress.finalScore = final.score;
  progress.phase = 'recording';
  const record = await site.record(project.feedback.injected);
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

/** Set by the job while it is paused: the running subtask finishes, the next one waits. */
function heldByJob(): { held: boolean } {
  const hold = { held: false };
  setHandler(holdSubtasksSignal, (held) => {
    hold.held = held;
  });
  return hold;
}

/**
 * Client feedback through the acknowledged `injectFeedback` update: kept until the next subtask
 * starts (`take`), and refused once no subtask is left to receive it.
 */
function feedbackInbox(progress: ProjectProgress) {
  const pending: FeedbackInjection[] = [];
  const injected: { name: string; beforeSubtask: string | null }[] = [];
  // Subtasks that feedback accepted now would still reach, in order (null until the plan is read).
  let upcoming: string[] | null = null;
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
  return {
    injected,
    /** The plan is read: feedback accepted from now on names the subtask it goes before. */
    planned: (subtasks: string[]) => {
      upcoming = subtasks;
    },
    /** The feedback to release before the subtask starting now. */
    take: (): FeedbackInjection[] => {
      const feedback = pending.splice(0);
      upcoming?.shift();
      return feedback;
    },
    /** `subtaskId` runs again: feedback accepted meanwhile still goes before it. */
    putBack: (subtaskId: string) => {
      upcoming?.unshift(subtaskId);
    },
  };
}
