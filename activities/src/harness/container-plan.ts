import type { SystemSpec } from '@assay/core';

/** What the agent activity needs to start a harness container. */
export interface ContainerPlan {
  image: string;
  cmd: string[];
  env: Record<string, string>;
  /** Extra bind mounts (`host:container[:ro]`) besides /workspace and /assay. */
  binds: string[];
  readOnlyRoot: boolean;
}

export interface HarnessContext {
  system: SystemSpec;
  /** The task's evaluator folder; only scripted test instruments may mount parts of it. */
  evaluatorDir: string;
  images: { scriptedAgent: string };
}

/** A harness that cannot run here (unknown, not built, misconfigured): not retried. */
export class HarnessNotAvailable extends Error {
  override name = 'HarnessNotAvailable';
}
