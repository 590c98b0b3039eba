// The task's environment image: environment/Dockerfile built with `docker build`, tagged by a content hash of
// the environment folder like assay's other images (so an unchanged folder is never rebuilt), within the task's
// build timeout; or [environment].docker_image, which must already be on this engine (nothing is pulled).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Docker from 'dockerode';
import type { HarborTask } from '@assay/benchmark';
import { ensureImage } from '@assay/infra';
import { HarnessNotAvailable } from '../harness/harness-context.js';

const REPO_ROOT = process.env.ASSAY_ROOT ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export async function ensureHarborImage(
  docker: Docker,
  task: { id: string; harbor: HarborTask },
  buildSeconds: number,
): Promise<string> {
  const { harbor } = task;
  const prebuilt = harbor.config.environment.dockerImage;
  if (prebuilt !== null && harbor.dockerfile === null) {
    const present = await docker
      .getImage(prebuilt)
      .inspect()
      .then(() => true)
      .catch(() => false);
    if (!present)
      throw new HarnessNotAvailable(
        `${harbor.configFile}:environment.docker_image: image "${prebuilt}" is not on this Docker engine (assay pulls nothing)`,
      );
    return prebuilt;
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${harbor.environmentDir}: docker build took longer than ${buildSeconds} s`)),
      buildSeconds * 1000,
    );
  });
  try {
    const built = ensureImage({ root: REPO_ROOT, name: `harbor-${task.id}`, dockerfileDir: harbor.environmentDir });
    return (await Promise.race([built, timeout])).tag;
  } finally {
    clearTimeout(timer);
  }
}
