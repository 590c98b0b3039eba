// Cross-file rules that a schema alone cannot express: ids unique, references
// resolvable, dependencies acyclic, paths inside the benchmark, files present.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Check, ProjectCriteria, ProjectSpec, Rubric, TaskSpec } from '@assay/core';
import { reportDuplicates, type Issue } from './issue.js';
import { messages } from './messages.js';
import { resolveInside } from './paths.js';

interface TaskContext {
  root: string;
  dir: string;
  spec: TaskSpec;
  rubric: Rubric;
  specLabel: string;
  rubricLabel: string;
  labelOf: (p: string) => string;
}

export function checkTask(ctx: TaskContext, issues: Issue[]): void {
  const { spec, rubric, rubricLabel } = ctx;
  reportDuplicates(
    spec.outputs.map((o) => o.path),
    'output',
    ctx.specLabel,
    'outputs',
    issues,
  );
  reportDuplicates(
    rubric.items.map((i) => i.id),
    'rubric item',
    rubricLabel,
    'items',
    issues,
  );
  const declared = new Set(spec.outputs.map((o) => o.path));
  rubric.items.forEach((item, i) => {
    if (item.check) checkFilesDeclared(item.check, declared, rubricLabel, `items[${i}].check`, issues);
  });
  checkReferenceFiles(
    ctx.root,
    path.join(ctx.dir, 'evaluator', 'reference'),
    rubric.reference,
    rubricLabel,
    ctx.labelOf,
    issues,
  );
}

interface ProjectContext {
  root: string;
  dir: string;
  spec: ProjectSpec;
  criteria: ProjectCriteria;
  specLabel: string;
  criteriaLabel: string;
  labelOf: (p: string) => string;
}

export function checkProject(ctx: ProjectContext, issues: Issue[]): void {
  const { spec, criteria, specLabel, criteriaLabel } = ctx;
  reportDuplicates(
    spec.stages.map((s) => s.id),
    'stage',
    specLabel,
    'stages',
    issues,
  );
  const subtasks = spec.stages.flatMap((s, si) =>
    s.subtasks.map((t, ti) => ({ t, field: `stages[${si}].subtasks[${ti}]` })),
  );
  reportDuplicates(
    subtasks.map((s) => s.t.id),
    'subtask',
    specLabel,
    'subtasks',
    issues,
  );

  const releasesDir = path.join(ctx.dir, 'releases');
  const releaseIds: string[] = [];
  const targets = new Map<string, string>();
  spec.stages.forEach((stage, si) => {
    stage.releases.forEach((release, ri) => {
      const field = `stages[${si}].releases[${ri}]`;
      releaseIds.push(release.id);
      const abs = resolveInside(ctx.root, releasesDir, release.path);
      if (abs === null)
        issues.push({ file: specLabel, field: `${field}.path`, reason: messages.escapes(release.path) });
      else if (!existsSync(abs))
        issues.push({
          file: specLabel,
          field: `${field}.path`,
          reason: messages.missingFile(path.relative(ctx.dir, abs)),
        });
      const to = release.to ?? path.basename(release.path);
      if (targets.has(to))
        issues.push({ file: specLabel, field: `${field}.to`, reason: messages.duplicateRelease(to) });
      targets.set(to, field);
    });
  });
  reportDuplicates(releaseIds, 'release', specLabel, 'releases', issues);

  const declared = new Set([
    ...subtasks.flatMap((s) => s.t.deliverables.map((d) => d.path)),
    ...spec.finalPackage.map((d) => d.path),
  ]);
  const subtaskIds = new Set(subtasks.map((s) => s.t.id));
  for (const [subtaskId, list] of Object.entries(criteria.checkpoints)) {
    const base = `checkpoints.${subtaskId}`;
    if (!subtaskIds.has(subtaskId))
      issues.push({ file: criteriaLabel, field: base, reason: messages.unknownSubtask(subtaskId) });
    checkCriteriaList(list, criteriaLabel, base, declared, issues);
  }
  for (const { t } of subtasks) {
    if (!criteria.checkpoints[t.id])
      issues.push({ file: criteriaLabel, field: 'checkpoints', reason: messages.subtaskWithoutCriteria(t.id) });
  }
  checkCriteriaList(criteria.final, criteriaLabel, 'final', declared, issues);
  criteria.final.forEach((c, i) => {
    if (!c.reuses) return;
    const [sub, crit] = c.reuses.split('/');
    const exists = sub !== undefined && criteria.checkpoints[sub]?.some((x) => x.id === crit);
    if (!exists)
      issues.push({ file: criteriaLabel, field: `final[${i}].reuses`, reason: messages.unknownReuse(c.reuses) });
  });
  checkReferenceFiles(
    ctx.root,
    path.join(ctx.dir, 'evaluator', 'reference'),
    criteria.reference,
    criteriaLabel,
    ctx.labelOf,
    issues,
  );
}

interface CriterionLike {
  id: string;
  weight: number;
  dependsOn: string[];
  check?: Check | undefined;
}

function checkCriteriaList(
  list: readonly CriterionLike[],
  file: string,
  base: string,
  declared: Set<string>,
  issues: Issue[],
): void {
  reportDuplicates(
    list.map((c) => c.id),
    'criterion',
    file,
    base,
    issues,
  );
  const ids = new Set(list.map((c) => c.id));
  list.forEach((c, i) => {
    c.dependsOn.forEach((dep, di) => {
      if (!ids.has(dep))
        issues.push({ file, field: `${base}[${i}].dependsOn[${di}]`, reason: messages.unknownCriterion(dep) });
    });
    if (c.check) checkFilesDeclared(c.check, declared, file, `${base}[${i}].check`, issues);
  });
  if (!list.some((c) => c.weight > 0)) issues.push({ file, field: base, reason: messages.noPositiveWeight });
  const cycle = findCycle(list);
  if (cycle) issues.push({ file, field: base, reason: messages.dependencyCycle(cycle) });
}

/** Depth-first search for a dependency cycle; returns the ids along it. */
export function findCycle(list: readonly { id: string; dependsOn: readonly string[] }[]): string[] | null {
  const deps = new Map(list.map((c) => [c.id, c.dependsOn]));
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === 'done') return null;
    if (state.get(id) === 'open') return [...stack.slice(stack.indexOf(id)), id];
    state.set(id, 'open');
    stack.push(id);
    for (const dep of deps.get(id) ?? []) {
      if (!deps.has(dep)) continue;
      const found = visit(dep);
      if (found) return found;
    }
    stack.pop();
    state.set(id, 'done');
    return null;
  };
  for (const c of list) {
    const found = visit(c.id);
    if (found) return found;
  }
  return null;
}

function checkFilesDeclared(check: Check, declared: Set<string>, file: string, field: string, issues: Issue[]): void {
  const refs: [string, string][] = [];
  if (check.kind === 'deliverable-present') refs.push(['path', check.path]);
  else if (check.kind === 'files-agree') refs.push(['a.file', check.a.file], ['b.file', check.b.file]);
  else refs.push(['file', check.file]);
  for (const [sub, p] of refs) {
    if (!declared.has(p)) issues.push({ file, field: `${field}.${sub}`, reason: messages.undeclaredDeliverable(p) });
  }
}

function checkReferenceFiles(
  root: string,
  refDir: string,
  files: readonly string[],
  label: string,
  labelOf: (p: string) => string,
  issues: Issue[],
): void {
  files.forEach((rel, i) => {
    const abs = resolveInside(root, refDir, rel);
    if (abs === null) issues.push({ file: label, field: `reference[${i}]`, reason: messages.escapes(rel) });
    else if (!existsSync(abs))
      issues.push({ file: label, field: `reference[${i}]`, reason: messages.missingFile(labelOf(abs)) });
  });
}
