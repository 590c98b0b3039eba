// A bench's work folder (results with their work volume images, a Temporal database, generated tasks) is
// ~0.1 GB per Harbor bench round and ~12 GB per StartupBench-scale run. Left in the temporary folder they
// filled this machine's disk on 2026-12-04, and the loop-mounted volumes of the run then going turned
// read-only. So a bench removes its own at the end unless asked to keep it (`--keep`).
import { rmSync } from 'node:fs';
import { mountPointsUnder } from '../activities/src/workspace-volume.js';

/** Remove `work`, unless `keep` or something is still mounted under it (then say so and leave it). */
export function removeWork(work: string, keep: boolean): void {
  if (keep) {
    console.log(`work folder kept: ${work}`);
    return;
  }
  const mounted = mountPointsUnder(work);
  if (mounted.length > 0) {
    console.log(`work folder not removed: ${mounted.length} volume(s) still mounted under ${work}, e.g. ${mounted[0]}`);
    return;
  }
  rmSync(work, { recursive: true, force: true });
  console.log(`work folder removed: ${work} (--keep keeps it)`);
}
