import type { SnapshotFile } from './project-record.js';

export interface SnapshotDiff {
  added: string[];
  removed: string[];
  changed: string[];
}

/** What changed between two workspace snapshots (by content hash). */
export function diffSnapshots(before: readonly SnapshotFile[], after: readonly SnapshotFile[]): SnapshotDiff {
  const a = new Map(before.map((f) => [f.path, f.sha256]));
  const b = new Map(after.map((f) => [f.path, f.sha256]));
  return {
    added: [...b.keys()].filter((p) => !a.has(p)).sort(),
    removed: [...a.keys()].filter((p) => !b.has(p)).sort(),
    changed: [...b.keys()].filter((p) => a.has(p) && a.get(p) !== b.get(p)).sort(),
  };
}
