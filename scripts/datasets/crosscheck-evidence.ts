// Compare packages/evidence's evaluateCheck with the dataset's own check semantics
// (scripts/datasets/assay_datasets/checks.py) on every scripted agent's output.
//   .assay/venv-datasets/bin/python scripts/datasets/verify.py --snapshots /tmp/xcheck
//   npx tsx scripts/datasets/crosscheck-evidence.ts /tmp/xcheck
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Check } from '../../packages/core/src/index.js';
import { buildSubmissionView, evaluateCheck } from '../../packages/evidence/src/index.js';

interface Snapshot {
  checks: { id: string; check: Check }[];
  outcome: Record<string, string>;
}

function findSnapshots(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'outputs') out.push(...findSnapshots(abs));
    else if (entry.name === 'checks.json') out.push(dir);
  }
  return out;
}

const root = path.resolve(process.argv[2] ?? '/tmp/xcheck');
let compared = 0;
const mismatches: string[] = [];
for (const dir of findSnapshots(root).sort()) {
  const snap = JSON.parse(readFileSync(path.join(dir, 'checks.json'), 'utf8')) as Snapshot;
  const view = await buildSubmissionView(path.join(dir, 'outputs'));
  for (const { id, check } of snap.checks) {
    const theirs = evaluateCheck(check, view);
    const ours = snap.outcome[id];
    compared++;
    if (theirs.status !== ours) mismatches.push(`${path.relative(root, dir)} ${id} (${check.kind}): ours ${ours}, evidence ${theirs.status}: ${theirs.reason}`);
  }
}
for (const m of mismatches) console.log(m);
console.log(`${compared} check outcomes compared, ${mismatches.length} differ`);
process.exit(mismatches.length > 0 ? 1 : 0);
