// Which host a worker's activities run on (issue #10): the id the workflows route a unit's later
// activities by, and the worker's own scratch root for work folders.
import type { HostMove } from '@assay/core';

export interface HostIdentity {
  id: string;
  /** Work folders go here (by job) instead of the results folder: each host has its own disk. */
  workRoot?: string;
}

/** Activities built without a host (tests, `assay judge`): one machine, work folders in the results folder. */
export const LOCAL_HOST: HostIdentity = { id: 'local' };

/**
 * Which workspace a prepare makes: one per workflow run and move, so a trial that runs again
 * (`pause --now`, a move back to a host it left) never reuses what an earlier attempt left.
 */
export interface Placement {
  key: string;
}

/** Where a unit ran, for its record. */
export interface HostRecord {
  host: string;
  moves: HostMove[];
}
