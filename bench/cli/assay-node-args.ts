// The Node flags a checkout's `pnpm assay` runs the CLI with (package.json's `assay` script), so a
// bench that spawns `node scripts/assay.mjs` directly measures what a user's command gets.
import { readFileSync } from 'node:fs';
import path from 'node:path';

export function assayNodeArgs(root: string): string[] {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts?: { assay?: string } };
  const words = (pkg.scripts?.assay ?? '').split(/\s+/);
  return words.slice(words.indexOf('node') + 1, words.indexOf('scripts/assay.mjs')).filter((w) => w.startsWith('--'));
}
