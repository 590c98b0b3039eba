import { ensureRuntime } from '../ensure-runtime.js';
import { repoRoot } from '../repo-root.js';
import { connectChecked } from '../temporal-target.js';
import { startWorker } from '../worker/start-worker.js';
import { resolveWorkerHost } from '../worker/worker-host.js';

/** `assay worker`: a standalone worker until SIGINT/SIGTERM. */
export async function workerCommand(opts: { concurrency?: string; hostId?: string; workRoot?: string }): Promise<void> {
  const root = repoRoot();
  const log = (line: string): void => console.log(line);
  // A bad host id is refused before anything starts.
  const host = resolveWorkerHost({ hostId: opts.hostId, workRoot: opts.workRoot });
  const runtime = await ensureRuntime({ root, log, needDocker: true });
  // A worker polling a namespace without assay's search attributes would fail every workflow task.
  await (await connectChecked(runtime.target, { log, createNamespace: true })).close();
  const running = await startWorker({
    address: runtime.address,
    namespace: runtime.target.namespace,
    connection: runtime.target.connectionOptions,
    images: runtime.images!,
    log,
    maxConcurrentActivities: opts.concurrency ? Number(opts.concurrency) : undefined,
    host,
  });
  const stop = (): void => {
    void running.shutdown();
  };
  // Before the line that says it is ready: a signal sent on seeing it must find the handler (else it kills).
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const where = host.workRoot ? `, work folders under ${host.workRoot}` : '';
  log(
    `worker of host "${host.id}" polling task queues "assay" and "assay-host:${host.id}" on ${runtime.target.summary}${where}`,
  );
  await running.done;
}
