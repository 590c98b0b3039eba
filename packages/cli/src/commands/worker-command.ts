import { ensureRuntime } from '../ensure-runtime.js';
import { repoRoot, temporalNamespace } from '../repo-root.js';
import { startWorker } from '../worker/start-worker.js';

/** `assay worker`: a standalone worker until SIGINT/SIGTERM. */
export async function workerCommand(opts: { concurrency?: string }): Promise<void> {
  const root = repoRoot();
  const log = (line: string): void => console.log(line);
  const runtime = await ensureRuntime({ root, log, needDocker: true });
  const running = await startWorker({
    address: runtime.address,
    namespace: temporalNamespace(),
    images: runtime.images!,
    log,
    maxConcurrentActivities: opts.concurrency ? Number(opts.concurrency) : undefined,
  });
  log(`worker polling task queue "assay" on ${runtime.address}`);
  const stop = (): void => {
    void running.shutdown();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await running.done;
}
