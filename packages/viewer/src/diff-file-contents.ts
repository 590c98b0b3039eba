// What changed inside one file between two snapshots: both versions read by @assay/evidence and
// compared by anchor (a cell, paragraph, slide, line): added, removed and changed units.
import { textUnits, type SubmissionView } from '@assay/evidence';
import type { SnapshotFile } from '@assay/core';
import { submissionView } from './submission-views.js';
import type { ViewerSource } from './viewer-source.js';

/** Units listed at most per kind; the counts stay exact. */
const MAX_LISTED = 200;

export interface UnitChange {
  anchor: string;
  before: string | null;
  after: string | null;
}

export async function diffFileContents(
  source: ViewerSource,
  path: string,
  before: SnapshotFile | null,
  after: SnapshotFile | null,
) {
  const [a, b] = await Promise.all([unitsOf(source, path, before), unitsOf(source, path, after)]);
  const added: UnitChange[] = [];
  const removed: UnitChange[] = [];
  const changed: UnitChange[] = [];
  for (const [anchor, text] of b.units) {
    const old = a.units.get(anchor);
    if (old === undefined) added.push({ anchor, before: null, after: text });
    else if (old !== text) changed.push({ anchor, before: old, after: text });
  }
  for (const [anchor, text] of a.units) if (!b.units.has(anchor)) removed.push({ anchor, before: text, after: null });
  return {
    path,
    format: b.format ?? a.format,
    counts: { added: added.length, removed: removed.length, changed: changed.length },
    added: added.slice(0, MAX_LISTED),
    removed: removed.slice(0, MAX_LISTED),
    changed: changed.slice(0, MAX_LISTED),
    notes: [...a.notes, ...b.notes],
  };
}

async function unitsOf(source: ViewerSource, path: string, file: SnapshotFile | null) {
  if (!file) return { units: new Map<string, string>(), format: null, notes: [] as string[] };
  const view: SubmissionView = await submissionView(source, [{ path, sha256: file.sha256 }]);
  const f = view.files.find((x) => x.path === path);
  const units = new Map<string, string>();
  for (const u of f ? textUnits(f) : [])
    units.set(u.anchor, units.has(u.anchor) ? `${units.get(u.anchor)}\n${u.text}` : u.text);
  return { units, format: f?.format ?? null, notes: f?.notes ?? [] };
}
