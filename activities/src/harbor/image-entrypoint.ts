// A task image's ENTRYPOINT, run as Harbor runs it. Harbor keeps a trial's container alive on the image's own
// ENTRYPOINT with `sh -c "sleep infinity"` as its command and execs the agent, the oracle and the tests into
// it, so what an entrypoint sets up (an /etc/hosts line, a local service) is there for all of them. assay runs
// each phase as its own container's command, so there the launcher below starts the entrypoint first, in the
// background with Harbor's command, and execs the phase once the entrypoint has reached that command (it ran
// `exec "$@"`), or after ENTRYPOINT_WAIT_SECONDS if it never does (a server in the foreground). An entrypoint
// that ends before that ends the phase too, as Harbor's container would stop with it. Every phase runs it anew:
// a snapshot has no running processes, and Docker gives each container its own /etc/hosts.
import type Docker from 'dockerode';

/**
 * The task image's entrypoint as JSON, on every container that runs it: a snapshot committed from one keeps it
 * as an image label, since the snapshot's own ENTRYPOINT is then the launcher's.
 */
export const LABEL_IMAGE_ENTRYPOINT = 'assay.image-entrypoint';

/** How long a phase waits for an entrypoint that never runs its command. */
export const ENTRYPOINT_WAIT_SECONDS = 5;

/** Exit code of a phase whose image's entrypoint ended before it ran its command. */
export const ENTRYPOINT_ENDED_EXIT = 125;

// $1: how many of the arguments after it are the entrypoint; the rest is the phase's command. A process whose
// whole command line is Harbor's `sh -c "sleep infinity"` (or the sleep it execs) means the entrypoint got there
// (the entrypoint's own command line ends with those words from the start, so only a whole line counts).
const LAUNCHER = `n=$1; shift
(
  i=0
  for a in "$@"; do
    if [ "$i" -eq 0 ]; then set --; fi
    if [ "$i" -lt "$n" ]; then set -- "$@" "$a"; fi
    i=$((i+1))
  done
  exec "$@" sh -c 'sleep infinity'
) &
ep=$!
shift "$n"
t=0
while [ "$t" -lt ${ENTRYPOINT_WAIT_SECONDS * 10} ]; do
  state=$(sed 's/.*) //' "/proc/$ep/stat" 2>/dev/null | cut -c1)
  if [ -z "$state" ] || [ "$state" = Z ]; then
    wait "$ep"; code=$?
    echo "assay: the image's ENTRYPOINT ended (exit $code) before it ran its command (Harbor's container would stop here)" >&2
    exit ${ENTRYPOINT_ENDED_EXIT}
  fi
  for c in /proc/[0-9]*/cmdline; do
    case "$(cat "$c" 2>/dev/null | tr '\\000' ' ')" in
      "sh -c sleep infinity "|"sleep infinity ") exec "$@" ;;
    esac
  done
  sleep 0.1; t=$((t+1))
done
exec "$@"`;

/** The ENTRYPOINT a container on `image` must run first: a snapshot's label, else the image's own (none: []). */
export async function imageEntrypointOf(docker: Docker, image: string): Promise<string[]> {
  const { Config } = await docker.getImage(image).inspect();
  const labelled = Config.Labels?.[LABEL_IMAGE_ENTRYPOINT];
  if (labelled !== undefined) return JSON.parse(labelled) as string[];
  const own = Config.Entrypoint ?? [];
  // The engine keeps a shell-form ENTRYPOINT as ['/bin/sh', '-c', …]; a bare string is one word.
  return typeof own === 'string' ? [own] : own;
}

/** A phase's command past the image's entrypoint: the container's ENTRYPOINT, command and labels. */
export function launchPastEntrypoint(
  entrypoint: readonly string[],
  cmd: string[],
): { entrypoint: string[]; cmd: string[]; labels: Record<string, string> } {
  if (entrypoint.length === 0) return { entrypoint: [], cmd, labels: {} };
  return {
    entrypoint: ['/bin/sh', '-c', LAUNCHER, 'assay-entrypoint', String(entrypoint.length), ...entrypoint],
    cmd,
    labels: { [LABEL_IMAGE_ENTRYPOINT]: JSON.stringify(entrypoint) },
  };
}
