// Cross-file rules of a project that a schema alone cannot express: ids unique, releases inside the
// project and present, checkpoints keyed by real subtasks, dependencies that resolve within their own
// list (with a specific reason when they point at another list), acyclic, reuses that resolve.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { checkReferenceFiles } from './check-reference-files.js';
import { declaredOutputs } from './declared-outputs.js';
import { findCycle } from './find-cycle.js';
import { list, num, rec, records, str, strings, type Path, type Raw } from './loose.js';
import { messages } from './messages.js';
import { isInside, resolveInside } from './paths.js';
import { reportDuplicates } from './report-duplicates.js';
import { validateCheck, type Declared } from './validate-check.js';
import type { YamlFile } from './yaml-file.js';

export interface ProjectFiles {
  root: string;
  dir: string;
  spec: YamlFile | null;
  criteria: YamlFile | null;
  labelOf: (p: string) => string;
  /** Entries under releases/ already refused as links or special files (reported there, once). */
  refused: readonly string[];
}

/** What the criteria file is checked against, read from project.yaml. */
interface Timeline {
  stageIds: Set<string>;
  subtaskIds: string[];
  declared: Declared;
}

const idEntries = (entries: { item: Raw; index: number }[], at: (index: number) => Path) =>
  entries.flatMap(({ item, index }) => {
    const id = str(item.id);
    return id === undefined ? [] : [{ id, at: at(index) }];
  });

export function checkProject(ctx: ProjectFiles): void {
  const timeline = ctx.spec ? checkTimeline(ctx, ctx.spec) : null;
  if (ctx.criteria) checkCriteria(ctx, ctx.criteria, timeline);
}

function checkTimeline(ctx: ProjectFiles, spec: YamlFile): Timeline {
  const raw = spec.raw as Raw;
  const id = str(raw.id);
  const folder = path.basename(ctx.dir);
  if (id !== undefined && id !== folder) spec.report(['id'], messages.idMismatch(id, folder));
  const stages = records(raw.stages);
  reportDuplicates(
    spec,
    idEntries(stages, (i) => ['stages', i]),
    'stage id',
  );
  const subtasks = stages.flatMap(({ item, index }) =>
    records(item.subtasks).map((t) => ({ ...t, at: ['stages', index, 'subtasks', t.index] as Path })),
  );
  reportDuplicates(
    spec,
    subtasks.flatMap(({ item, at }) => (str(item.id) === undefined ? [] : [{ id: str(item.id)!, at }])),
    'subtask id',
  );
  checkReleases(ctx, spec, stages);
  return {
    stageIds: new Set(stages.flatMap(({ item }) => str(item.id) ?? [])),
    subtaskIds: subtasks.flatMap(({ item }) => str(item.id) ?? []),
    declared: declaredOutputs([...subtasks.map(({ item }) => records(item.deliverables)), records(raw.finalPackage)]),
  };
}

function checkReleases(ctx: ProjectFiles, spec: YamlFile, stages: { item: Raw; index: number }[]): void {
  const releasesDir = path.join(ctx.dir, 'releases');
  const releases = stages.flatMap(({ item, index }) =>
    records(item.releases).map((r) => ({ ...r, at: ['stages', index, 'releases', r.index] as Path })),
  );
  const targets = new Map<string, Path>();
  for (const { item, at } of releases) {
    const rel = str(item.path);
    if (rel === undefined) continue;
    const problem = releaseProblem(ctx, releasesDir, rel);
    if (problem !== null) spec.report([...at, 'path'], problem);
    const to = str(item.to) ?? path.basename(rel);
    const other = targets.get(to);
    if (other) spec.report([...at, 'to'], messages.duplicateRelease(to, spec.fieldName(other)));
    else targets.set(to, at);
  }
  reportDuplicates(
    spec,
    releases.flatMap(({ item, at }) => (str(item.id) === undefined ? [] : [{ id: str(item.id)!, at }])),
    'release id',
  );
}

/** Why a release cannot be copied into the workspace, or null (also under an entry refused where it is). */
function releaseProblem(ctx: ProjectFiles, releasesDir: string, rel: string): string | null {
  const wanted = path.resolve(releasesDir, rel);
  if (ctx.refused.some((r) => isInside(r, wanted))) return null;
  const abs = resolveInside(ctx.root, releasesDir, rel);
  if (abs === null) return messages.escapes(rel);
  if (!existsSync(abs)) return messages.missingFile(path.relative(ctx.dir, abs));
  return statSync(abs).isDirectory() ? messages.releaseIsFolder : null;
}

/** Where each criterion id lives, for saying why a dependency does not resolve. */
interface CriterionIndex {
  checkpoint: Map<string, string[]>;
  final: Set<string>;
  /** `subtask/criterion` -> the final criterion that reuses it. */
  reusedBy: Map<string, string>;
}

function indexCriteria(raw: Raw): CriterionIndex {
  const checkpoint = new Map<string, string[]>();
  for (const [sub, entries] of Object.entries(rec(raw.checkpoints) ?? {}))
    for (const { item } of records(entries)) {
      const id = str(item.id);
      if (id !== undefined) checkpoint.set(id, [...(checkpoint.get(id) ?? []), sub]);
    }
  const finals = records(raw.final);
  const reusedBy = new Map<string, string>();
  for (const { item } of finals) {
    const reuses = str(item.reuses);
    const id = str(item.id);
    if (reuses !== undefined && id !== undefined && !reusedBy.has(reuses)) reusedBy.set(reuses, id);
  }
  return { checkpoint, final: new Set(finals.flatMap(({ item }) => str(item.id) ?? [])), reusedBy };
}

function checkCriteria(ctx: ProjectFiles, file: YamlFile, timeline: Timeline | null): void {
  const raw = file.raw as Raw;
  const index = indexCriteria(raw);
  const checkpoints = rec(raw.checkpoints) ?? {};
  for (const [sub, entries] of Object.entries(checkpoints)) {
    if (timeline && !timeline.subtaskIds.includes(sub))
      file.report(['checkpoints', sub], messages.unknownSubtask(sub, timeline.stageIds.has(sub)));
    checkCriteriaList(file, ['checkpoints', sub], records(entries), { subtask: sub, index }, timeline);
  }
  for (const sub of new Set(timeline?.subtaskIds ?? []))
    if (rec(raw.checkpoints) && !(sub in checkpoints))
      file.report(['checkpoints'], messages.subtaskWithoutCriteria(sub));
  const finals = records(raw.final);
  checkCriteriaList(file, ['final'], finals, { subtask: null, index }, timeline);
  for (const { item, index: i } of finals) {
    const reuses = str(item.reuses);
    if (reuses !== undefined) checkReuse(file, ['final', i, 'reuses'], reuses, raw);
  }
  checkReferenceFiles(file, ctx.root, path.join(ctx.dir, 'evaluator', 'reference'), ctx.labelOf);
}

function checkReuse(file: YamlFile, at: Path, reuses: string, raw: Raw): void {
  const [sub, crit] = reuses.split('/');
  if (sub === undefined || crit === undefined) return; // the schema reports the shape
  const source = rec(raw.checkpoints)?.[sub];
  const ids = records(source).flatMap(({ item }) => str(item.id) ?? []);
  if (ids.includes(crit)) return;
  const detail = source === undefined ? messages.reuseNoSubtask(sub) : messages.reuseNoCriterion(sub, ids);
  file.report(at, `${messages.unknownReuse(reuses)}: ${detail}`);
}

interface Scope {
  /** The subtask whose checkpoint list this is; null for the final list. */
  subtask: string | null;
  index: CriterionIndex;
}

function checkCriteriaList(
  file: YamlFile,
  base: Path,
  entries: { item: Raw; index: number }[],
  scope: Scope,
  timeline: Timeline | null,
): void {
  reportDuplicates(
    file,
    idEntries(entries, (i) => [...base, i]),
    'criterion id',
  );
  const local = entries.flatMap(({ item }) => str(item.id) ?? []);
  for (const { item, index } of entries) {
    for (const dep of strings(item.dependsOn)) {
      if (local.includes(dep.value)) continue;
      const at = [...base, index, 'dependsOn'];
      file.report([...at, dep.index], dependencyReason(dep.value, scope, local), { name: at });
    }
    if (item.check !== undefined)
      validateCheck(file, [...base, index, 'check'], item.check, timeline?.declared ?? null);
  }
  if (entries.length > 0 && !entries.some(({ item }) => (num(item.weight) ?? 0) > 0))
    file.report(base, messages.noPositiveWeight);
  const cycle = findCycle(
    entries.flatMap(({ item }) => {
      const id = str(item.id);
      return id === undefined ? [] : [{ id, dependsOn: list(item.dependsOn).filter((d) => typeof d === 'string') }];
    }),
  );
  if (cycle) file.report(base, messages.dependencyCycle(cycle));
}

/** Why `dep` does not resolve in this list: it belongs to another list, or to none. */
function dependencyReason(dep: string, scope: Scope, local: string[]): string {
  const owners = scope.index.checkpoint.get(dep)?.filter((s) => s !== scope.subtask) ?? [];
  if (scope.subtask === null) {
    if (owners.length > 0) {
      const ref = owners.map((o) => `${o}/${dep}`).find((r) => scope.index.reusedBy.has(r));
      const reuse = ref === undefined ? undefined : { ref, by: scope.index.reusedBy.get(ref)! };
      return messages.finalDepOnCheckpoint(dep, owners, reuse);
    }
  } else {
    if (owners.length > 0) return messages.checkpointDepOutside(dep, owners, scope.subtask);
    if (scope.index.final.has(dep)) return messages.checkpointDepOnFinal(dep, scope.subtask);
  }
  return messages.unknownCriterion(dep, local);
}
