// A unit's content version from its files: equal for equal content (whatever the field order), and a diff
// that names the part or the item field that changed, through core's job lock.
import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import {
  acceptUnits,
  changedSinceRecorded,
  changedUnits,
  describeUnitChange,
  diffUnitVersions,
  type UnitVersion,
} from '@assay/core';
import { digestProject, digestTask, loadBenchmark } from '../src/index.js';
import { validParts, writeBenchmark, type FixtureParts } from './benchmark-fixture.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function versions(parts: FixtureParts, edit?: (dir: string) => void): { task: UnitVersion; project: UnitVersion } {
  const dir = writeBenchmark(parts);
  dirs.push(dir);
  edit?.(dir);
  const b = loadBenchmark(dir);
  return { task: digestTask(b.tasks[0]!), project: digestProject(b.projects[0]!) };
}

describe('unit versions', () => {
  it('are equal for the same content in another folder and another field order', () => {
    const a = versions(validParts());
    const reordered = validParts();
    reordered.rubric = Object.fromEntries(Object.entries(reordered.rubric).reverse());
    const b = versions(reordered);
    expect(b.task).toEqual(a.task);
    expect(b.project).toEqual(a.project);
    expect(Object.keys(a.task.parts)).toEqual(['request', 'inputs', 'rubric', 'references']);
    expect(a.task.items.r1).toMatchObject({ importance: 'core', dimension: 'structure-completeness' });
  });

  it('name the part and the item field that changed', () => {
    const before = versions(validParts()).task;
    const edited = validParts();
    const items = edited.rubric.items as Record<string, unknown>[];
    items[0] = { ...items[0], check: { kind: 'deliverable-present', path: 'memo.md', format: 'docx' } };
    items[1] = { ...items[1], importance: 'auxiliary' };
    expect(diffUnitVersions(before, versions(edited).task)).toEqual([
      'rubric item r1: check changed',
      'item r2: importance important → auxiliary',
    ]);
    const inputs = versions(validParts(), (dir) => appendFileSync(path.join(dir, 'tasks/t1/inputs/facts.md'), 'more'));
    expect(diffUnitVersions(before, inputs.task)).toEqual(['inputs changed']);
    const reference = versions(validParts(), (dir) =>
      writeFileSync(path.join(dir, 'tasks/t1/evaluator/reference/memo.md'), '# Another memo\n'),
    );
    expect(diffUnitVersions(before, reference.task)).toEqual(['references changed']);
    const request = validParts();
    request.task = { ...request.task, request: 'Write the memo, in French.' };
    expect(diffUnitVersions(before, versions(request).task)).toEqual(['request changed']);
  });

  it("name a project's criteria by subtask, and items added or removed", () => {
    const before = versions(validParts()).project;
    const edited = validParts();
    const checkpoints = edited.criteria.checkpoints as Record<string, Record<string, unknown>[]>;
    checkpoints.b = [{ ...checkpoints.b![0], weight: 9 }];
    const after = versions(edited).project;
    expect(diffUnitVersions(before, after, 'criterion')).toEqual(['criterion b/c1: weight 8 → 9', 'item b/c2 removed']);
  });
});

describe('the job lock', () => {
  it('refuses nothing new, names a changed unit, and keeps the version it replaces', () => {
    const v1 = versions(validParts());
    const lock = acceptUnits(null, { jobId: 'j', specDigest: 'x', units: { 'tasks/t1': v1.task } }, 'then');
    const edited = validParts();
    (edited.rubric.items as Record<string, unknown>[])[1]!.importance = 'core';
    const v2 = versions(edited);
    // A unit new to the job extends it; the edited one is a change.
    const current = { 'tasks/t1': v2.task, 'projects/p1': v2.project };
    const changes = changedUnits(lock, current);
    expect(changes.map(describeUnitChange)).toEqual(['tasks/t1: rubric item r2: importance important → core']);
    const accepted = acceptUnits(lock, { jobId: 'j', specDigest: 'y', units: current }, 'now');
    expect(changedUnits(accepted, current)).toEqual([]);
    expect(accepted.superseded).toEqual([{ ...v1.task, acceptedAt: 'then', unit: 'tasks/t1', supersededAt: 'now' }]);
    expect(accepted.units['tasks/t1']?.digest).toBe(v2.task.digest);
    expect(accepted.createdAt).toBe('then');
    // Written as YAML and read back, the lock is plain data.
    expect(JSON.parse(JSON.stringify(accepted))).toEqual(accepted);
    expect(stringify(accepted)).toContain(v2.task.digest);

    // Records of v1 judged against v2: named item by item while the lock knows v1, part by part once it does not.
    const pins = [{ unit: 'tasks/t1', digest: v1.task.digest, parts: v1.task.parts }];
    const item = ['tasks/t1: rubric item r2: importance important → core'];
    expect(changedSinceRecorded([...pins, ...pins], accepted, current).map(describeUnitChange)).toEqual(item);
    expect(changedSinceRecorded(pins, null, current).map(describeUnitChange)).toEqual(['tasks/t1: rubric changed']);
    expect(changedSinceRecorded(pins, accepted, { 'tasks/t1': v1.task })).toEqual([]);
  });
});
