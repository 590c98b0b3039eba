// Where a project's workspace lives (issue #10): prepared on whichever host takes the shared
// queue's prepare, then every step that touches it runs on that host. A host gone mid-project:
// a fresh workspace on another host, restored from the newest preserved checkpoint, the
// releases since that checkpoint made again, and the step that failed runs again there.
// A subtask stopped by `pause --now` restarts the same way on the same host (`restarts`).
import { ApplicationFailure, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { ProjectActivities } from '@assay/activities';
import {
  MAX_HOST_MOVES,
  type FeedbackInjection,
  type ProjectMove,
  type ProjectRestart,
  type ProjectTrialInput,
} from '@assay/core/pure';
import { hostLostReason, onHost, showHost } from './host-routing.js';

const QUICK = { startToCloseTimeout: '10 minutes', retry: { maximumAttempts: 5, initialInterval: '2s' } } as const;

export type SiteActivities = ReturnType<typeof proxyActivities<ProjectActivities>>;

export interface ProjectSite {
  stages: { id: string; subtasks: string[] }[];
  /** Runs `step` on the workspace's host, moving the project first as often as its host is gone. */
  run<T>(step: (acts: SiteActivities, at: { hostId?: string; moves: number }) => Promise<T>): Promise<T>;
  releaseStage(stageId: string): Promise<void>;
  releaseFeedback(feedback: FeedbackInjection[]): Promise<void>;
  /** A subtask's checkpoint is preserved: what was released before it is in its snapshot. */
  checkpointed(): void;
  /** `subtaskId` was stopped mid-agent: the next step starts from a fresh workspace, restored from the last checkpoint. */
  restart(subtaskId: string, reason: string): void;
  /** The record, on the host (which releases its volume) or, that host gone, on any. */
  record(injected: { name: string; beforeSubtask: string | null }[]): ReturnType<ProjectActivities['recordProject']>;
}

export async function placeProject(input: ProjectTrialInput): Promise<ProjectSite> {
  const options = { ...QUICK, heartbeatTimeout: `${input.heartbeatSeconds}s` };
  const shared = proxyActivities<ProjectActivities>(options);
  const moves: ProjectMove[] = [];
  const restarts: ProjectRestart[] = [];
  let since: { stage: string | null; feedback: FeedbackInjection[] } = { stage: null, feedback: [] };
  let replay = false;
  let restartPending = false;
  // A new placement key makes the prepare start over from the newest preserved checkpoint.
  const placementKey = () =>
    `${workflowInfo().runId}:${moves.length}${restarts.length > 0 ? `:restart-${restarts.length}` : ''}`;
  const prepare = async (via: SiteActivities) => {
    const prepared = await via.prepareProjectWorkspace(input, { key: placementKey() });
    showHost(prepared.hostId);
    return { ...prepared, acts: proxyActivities<ProjectActivities>(onHost(options, input, prepared.hostId)) };
  };
  let here = await prepare(shared);

  const run = async <T>(step: (acts: SiteActivities, at: { hostId?: string; moves: number }) => Promise<T>) => {
    for (;;) {
      try {
        if (restartPending) {
          // Same host: its queue, so the old workspace is the one made again.
          here = await prepare(here.acts);
          const restart = restarts.at(-1);
          if (restart) restart.restoredFrom = here.restoredFrom ?? null;
          restartPending = false;
          replay = true;
        }
        if (replay) {
          // The restored checkpoint predates these releases: make them again on the new host.
          if (since.stage) await here.acts.releaseStage({ project: input, stageId: since.stage });
          if (since.feedback.length) await here.acts.releaseFeedback({ project: input, feedback: since.feedback });
          replay = false;
        }
        return await step(here.acts, { ...(here.hostId ? { hostId: here.hostId } : {}), moves: moves.length });
      } catch (err) {
        const lost = here.hostId ? hostLostReason(err, here.hostId, input) : null;
        if (!lost || !here.hostId) throw err;
        if (moves.length >= MAX_HOST_MOVES)
          throw ApplicationFailure.nonRetryable(
            `project moved host ${moves.length} times, stopped: ${lost}`,
            'HostsLost',
          );
        const at = new Date().toISOString();
        const move: ProjectMove = {
          from: here.hostId,
          to: null,
          reason: lost,
          at,
          restoredFrom: null,
          session: 'restarted',
        };
        moves.push(move);
        here = await prepare(shared);
        Object.assign(move, { to: here.hostId ?? null, restoredFrom: here.restoredFrom ?? null });
        // The move's fresh workspace is the restart's too.
        restartPending = false;
        replay = true;
      }
    }
  };
  return {
    stages: here.stages,
    run,
    // Noted once made: a release that itself lost its host is made by its own retry, not replayed too.
    releaseStage: async (stageId) => {
      await run((acts) => acts.releaseStage({ project: input, stageId }));
      since.stage = stageId;
    },
    releaseFeedback: async (feedback) => {
      await run((acts) => acts.releaseFeedback({ project: input, feedback }));
      since.feedback.push(...feedback);
    },
    checkpointed: () => {
      since = { stage: null, feedback: [] };
    },
    restart: (subtaskId, reason) => {
      const at = new Date().toISOString();
      restarts.push({ subtaskId, reason, at, host: here.hostId ?? null, restoredFrom: null, session: 'restarted' });
      restartPending = true;
    },
    record: (injected) => {
      const placement = here.hostId ? { placement: { host: here.hostId, moves } } : {};
      const args = { project: input, injected, ...placement, ...(restarts.length > 0 ? { restarts } : {}) };
      return here.acts.recordProject(args).catch((err: unknown) => {
        if (!here.hostId || !hostLostReason(err, here.hostId, input)) throw err;
        return shared.recordProject(args);
      });
    },
  };
}
