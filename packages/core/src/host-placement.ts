// Where a unit's workspace and container live (issue #10): every worker has a host id and also
// listens on that host's own task queue, so a trial's later activities reach the machine that
// holds its workspace. A unit whose host is gone moves, and its record says so.
import { z } from 'zod';

/** A plain name: letters, digits, dot, dash, underscore; it is part of a task queue name. */
const HOST_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/** Why a host id cannot be used, or null when it can. */
export function hostIdProblem(id: string): string | null {
  return HOST_ID.test(id)
    ? null
    : `"${id}" is not a plain name (1-63 letters, digits, ".", "-" or "_", starting with a letter or digit)`;
}

/** A host name as a valid id: what the machine calls itself, with anything else replaced. */
export function hostIdFromName(name: string): string {
  const id = name
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 63);
  return id.length > 0 ? id : 'host';
}

/** One move: the unit's host was gone, so it started again (or continued) on another one. */
export const hostMoveSchema = z.object({
  from: z.string(),
  /** The host that took the unit next; null while none has yet. */
  to: z.string().nullable(),
  reason: z.string(),
  at: z.string(),
});
export type HostMove = z.infer<typeof hostMoveSchema>;
