import type { SystemSpec } from '@assay/core';
import type { TaskTools } from '@assay/harnesses';

export interface HarnessContext {
  system: SystemSpec;
  /** The task's evaluator folder; only scripted test instruments may mount parts of it. */
  evaluatorDir: string;
  images: { scriptedAgent: string };
  /** The workspace folder deliverables go to (a StartupBench task's `results`); absent: `outputs`. */
  deliverablesDir?: string;
}

/** What a model-driven harness run additionally needs (session folder, proxy route, limits). */
export interface HarnessRunContext extends HarnessContext {
  /** Stable id of this agent run (the workflow id): names the container and the proxy route. */
  runId: string;
  /** Host folder kept across the subtasks of one trial (the CLI's HOME and session state). */
  sessionDir: string;
  /** Where the run's pre-run session state is recorded, so a retried activity measures usage from the same point. */
  stateFile: string;
  limits: { maxSteps: number; agentSeconds: number };
  /** A model CLI's image built elsewhere (a Harbor task's: layered on the task's image); default: its own. */
  image?: string;
  /** Reach the model proxy through the in-container relay, not the host's network (Harbor tasks). */
  relay?: boolean;
  /** A Harbor task's skills_dir and mcp_servers for the CLI. */
  taskTools?: TaskTools;
  /** A Harbor step that continues the previous step's session (resume_trajectory): the CLI's resume argv, always. */
  resume?: { sessionId: string | null };
}

/**
 * A harness that cannot run here (unknown, not built, misconfigured). Thrown from an activity it
 * becomes an ApplicationFailure of this type, which the workflows' retry policies never retry.
 */
export class HarnessNotAvailable extends Error {
  override name = 'HarnessNotAvailable';
}
