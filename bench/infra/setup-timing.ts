// Times each step of setupAll on this machine. Run twice: the first run does the work,
// the second shows the cost of the idempotency checks.  npx tsx bench/infra/setup-timing.ts
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setupAll } from '../../packages/infra/src/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const started = Date.now();
const steps = await setupAll({
  root,
  log: (l) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${l}`),
  withDocumentTools: process.env.ASSAY_NO_DOCUMENT_TOOLS !== '1',
  withChromium: process.env.ASSAY_CHROMIUM === '1',
});
console.log('\n| step | status | seconds |\n| --- | --- | --- |');
for (const s of steps) console.log(`| ${s.step} | ${s.status} | ${s.seconds} |`);
console.log(`| total | | ${Math.round((Date.now() - started) / 100) / 10} |`);
