import { rmSync, symlinkSync, writeFileSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatIssue, inspectBenchmark } from '../src/index.js';
import { validParts, writeBenchmark, type FixtureParts } from './benchmark-fixture.js';

type Parts = FixtureParts & Record<string, Record<string, unknown>>;
// Loosely typed access for breaking things on purpose.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests break fixtures on purpose
const at = (o: unknown, ...keys: (string | number)[]): any => keys.reduce((x: any, k) => x[k], o);

function problemsOf(mutate: (p: Parts) => void, afterWrite?: (dir: string) => void): string[] {
  const parts = validParts() as Parts;
  mutate(parts);
  const dir = writeBenchmark(parts);
  afterWrite?.(dir);
  const { benchmark, issues } = inspectBenchmark(dir, dir);
  rmSync(dir, { recursive: true, force: true });
  expect(benchmark).toBeNull();
  return issues.map(formatIssue);
}

describe('validate', () => {
  it('accepts the valid fixture', () => {
    const dir = writeBenchmark(validParts());
    const { benchmark, issues } = inspectBenchmark(dir, dir);
    expect(issues).toEqual([]);
    expect(benchmark?.tasks[0]?.agent).toEqual({
      id: 't1',
      title: 'Memo',
      request: 'Write the memo.',
      outputs: [{ path: 'memo.md', format: 'md', required: true }],
      inputsDir: path.join(dir, 'tasks/t1/inputs'),
    });
    // The agent view carries nothing evaluator-only.
    expect(JSON.stringify(benchmark?.tasks[0]?.agent)).not.toMatch(/evaluator|rubric|reference/);
  });

  const cases: [string, (p: Parts) => void, string, ((dir: string) => void)?][] = [
    [
      'wrong schema tag',
      (p) => {
        p.index.schema = 'assay.benchmark/v0';
      },
      'benchmark.yaml:schema: Invalid input: expected "assay.benchmark/v1"',
    ],
    [
      'duplicate task id in index',
      (p) => {
        p.index.tasks = ['t1', 't1'];
      },
      'benchmark.yaml:tasks[1]: duplicate task id "t1"',
    ],
    [
      'unknown domain',
      (p) => {
        p.task.domain = 'astrology';
      },
      'tasks/t1/task.yaml:domain: Invalid option',
    ],
    [
      'task id mismatch',
      (p) => {
        p.task.id = 't2';
      },
      'tasks/t1/task.yaml:id: id "t2" does not match its folder name "t1"',
    ],
    [
      'output path escapes',
      (p) => {
        at(p.task, 'outputs', 0).path = '../memo.md';
      },
      'tasks/t1/task.yaml:outputs[0].path: must be a relative path that stays inside its folder',
    ],
    [
      'absolute output path',
      (p) => {
        at(p.task, 'outputs', 0).path = '/etc/passwd';
      },
      'tasks/t1/task.yaml:outputs[0].path: must be a relative path',
    ],
    [
      'unknown format',
      (p) => {
        at(p.task, 'outputs', 0).format = 'doc';
      },
      'tasks/t1/task.yaml:outputs[0].format: Invalid option',
    ],
    [
      'unknown field',
      (p) => {
        p.task.prompt = 'x';
      },
      'tasks/t1/task.yaml:prompt: is not a known field',
    ],
    [
      'duplicate rubric item',
      (p) => {
        at(p.rubric, 'items', 1).id = 'r1';
      },
      'tasks/t1/evaluator/rubric.yaml:items[1]: duplicate rubric item id "r1"',
    ],
    [
      'bad importance',
      (p) => {
        at(p.rubric, 'items', 0).importance = 'critical';
      },
      'tasks/t1/evaluator/rubric.yaml:items[0].importance: Invalid option',
    ],
    [
      'bad dimension',
      (p) => {
        at(p.rubric, 'items', 0).dimension = 'vibes';
      },
      'tasks/t1/evaluator/rubric.yaml:items[0].dimension: Invalid option',
    ],
    [
      'check on undeclared deliverable',
      (p) => {
        at(p.rubric, 'items', 0).check.path = 'other.md';
      },
      'tasks/t1/evaluator/rubric.yaml:items[0].check.path: check refers to "other.md", which is not a declared output',
    ],
    [
      'unknown check kind',
      (p) => {
        at(p.rubric, 'items', 0).check = { kind: 'vibe-check', path: 'memo.md' };
      },
      'tasks/t1/evaluator/rubric.yaml:items[0].check.kind: Invalid discriminator value',
    ],
    [
      'bad cell reference',
      (p) => {
        at(p.rubric, 'items', 0).check = { kind: 'cell-value', file: 'memo.md', cell: 'B3', equals: 1 };
      },
      'tasks/t1/evaluator/rubric.yaml:items[0].check.cell: must look like Sheet1!B3',
    ],
    [
      'missing reference file',
      (p) => {
        p.rubric.reference = ['gone.md'];
      },
      'tasks/t1/evaluator/rubric.yaml:reference[0]: refers to "tasks/t1/evaluator/reference/gone.md", which does not exist',
    ],
    [
      'reference escapes',
      (p) => {
        p.rubric.reference = ['../../task.yaml'];
      },
      'tasks/t1/evaluator/rubric.yaml:reference[0]: must be a relative path that stays inside its folder',
    ],
    [
      'empty rubric',
      (p) => {
        p.rubric.items = [];
      },
      'tasks/t1/evaluator/rubric.yaml:items: Too small',
    ],
    [
      'duplicate subtask id',
      (p) => {
        at(p.project, 'stages', 1, 'subtasks', 0).id = 'a';
      },
      'projects/p1/project.yaml:subtasks[1]: duplicate subtask id "a"',
    ],
    [
      'missing release file',
      (p) => {
        at(p.project, 'stages', 0, 'releases', 0).path = 'nothere.md';
      },
      'projects/p1/project.yaml:stages[0].releases[0].path: refers to "releases/nothere.md", which does not exist',
    ],
    [
      'release escapes',
      (p) => {
        at(p.project, 'stages', 0, 'releases', 0).path = '../../../tasks/t1/evaluator/rubric.yaml';
      },
      'projects/p1/project.yaml:stages[0].releases[0].path: must be a relative path',
    ],
    [
      'weight out of range',
      (p) => {
        at(p.criteria, 'checkpoints', 'a', 0).weight = 11;
      },
      'projects/p1/evaluator/criteria.yaml:checkpoints.a[0].weight: Too big',
    ],
    [
      'zero weight without gate',
      (p) => {
        at(p.criteria, 'checkpoints', 'a', 0).weight = 0;
      },
      'projects/p1/evaluator/criteria.yaml:checkpoints.a[0].weight: must be a signed integer with |weight| in 1..10',
    ],
    [
      'fractional weight',
      (p) => {
        at(p.criteria, 'checkpoints', 'a', 0).weight = 2.5;
      },
      'projects/p1/evaluator/criteria.yaml:checkpoints.a[0].weight: Invalid input: expected int',
    ],
    [
      'fatal gate with weight',
      (p) => {
        at(p.criteria, 'final', 1).weight = 3;
      },
      'projects/p1/evaluator/criteria.yaml:final[1].weight: a fatal gate must have weight 0',
    ],
    [
      'dangling dependency',
      (p) => {
        at(p.criteria, 'checkpoints', 'b', 1).dependsOn = ['c9'];
      },
      'projects/p1/evaluator/criteria.yaml:checkpoints.b[1].dependsOn[0]: depends on unknown criterion "c9"',
    ],
    [
      'dependency cycle',
      (p) => {
        at(p.criteria, 'checkpoints', 'b', 0).dependsOn = ['c2'];
      },
      'projects/p1/evaluator/criteria.yaml:checkpoints.b: criteria depend on each other in a cycle: c1 -> c2 -> c1',
    ],
    [
      'dangling reuse',
      (p) => {
        at(p.criteria, 'final', 0).reuses = 'b/c7';
      },
      'projects/p1/evaluator/criteria.yaml:final[0].reuses: reuses "b/c7", which is not a checkpoint criterion of this project',
    ],
    [
      'criteria for unknown subtask',
      (p) => {
        at(p.criteria, 'checkpoints').zz = [{ id: 'c1', text: 'x', weight: 1, dimension: 'correctness' }];
      },
      'projects/p1/evaluator/criteria.yaml:checkpoints.zz: has criteria for unknown subtask "zz"',
    ],
    [
      'subtask without criteria',
      (p) => {
        delete at(p.criteria, 'checkpoints').a;
      },
      'projects/p1/evaluator/criteria.yaml:checkpoints: subtask "a" has no checkpoint criteria',
    ],
    [
      'no positive final weight',
      (p) => {
        at(p.criteria, 'final', 0).weight = -2;
      },
      'projects/p1/evaluator/criteria.yaml:final: has no criterion with a positive weight',
    ],
    [
      'unknown target',
      (p) => {
        at(p.criteria, 'final', 0).target = 'vibes';
      },
      'projects/p1/evaluator/criteria.yaml:final[0].target: Invalid option',
    ],
    [
      'duplicate release target',
      (p) => {
        at(p.project, 'stages', 1, 'releases', 0).to = 'brief.md';
      },
      'projects/p1/project.yaml:stages[1].releases[0].to: two releases write the same workspace path "brief.md"',
    ],
  ];

  it.each(cases)('reports %s', (_name, mutate, expected) => {
    const problems = problemsOf(mutate);
    expect(
      problems.some((p) => p.startsWith(expected)),
      `${expected}\n  not in\n${problems.join('\n')}`,
    ).toBe(true);
  });

  it('reports YAML syntax errors with a line', () => {
    const problems = problemsOf(
      () => undefined,
      (dir) => writeFileSync(path.join(dir, 'tasks/t1/task.yaml'), 'id: t1\n  bad: [indent\n'),
    );
    expect(problems[0]).toMatch(/^tasks\/t1\/task\.yaml:line \d+: is not valid YAML/);
  });

  it('reports a missing task folder', () => {
    const problems = problemsOf((p) => {
      p.index.tasks = ['t1', 'ghost'];
    });
    expect(problems).toContain('tasks/ghost/task.yaml:(file): file does not exist');
  });

  it('reports a symlink in the inputs that leaves the benchmark', () => {
    const problems = problemsOf(
      () => undefined,
      (dir) => symlinkSync('/etc/passwd', path.join(dir, 'tasks/t1/inputs/passwd')),
    );
    expect(problems).toContain(
      'tasks/t1/inputs:passwd: "passwd" is a symbolic link pointing outside the benchmark folder',
    );
  });

  it('reports a release that is a symlink out of the benchmark', () => {
    const problems = problemsOf(
      () => undefined,
      (dir) => {
        unlinkSync(path.join(dir, 'projects/p1/releases/brief.md'));
        symlinkSync('/etc/hostname', path.join(dir, 'projects/p1/releases/brief.md'));
      },
    );
    expect(problems).toContain(
      'projects/p1/project.yaml:stages[0].releases[0].path: path "brief.md" escapes the benchmark folder',
    );
  });

  it('has at least 20 distinct broken-file cases', () => {
    expect(cases.length + 4).toBeGreaterThanOrEqual(20);
  });
});
