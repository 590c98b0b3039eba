// Activities of multi-stage projects (DeliverBench): one persistent workspace, staged
// releases, checkpoints preserved by content, checkpoint and final evaluation, and the project
// record. Built over injected clients like the trial activities.
import { createCheckpointActivities } from './checkpoint-activities.js';
import { createProjectContext, type ProjectActivityDeps } from './project-context.js';
import { createProjectWorkspaceActivities } from './project-workspace-activities.js';

export type { ProjectActivityDeps } from './project-context.js';

export function createProjectActivities(deps: ProjectActivityDeps) {
  const ctx = createProjectContext(deps);
  return { ...createProjectWorkspaceActivities(ctx), ...createCheckpointActivities(ctx) };
}

export type ProjectActivities = ReturnType<typeof createProjectActivities>;
