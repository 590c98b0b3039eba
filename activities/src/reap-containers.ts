// On worker start, remove labelled agent containers whose workflow is no longer
// running (finished, terminated or unknown). Containers of running workflows stay,
// so a retried activity can re-attach to them.
import type Docker from 'dockerode';
import { LABEL_MANAGED, LABEL_WORKFLOW } from './run-agent-container.js';

export async function reapContainers(
  docker: Docker,
  isWorkflowRunning: (workflowId: string) => Promise<boolean>,
  log: (line: string) => void = () => undefined,
): Promise<string[]> {
  const containers = await docker.listContainers({ all: true, filters: { label: [`${LABEL_MANAGED}=true`] } });
  const removed: string[] = [];
  for (const c of containers) {
    const workflowId = c.Labels[LABEL_WORKFLOW];
    if (workflowId && (await isWorkflowRunning(workflowId))) continue;
    await docker
      .getContainer(c.Id)
      .remove({ force: true })
      .catch(() => undefined);
    removed.push(c.Names[0] ?? c.Id);
    log(`removed stray container ${c.Names[0] ?? c.Id} (workflow ${workflowId ?? 'unknown'} is not running)`);
  }
  return removed;
}
