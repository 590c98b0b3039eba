// A throwaway container for tests that look inside an image: run a command on network none, wait, read both
// streams, remove it.
import type Docker from 'dockerode';
import { demuxDockerLog } from '../../activities/src/run-agent-container.js';

export async function runContainer(
  docker: Docker,
  image: string,
  cmd: string[],
): Promise<{ code: number; out: string }> {
  const container = await docker.createContainer({ Image: image, Cmd: cmd, HostConfig: { NetworkMode: 'none' } });
  try {
    await container.start();
    const { StatusCode } = (await container.wait()) as { StatusCode: number };
    return { code: StatusCode, out: demuxDockerLog(await container.logs({ stdout: true, stderr: true })) };
  } finally {
    await container.remove({ force: true });
  }
}
