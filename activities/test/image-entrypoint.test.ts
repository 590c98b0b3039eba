// A task image's ENTRYPOINT run before a phase's command, as Harbor runs it (entrypoint first, with Harbor's
// `sh -c "sleep infinity"`), in real containers on the local base image.
import Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import {
  ENTRYPOINT_ENDED_EXIT,
  LABEL_IMAGE_ENTRYPOINT,
  imageEntrypointOf,
  launchPastEntrypoint,
} from '../src/harbor/image-entrypoint.js';

const docker = new Docker();
const IMAGE = 'assay/base:bookworm';

/** Runs `cmd` past `entrypoint` in a fresh container: its exit code, output and wall time. */
async function runPast(entrypoint: string[], cmd: string[]) {
  const launch = launchPastEntrypoint(entrypoint, cmd);
  const container = await docker.createContainer({
    Image: IMAGE,
    Entrypoint: launch.entrypoint,
    Cmd: launch.cmd,
    Labels: launch.labels,
    HostConfig: { Init: true, NetworkMode: 'none' },
  });
  const started = Date.now();
  try {
    await container.start();
    const { StatusCode } = (await container.wait()) as { StatusCode: number };
    const seconds = (Date.now() - started) / 1000;
    const logs = demux(await container.logs({ stdout: true, stderr: true }));
    return { code: StatusCode, logs, seconds, labels: (await container.inspect()).Config.Labels };
  } finally {
    await container.remove({ force: true });
  }
}

/** The engine's multiplexed log stream as text (each frame: 8 header bytes, its length at 4..8). */
function demux(raw: Buffer): string {
  let out = '';
  for (let at = 0; at + 8 <= raw.length; ) {
    const size = raw.readUInt32BE(at + 4);
    out += raw.subarray(at + 8, at + 8 + size).toString('utf8');
    at += 8 + size;
  }
  return out;
}

/** An entrypoint as `sh -c SCRIPT`: "$@" in SCRIPT is the command it is given. */
const shell = (script: string) => ['/bin/sh', '-c', script, 'entrypoint'];

describe('the image ENTRYPOINT before a phase', () => {
  it('runs the command once the entrypoint has set up and run its command; arguments and exit code kept', async () => {
    const ran = await runPast(shell('sleep 0.5; echo ready > /tmp/setup; exec "$@"'), [
      'bash',
      '-c',
      'cat /tmp/setup; ps -eo args | grep -qx "sleep infinity" && echo kept-alive; echo "$1"; exit 3',
      'arg0',
      'two words',
    ]);
    expect(ran.logs).toBe('ready\nkept-alive\ntwo words\n');
    expect(ran.code).toBe(3);
    expect(JSON.parse(ran.labels[LABEL_IMAGE_ENTRYPOINT] ?? '[]')).toEqual(
      shell('sleep 0.5; echo ready > /tmp/setup; exec "$@"'),
    );
  }, 60_000);

  it('ends the phase with a clear line when the entrypoint ends before running its command', async () => {
    const ran = await runPast(shell('echo broken >&2; exit 4'), ['echo', 'never']);
    expect(ran.code).toBe(ENTRYPOINT_ENDED_EXIT);
    expect(ran.logs).toContain(
      "assay: the image's ENTRYPOINT ended (exit 4) before it ran its command (Harbor's container would stop here)",
    );
    expect(ran.logs).not.toContain('never');
  }, 60_000);

  it('runs the command after a bounded wait when the entrypoint never runs its command (a foreground server)', async () => {
    const ran = await runPast(shell('echo serving > /tmp/up; sleep 600'), ['cat', '/tmp/up']);
    expect(ran.code).toBe(0);
    expect(ran.logs).toBe('serving\n');
    expect(ran.seconds).toBeGreaterThan(4);
    expect(ran.seconds).toBeLessThan(30);
  }, 60_000);

  it('leaves a command alone when the image has no entrypoint, and reads a snapshot’s from its label', async () => {
    expect(launchPastEntrypoint([], ['true'])).toEqual({ entrypoint: [], cmd: ['true'], labels: {} });
    expect(await imageEntrypointOf(docker, IMAGE)).toEqual([]);
  });
});
