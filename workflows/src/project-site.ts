// Where a project's workspace lives (issue #10): prepared on whichever host takes the shared
// queue's prepare, then every step that touches it runs on that host. A host gone mid-project:
// a fresh workspace on another host, restored from the newest preserved checkpoint, the
// releases since that checkpoint made again, and the step that failed runs again there.
// A subtask stopped by `pause --now` restarts the same way on the same host (`restarts`).
import { ApplicationFailure, proxyActivities, workflowInfo, type ActivityOptions } from '@temporalio/workflow';
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
  run<T>(step: Step<T>): Promise<T>;
  releaseStage(stageId: string): Promise<void>;
  releaseFeedback(feedback: FeedbackInjection[]): Promise<void>;
  /** A subtask's checkpoint is preserved: what was released before it is in its snapshot. */
  checkpointed(): void;
  /** `subtaskId` was stopped mid-agent: the next step starts from a fresh workspace, restored from the last checkpoint. */
  restart(subtaskId: string, reason: string): void;
  /** The record, on the host (which releases its volume) or, that host gone, on any. */
  record(injected: { name: string; beforeSubtask: string | null }[]): ReturnType<ProjectActivities['recordProject']>;
}

type Step<T> = (acts: SiteActivities, at: { hostId?: string; moves: number }) => Promise<T>;

/** A prepared workspace, and the activities that reach its host. */
type Workspace = Awaited<ReturnType<ProjectActivities['prepareProjectWorkspace']>> & { acts: SiteActivities };

/** What the phases of one project's placement share. */
interface Placement {
  input: ProjectTrialInput;
  options: ActivityOptions;
  /** The shared queue: a prepare for a new host, and the record once the host is gone. */
  shared: SiteActivities;
  moves: ProjectMove[];
  restarts: ProjectRestart[];
  here: Workspace;
  /** What was released since the last checkpoint: a fresh workspace needs it again. */
  since: { stage: string | null; feedback: FeedbackInjection[] };
  /** The workspace is fresh: what was released since the checkpoint is made again before the next step. */
  replay: boolean;
  /** A subtask was stopped: the next step first makes the workspace again on the same host. */
  restartPending: boolean;
}

export async function placeProject(input: ProjectTrialInput): Promise<ProjectSite> {
  const options = { ...QUICK, heartbeatTimeout: `${input.heartbeatSeconds}s` };
  const shared = proxyActivities<ProjectActivities>(options);
  const moves: ProjectMove[] = [];
  const restarts: ProjectRestart[] = [];
  const here = await prepare({ input, options, moves, restarts }, shared);
  const since = { stage: null, feedback: [] };
  return siteOf({ input, options, shared, moves, restarts, here, since, replay: false, restartPending: false });
}

async function prepare(
  p: Pick<Placement, 'input' | 'options' | 'moves' | 'restarts'>,
  via: SiteActivities,
): Promise<Workspace> {
  // A new placement key makes the prepare start over from the newest preserved checkpoint.
  const restarted = p.restarts.length > 0 ? `:restart-${p.restarts.length}` : '';
  const key = `${workflowInfo().runId}:${p.moves.length}${restarted}`;
  const prepared = await via.prepareProjectWorkspace(p.input, { key });
  showHost(prepared.hostId);
  return { ...prepared, acts: proxyActivities<ProjectActivities>(onHost(p.options, p.input, prepared.hostId)) };
}

function siteOf(p: Placement): ProjectSite {
  const { input } = p;
  return {
    stages: p.here.stages,
    run: (step) => runStep(p, step),
    // Noted once made: a release that itself lost its host is made by its own retry, not replayed too.
    releaseStage: async (stageId) => {
      await runStep(p, (acts) => acts.releaseStage({ project: input, stageId }));
      p.since.stage = stageId;
    },
    releaseFeedback: async (feedback) => {
      await runStep(p, (acts) => acts.releaseFeedback({ project: input, feedback }));
      p.since.feedback.push(...feedback);
    },
    checkpointed: () => {
      p.since = { stage: null, feedback: [] };
    },
    restart: (subtaskId, reason) => {
      const at = new Date().toISOString();
      p.restarts.push({ subtaskId, reason, at, host: p.here.hostId ?? null, restoredFrom: null, session: 'restarted' });
      p.restartPending = true;
    },
    record: (injected) => record(p, injected),
  };
}

/** `step` on the workspace's host, once the workspace is made again if it must be; a host gone moves it first. */
async function runStep<T>(p: Placement, step: Step<T>): Promise<T> {
  for (;;) {
    try {
      if (p.restartPending) await restartHere(p);
      if (p.replay) await replayReleases(p);
      const { hostId } = p.here;
      return await step(p.here.acts, { ...(hostId ? { hostId } : {}), moves: p.moves.length });
    } catch (err) {
      await moveHost(p, err);
    }
  }
}

/** A fresh workspace for the restarted subtask, restored from the last checkpoint. */
async function restartHere(p: Placement): Promise<void> {
  // Same host: its queue, so the old workspace is the one made again.
  p.here = await prepare(p, p.here.acts);
  const restart = p.restarts.at(-1);
  if (restart) restart.restoredFrom = p.here.restoredFrom ?? null;
  p.restartPending = false;
  p.replay = true;
}

/** The restored checkpoint predates these releases: make them again on the new workspace. */
async function replayReleases(p: Placement): Promise<void> {
  const { input, since } = p;
  if (since.stage) await p.here.acts.releaseStage({ project: input, stageId: since.stage });
  if (since.feedback.length) await p.here.acts.releaseFeedback({ project: input, feedback: since.feedback });
  p.replay = false;
}

/** `err` lost the host: a fresh workspace on whichever host prepares it, at most MAX_HOST_MOVES times; else rethrown. */
async function moveHost(p: Placement, err: unknown): Promise<void> {
  const from = p.here.hostId;
  const lost = from ? hostLostReason(err, from, p.input) : null;
  if (!lost || !from) throw err;
  if (p.moves.length >= MAX_HOST_MOVES)
    throw ApplicationFailure.nonRetryable(`project moved host ${p.moves.length} times, stopped: ${lost}`, 'HostsLost');
  const at = new Date().toISOString();
  const move: ProjectMove = { from, to: null, reason: lost, at, restoredFrom: null, session: 'restarted' };
  p.moves.push(move);
  p.here = await prepare(p, p.shared);
  Object.assign(move, { to: p.here.hostId ?? null, restoredFrom: p.here.restoredFrom ?? null });
  // The move's fresh workspace is the restart's too.
  p.restartPending = false;
  p.replay = true;
}

/** The record, on the host (which releases its volume) or, that host gone, on any. */
function record(p: Placement, injected: { name: string; beforeSubtask: string | null }[]) {
  const { input, here, moves, restarts } = p;
  const placement = here.hostId ? { placement: { host: here.hostId, moves } } : {};
  const args = { project: input, injected, ...placement, ...(restarts.length > 0 ? { restarts } : {}) };
  return here.acts.recordProject(args).catch((err: unknown) => {
    if (!p.here.hostId || !hostLostReason(err, p.here.hostId, input)) throw err;
    return p.shared.recordProject(args);
  });
}
