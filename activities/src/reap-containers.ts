// On worker start, remove labelled agent containers of this worker's Temporal server and namespace
// whose workflow is no longer running there (finished, terminated or unknown). Containers of running
// workflows stay, so a retried activity can re-attach to them; containers of another server or
// namespace on a shared Docker engine are not ours to judge, and neither are unlabelled ones
// (made before containers carried their server): those are left alone. The trial networks and volumes of Harbor
// compose tasks go the same way, after their containers, and so do model proxy relay folders (reap-relay-folders.ts).
import type Docker from 'dockerode';
import {
  LABEL_MANAGED,
  LABEL_TEMPORAL_ADDRESS,
  LABEL_WORKFLOW,
  serverLabels,
  type TemporalServerRef,
} from './run-agent-container.js';
import { SNAPSHOT_REPO } from './harbor/run-harbor-agent.js';
import { reapRelayFolders } from './reap-relay-folders.js';

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
  const removed = await reapLabelled(
    'container',
    containers.map((c) => ({
      name: c.Names[0] ?? c.Id,
      workflowId: c.Labels[LABEL_WORKFLOW],
      remove: () => docker.getContainer(c.Id).remove({ force: true }),
    })),
    isWorkflowRunning,
    log,
  );
  await noteUnlabelled(docker, log);
  await reapNetworks(docker, server, isWorkflowRunning, log);
  // Relay folders only once their stray containers are gone; one that cannot be read waits for the next start.
  await reapRelayFolders(docker, log).catch(() => undefined);
  // A committed agent container keeps its labels: Harbor snapshot images of a workflow no longer running
  // (its record was written, which removes them, or it ended without one) are read by nobody again.
  const images = await docker.listImages({
    filters: { label: [`${LABEL_MANAGED}=true`, ...ours], reference: [`${SNAPSHOT_REPO}`] },
  });
  const snapshots = images.flatMap((image) => {
    const workflowId = image.Labels?.[LABEL_WORKFLOW];
    // An unlabelled snapshot is not known to be ours to judge.
    if (!workflowId) return [];
    return (image.RepoTags ?? []).map((tag) => ({
      name: tag,
      workflowId,
      remove: () => docker.getImage(tag).remove({ force: true }),
    }));
  });
  return [...removed, ...(await reapLabelled('snapshot image', snapshots, isWorkflowRunning, log))];
}

interface Labelled {
  name: string;
  workflowId: string | undefined;
  remove: () => Promise<unknown>;
}

/** Removes each thing whose workflow is not running (or names none); a failed removal is left for the next start. */
async function reapLabelled(
  kind: string,
  things: Labelled[],
  isWorkflowRunning: (workflowId: string) => Promise<boolean>,
  log: (line: string) => void,
): Promise<string[]> {
  const removed: string[] = [];
  for (const t of things) {
    if (t.workflowId && (await isWorkflowRunning(t.workflowId))) continue;
    await t.remove().catch(() => undefined);
    removed.push(t.name);
    log(`removed stray ${kind} ${t.name} (workflow ${t.workflowId ?? 'unknown'} is not running)`);
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
 * The networks and volumes of Harbor compose trials (harbor-sidecars.ts) whose workflow is no longer running on
 * this worker's server, once their containers are gone; another server's, or an unlabelled one, is left alone.
 */
async function reapNetworks(
  docker: Docker,
  server: TemporalServerRef,
  isWorkflowRunning: (workflowId: string) => Promise<boolean>,
  log: (line: string) => void = () => undefined,
): Promise<string[]> {
  const filters = {
    label: [`${LABEL_MANAGED}=true`, ...Object.entries(serverLabels(server)).map(([k, v]) => `${k}=${v}`)],
  };
  const networks = (await docker.listNetworks({ filters })).map((n) => ({
    name: n.Name,
    workflowId: n.Labels?.[LABEL_WORKFLOW],
    remove: () => docker.getNetwork(n.Id).remove(),
  }));
  const volumes = ((await docker.listVolumes({ filters })).Volumes ?? []).map((v) => ({
    name: v.Name,
    workflowId: v.Labels?.[LABEL_WORKFLOW],
    remove: () => docker.getVolume(v.Name).remove(),
  }));
  return [
    ...(await reapLabelled('network', networks, isWorkflowRunning, log)),
    ...(await reapLabelled('volume', volumes, isWorkflowRunning, log)),
  ];
}
