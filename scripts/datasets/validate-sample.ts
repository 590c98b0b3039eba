// Validate datasets/sample against the core zod schemas (through the benchmark loader, which also
// checks references, declared deliverables and dependency cycles), then the sample's own coverage
// promises: six domains, every format, every dimension and importance level, 8-14 items per task.
//   npx tsx scripts/datasets/validate-sample.ts [benchmark-dir]
import path from 'node:path';
import { DIMENSIONS, DOMAINS, IMPORTANCES, TARGETS } from '../../packages/core/src/index.js';
import { assayTasks, inspectBenchmark } from '../../packages/benchmark/src/index.js';

const dir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../../datasets/sample'));
const { benchmark, issues } = inspectBenchmark(dir);
const problems: string[] = issues.map((i) => `${i.file}:${i.field}: ${i.reason}`);

if (benchmark) {
  const domains = new Set(benchmark.tasks.map((t) => t.spec.domain));
  for (const d of DOMAINS) if (!domains.has(d)) problems.push(`no task in domain ${d}`);
  const formats = new Set(benchmark.tasks.flatMap((t) => t.spec.outputs.map((o) => o.format)));
  for (const f of ['docx', 'xlsx', 'pptx', 'pdf', 'md'] as const) if (!formats.has(f)) problems.push(`no task requires ${f}`);
  for (const t of assayTasks(benchmark)) {
    const items = t.evaluator.rubric.items;
    const label = `task ${t.spec.id}`;
    if (items.length < 8 || items.length > 14) problems.push(`${label}: ${items.length} rubric items (want 8-14)`);
    for (const d of DIMENSIONS) if (!items.some((i) => i.dimension === d)) problems.push(`${label}: no item in dimension ${d}`);
    for (const l of IMPORTANCES) if (!items.some((i) => i.importance === l)) problems.push(`${label}: no ${l} item`);
    for (const o of t.spec.outputs) {
      const present = items.some((i) => i.check?.kind === 'deliverable-present' && i.check.path === o.path && i.check.format === o.format);
      if (!present) problems.push(`${label}: no deliverable-present check for ${o.path}`);
    }
    console.log(`${t.spec.id} [${t.spec.domain}] ${t.spec.outputs.map((o) => o.path).join(', ')}: ${items.length} items, ${items.filter((i) => i.check).length} checks`);
  }
  for (const p of benchmark.projects) {
    const subtasks = p.spec.stages.flatMap((s) => s.subtasks);
    const { checkpoints, final } = p.evaluator.criteria;
    const all = [...Object.values(checkpoints).flat(), ...final];
    if (p.spec.stages.length < 3) problems.push(`project ${p.spec.id}: fewer than 3 stages`);
    if (subtasks.length < 5) problems.push(`project ${p.spec.id}: fewer than 5 subtasks`);
    if (!all.some((c) => c.weight < 0)) problems.push(`project ${p.spec.id}: no negative criterion`);
    if (!all.some((c) => c.fatal)) problems.push(`project ${p.spec.id}: no fatal gate`);
    if (!all.some((c) => c.dependsOn.length > 0)) problems.push(`project ${p.spec.id}: no dependsOn`);
    for (const t of TARGETS) if (!final.some((c) => c.target === t)) problems.push(`project ${p.spec.id}: no final criterion for ${t}`);
    console.log(`${p.spec.id}: ${p.spec.stages.length} stages, ${subtasks.length} subtasks, ${all.length} criteria (${all.filter((c) => c.check).length} with checks)`);
  }
}

if (problems.length > 0) {
  for (const p of problems) console.error(`invalid: ${p}`);
  process.exit(1);
}
console.log(`${path.relative(process.cwd(), dir) || dir}: valid`);
