// On worker start, remove labelled agent containers of this worker's Temporal server and namespace
// whose workflow is no longer running there (finished, terminated or unknown). Containers of running
// workflows stay, so a retried activity can re-attach to them; containers of another server or
// namespace on a shared Docker engine are not ours to judge, and neither are unlabelled ones
// (made before containers carried their server): those are left alone. The trial networks of Harbor compose
// tasks go the same way, after their containers.
import type Docker from 'dockerode';
import {
  LABEL_MANAGED,
  LABEL_TEMPORAL_ADDRESS,
  LABEL_WORKFLOW,
  serverLabels,
  type TemporalServerRef,
} from './run-agent-container.js';
import { SNAPSHOT_REPO } from './harbor/run-harbor-agent.js';

export async function reapContainers(
  docker: Docker,
  server: TemporalServerRef,
  isWorkflowRunning: (workflowId: string) => Promise<boolean>,
  log: (line: string) => void = () => undefined,
): Promise<string[]> {
  const ours = Object.entries(serverLabels(server)).map(([k, v]) => `${k}=${v}`);
  const containers = await docker.listContainers({
    all: true,
    filters: { label: [`${LABEL_MANAGED}=true`, ...ours] },
  });
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
  await noteUnlabelled(docker, log);
  await reapNetworks(docker, server, isWorkflowRunning, log);
  return [...removed, ...(await reapSnapshots(docker, ours, isWorkflowRunning, log))];
}

/**
 * Harbor snapshot images (a committed agent container keeps its labels) of a workflow no longer running: its
 * record was written (which removes them) or it ended without one, so nothing will read them again.
 */
async function reapSnapshots(
  docker: Docker,
  ours: string[],
  isWorkflowRunning: (workflowId: string) => Promise<boolean>,
  log: (line: string) => void,
): Promise<string[]> {
  const images = await docker.listImages({
    filters: { label: [`${LABEL_MANAGED}=true`, ...ours], reference: [`${SNAPSHOT_REPO}`] },
  });
  const removed: string[] = [];
  for (const image of images) {
    const workflowId = image.Labels?.[LABEL_WORKFLOW];
    if (!workflowId || (await isWorkflowRunning(workflowId))) continue;
    for (const tag of image.RepoTags ?? []) {
      await docker
        .getImage(tag)
        .remove({ force: true })
        .catch(() => undefined);
      removed.push(tag);
      log(`removed stray snapshot image ${tag} (workflow ${workflowId} is not running)`);
    }
  }
  return removed;
}

/** Said once per start, so a user can remove what no worker will. */
async function noteUnlabelled(docker: Docker, log: (line: string) => void): Promise<void> {
  const all = await docker.listContainers({ all: true, filters: { label: [`${LABEL_MANAGED}=true`] } });
  const unlabelled = all.filter((c) => c.Labels[LABEL_TEMPORAL_ADDRESS] === undefined);
  if (unlabelled.length > 0)
    log(
      `${unlabelled.length} assay container(s) carry no Temporal server label and were left alone ` +
        `(remove them with \`docker rm -f\` if no worker of an older assay uses them): ${unlabelled
          .slice(0, 5)
          .map((c) => c.Names[0] ?? c.Id)
          .join(', ')}${unlabelled.length > 5 ? ', …' : ''}`,
    );
}

/**
 * The networks of Harbor compose trials (harbor-sidecars.ts) whose workflow is no longer running on this
 * worker's server, once their containers are gone; another server's, or an unlabelled one, is left alone.
 */
export async function reapNetworks(
  docker: Docker,
  server: TemporalServerRef,
  isWorkflowRunning: (workflowId: string) => Promise<boolean>,
  log: (line: string) => void = () => undefined,
): Promise<string[]> {
  const ours = Object.entries(serverLabels(server)).map(([k, v]) => `${k}=${v}`);
  const networks = await docker.listNetworks({ filters: { label: [`${LABEL_MANAGED}=true`, ...ours] } });
  const removed: string[] = [];
  for (const n of networks) {
    const workflowId = n.Labels?.[LABEL_WORKFLOW];
    if (workflowId && (await isWorkflowRunning(workflowId))) continue;
    await docker
      .getNetwork(n.Id)
      .remove()
      .catch(() => undefined);
    removed.push(n.Name);
    log(`removed stray network ${n.Name} (workflow ${workflowId ?? 'unknown'} is not running)`);
  }
  return removed;
}
