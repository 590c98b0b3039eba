// Whether a container test can run here: the default Docker engine answers and has the base
// image. Tests skip without it on a developer's machine; under CI (where `.ci/run` sets both up)
// a missing engine or image fails the file instead of silently skipping its containers.
import Docker from 'dockerode';

export const BASE_IMAGE = 'assay/base:bookworm';

export async function checkDockerReady(docker = new Docker()): Promise<boolean> {
  try {
    await docker.ping();
    await docker.getImage(BASE_IMAGE).inspect();
    return true;
  } catch (err) {
    if (process.env.CI) {
      throw new Error(`CI: the Docker engine or ${BASE_IMAGE} is not ready: ${(err as Error).message}`);
    }
    return false;
  }
}
