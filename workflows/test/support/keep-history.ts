// Replay fixtures are cut from the release before a workflow change: run a replay test with
// ASSAY_RECORD_HISTORY=<commit> on that commit and today's histories are kept as
// fixtures/<name>-<commit>.json, which the changed workflows must then replay.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');

export function keepHistory(name: string, json: string): void {
  const commit = process.env.ASSAY_RECORD_HISTORY;
  if (commit) writeFileSync(path.join(FIXTURES, `${name}-${commit}.json`), json);
}
