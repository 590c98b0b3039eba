// A host's own task queue and the limits on moving between hosts (issue #10), apart from the
// host-placement schemas so workflow code gets them without zod (@assay/core/pure).

/** Seconds a host-bound activity may wait for its host's worker before the unit moves (job default). */
export const DEFAULT_HOST_WAIT_SECONDS = 600;
/** Moves a unit may make before it fails for good (a job whose hosts keep vanishing should stop). */
export const MAX_HOST_MOVES = 3;

export function hostQueue(hostId: string): string {
  return `assay-host:${hostId}`;
}
