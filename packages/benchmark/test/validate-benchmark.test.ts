import { readFileSync, rmSync, symlinkSync, writeFileSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatIssue, inspectBenchmark, inspectJob, nameField } from '../src/index.js';
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
  // Positions are asserted on their own below; here each problem reads as file:field: reason.
  return issues.map(({ line: _line, column: _column, ...rest }) => formatIssue(rest));
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
      'benchmark.yaml:tasks[1]: duplicate task id "t1" (first at tasks[0])',
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
      'tasks/t1/task.yaml:outputs[../memo.md].path: must be a relative path that stays inside its folder',
    ],
    [
      'absolute output path',
      (p) => {
        at(p.task, 'outputs', 0).path = '/etc/passwd';
      },
      'tasks/t1/task.yaml:outputs[/etc/passwd].path: must be a relative path',
    ],
    [
      'unknown format',
      (p) => {
        at(p.task, 'outputs', 0).format = 'doc';
      },
      'tasks/t1/task.yaml:outputs[memo.md].format: Invalid option: expected one of "docx"|"xlsx"',
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
      'tasks/t1/evaluator/rubric.yaml:items[1]: duplicate rubric item id "r1" (first at items[0])',
    ],
    [
      'bad importance',
      (p) => {
        at(p.rubric, 'items', 0).importance = 'critical';
      },
      'tasks/t1/evaluator/rubric.yaml:items[r1].importance: Invalid option: expected one of "core"|"important"|"auxiliary"',
    ],
    [
      'bad dimension',
      (p) => {
        at(p.rubric, 'items', 0).dimension = 'vibes';
      },
      'tasks/t1/evaluator/rubric.yaml:items[r1].dimension: Invalid option',
    ],
    [
      'check on undeclared deliverable',
      (p) => {
        at(p.rubric, 'items', 0).check.path = 'other.md';
      },
      'tasks/t1/evaluator/rubric.yaml:items[r1].check.path: check refers to "other.md", which is not a declared output',
    ],
    [
      'unknown check kind',
      (p) => {
        at(p.rubric, 'items', 0).check = { kind: 'vibe-check', path: 'memo.md' };
      },
      "tasks/t1/evaluator/rubric.yaml:items[r1].check.kind: Invalid discriminator value. Expected 'deliverable-present' | 'cell-value'",
    ],
    [
      'bad cell reference',
      (p) => {
        at(p.rubric, 'items', 0).check = { kind: 'cell-value', file: 'memo.md', cell: 'B3', equals: 1 };
      },
      'tasks/t1/evaluator/rubric.yaml:items[r1].check.cell: must look like Sheet1!B3',
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
      'projects/p1/project.yaml:stages[s2].subtasks[a]: duplicate subtask id "a" (first at stages[s1].subtasks[a])',
    ],
    [
      'missing release file',
      (p) => {
        at(p.project, 'stages', 0, 'releases', 0).path = 'nothere.md';
      },
      'projects/p1/project.yaml:stages[s1].releases[brief].path: refers to "releases/nothere.md", which does not exist',
    ],
    [
      'release escapes',
      (p) => {
        at(p.project, 'stages', 0, 'releases', 0).path = '../../../tasks/t1/evaluator/rubric.yaml';
      },
      'projects/p1/project.yaml:stages[s1].releases[brief].path: must be a relative path',
    ],
    [
      'weight out of range',
      (p) => {
        at(p.criteria, 'checkpoints', 'a', 0).weight = 11;
      },
      'projects/p1/evaluator/criteria.yaml:checkpoints.a[c1].weight: Too big: expected number to be <=10',
    ],
    [
      'zero weight without gate',
      (p) => {
        at(p.criteria, 'checkpoints', 'a', 0).weight = 0;
      },
      'projects/p1/evaluator/criteria.yaml:checkpoints.a[c1].weight: must be a signed integer with |weight| in 1..10',
    ],
    [
      'fractional weight',
      (p) => {
        at(p.criteria, 'checkpoints', 'a', 0).weight = 2.5;
      },
      'projects/p1/evaluator/criteria.yaml:checkpoints.a[c1].weight: Invalid input: expected int',
    ],
    [
      'fatal gate with weight',
      (p) => {
        at(p.criteria, 'final', 1).weight = 3;
      },
      'projects/p1/evaluator/criteria.yaml:final[f2].weight: a fatal gate must have weight 0',
    ],
    [
      'dangling dependency',
      (p) => {
        at(p.criteria, 'checkpoints', 'b', 1).dependsOn = ['c9'];
      },
      'projects/p1/evaluator/criteria.yaml:checkpoints.b[c2].dependsOn: depends on unknown criterion "c9" (known here: "c1", "c2")',
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
      'projects/p1/evaluator/criteria.yaml:final[f1].reuses: reuses "b/c7", which is not a checkpoint criterion of this project: subtask b has the criteria "c1", "c2"',
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
      'projects/p1/evaluator/criteria.yaml:final[f1].target: Invalid option',
    ],
    [
      'duplicate release target',
      (p) => {
        at(p.project, 'stages', 1, 'releases', 0).to = 'brief.md';
      },
      'projects/p1/project.yaml:stages[s2].releases[fb].to: two releases write the same workspace path "brief.md" (the other is stages[s1].releases[brief])',
    ],
    [
      'dependency on a criterion of another checkpoint',
      (p) => {
        at(p.criteria, 'checkpoints', 'a', 0).dependsOn = ['c2'];
      },
      'projects/p1/evaluator/criteria.yaml:checkpoints.a[c1].dependsOn: "c2" is a checkpoint criterion of subtask b; a checkpoint criterion can depend only on criteria of its own subtask (a)',
    ],
    [
      'checkpoint criterion depending on a final criterion',
      (p) => {
        at(p.criteria, 'checkpoints', 'a', 0).dependsOn = ['f1'];
      },
      'projects/p1/evaluator/criteria.yaml:checkpoints.a[c1].dependsOn: "f1" is a final criterion; a checkpoint criterion can depend only on criteria of its own subtask (a)',
    ],
    [
      'final criterion depending on a checkpoint criterion',
      (p) => {
        at(p.criteria, 'final', 1).dependsOn = ['c2'];
      },
      'projects/p1/evaluator/criteria.yaml:final[f2].dependsOn: "c2" is a checkpoint criterion of subtask b; a final criterion can depend only on final criteria (to re-apply it to the final files, add a final criterion with reuses: b/c2)',
    ],
    [
      'final criterion depending on a checkpoint criterion that a final criterion reuses',
      (p) => {
        at(p.criteria, 'final', 1).dependsOn = ['c1'];
      },
      'projects/p1/evaluator/criteria.yaml:final[f2].dependsOn: "c1" is a checkpoint criterion of subtasks a, b; a final criterion can depend only on final criteria (final criterion "f1" reuses b/c1: depend on "f1")',
    ],
    [
      'criteria keyed by a stage id',
      (p) => {
        at(p.criteria, 'checkpoints').s1 = [{ id: 'c1', text: 'x', weight: 1, dimension: 'correctness' }];
      },
      'projects/p1/evaluator/criteria.yaml:checkpoints.s1: has criteria for unknown subtask "s1" ("s1" is a stage; checkpoints are keyed by subtask id)',
    ],
    [
      'reuse of an unknown subtask',
      (p) => {
        at(p.criteria, 'final', 0).reuses = 'zz/c1';
      },
      'projects/p1/evaluator/criteria.yaml:final[f1].reuses: reuses "zz/c1", which is not a checkpoint criterion of this project: there is no subtask "zz" with checkpoint criteria',
    ],
    [
      'missing required field',
      (p) => {
        delete at(p.criteria, 'final', 0).text;
      },
      'projects/p1/evaluator/criteria.yaml:final[f1].text: is missing (expected string)',
    ],
    [
      'cell check on a document',
      (p) => {
        at(p.rubric, 'items', 0).check = { kind: 'cell-value', file: 'memo.md', cell: 'Sheet1!B3', equals: 1 };
      },
      'tasks/t1/evaluator/rubric.yaml:items[r1].check.file: "memo.md" is declared as md; cell and row checks read a spreadsheet (xlsx or csv)',
    ],
    [
      'formula check on a csv',
      (p) => {
        at(p.task, 'outputs').push({ path: 'data.csv', format: 'csv' });
        at(p.rubric, 'items', 0).check = { kind: 'formula-cached', file: 'data.csv', range: 'data!B2:B4' };
      },
      'tasks/t1/evaluator/rubric.yaml:items[r1].check.file: "data.csv" is declared as csv; formula and sheet checks read an xlsx workbook',
    ],
    [
      'slide check on a document',
      (p) => {
        at(p.rubric, 'items', 0).check = { kind: 'section-present', file: 'memo.md', slide: 2 };
      },
      'tasks/t1/evaluator/rubric.yaml:items[r1].check.file: "memo.md" is declared as md; slide checks read a pptx deck',
    ],
    [
      'text check on an image',
      (p) => {
        at(p.task, 'outputs').push({ path: 'chart.png', format: 'png' });
        at(p.rubric, 'items', 0).check = { kind: 'text-contains', file: 'chart.png', text: 'Revenue' };
      },
      'tasks/t1/evaluator/rubric.yaml:items[r1].check.file: "chart.png" is declared as png; text checks read extracted text',
    ],
    [
      'files-agree cell side on a document',
      (p) => {
        at(p.rubric, 'items', 0).check = {
          kind: 'files-agree',
          a: { file: 'memo.md', cell: 'Sheet1!B3' },
          b: { file: 'memo.md', pattern: 'Total: (\\d+)' },
        };
      },
      'tasks/t1/evaluator/rubric.yaml:items[r1].check.a.file: "memo.md" is declared as md; cell and row checks read a spreadsheet',
    ],
    [
      'check without a condition',
      (p) => {
        at(p.task, 'outputs').push({ path: 'book.xlsx', format: 'xlsx' });
        at(p.rubric, 'items', 0).check = { kind: 'cell-value', file: 'book.xlsx', cell: 'Sheet1!B3' };
      },
      'tasks/t1/evaluator/rubric.yaml:items[r1].check: a cell-value check must state what to test: at least one of equals, min, max, matches',
    ],
    [
      'min above max',
      (p) => {
        at(p.task, 'outputs').push({ path: 'book.xlsx', format: 'xlsx' });
        at(p.rubric, 'items', 0).check = { kind: 'row-count', file: 'book.xlsx', sheet: 'Data', min: 5, max: 3 };
      },
      'tasks/t1/evaluator/rubric.yaml:items[r1].check.min: min 5 is above max 3, so nothing can satisfy the check',
    ],
    [
      'pattern that does not compile',
      (p) => {
        at(p.rubric, 'items', 0).check = { kind: 'text-matches', file: 'memo.md', pattern: '(unclosed' };
      },
      'tasks/t1/evaluator/rubric.yaml:items[r1].check.pattern: pattern /(unclosed/ is not a valid regular expression: ',
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

  it('reports a symlink in the inputs (see benchmark-links.test.ts for the other kinds)', () => {
    const problems = problemsOf(
      () => undefined,
      (dir) => symlinkSync('/etc/passwd', path.join(dir, 'tasks/t1/inputs/passwd')),
    );
    expect(problems).toEqual([
      'tasks/t1/inputs:passwd: is a symbolic link to /etc/passwd; benchmark files must be regular files (copy what it points to in instead)',
    ]);
  });

  it('reports a release that is a symlink out of the benchmark', () => {
    const problems = problemsOf(
      () => undefined,
      (dir) => {
        unlinkSync(path.join(dir, 'projects/p1/releases/brief.md'));
        symlinkSync('/etc/hostname', path.join(dir, 'projects/p1/releases/brief.md'));
      },
    );
    expect(problems).toEqual([
      'projects/p1/releases:brief.md: is a symbolic link to /etc/hostname; benchmark files must be regular files (copy what it points to in instead)',
    ]);
  });

  it('reports schema and reference problems of the same files in one pass', () => {
    const problems = problemsOf((p) => {
      p.task.domain = 'astrology'; // schema
      p.task.id = 't2'; // reference: folder name
      at(p.rubric, 'items', 0).importance = 'critical'; // schema
      at(p.rubric, 'items', 0).check.path = 'other.md'; // reference: undeclared output
      at(p.criteria, 'checkpoints', 'a', 0).weight = 11; // schema
      at(p.criteria, 'checkpoints', 'b', 1).dependsOn = ['c9']; // reference
      at(p.criteria, 'final', 0).reuses = 'b/c7'; // reference
      at(p.project, 'stages', 0, 'releases', 0).path = 'nothere.md'; // reference
      p.project.title = ''; // schema
    });
    const fields = problems.map((line) => line.slice(0, line.indexOf(': ')));
    expect(fields).toEqual([
      'tasks/t1/task.yaml:domain',
      'tasks/t1/evaluator/rubric.yaml:items[r1].importance',
      'tasks/t1/task.yaml:id',
      'tasks/t1/evaluator/rubric.yaml:items[r1].check.path',
      'projects/p1/project.yaml:title',
      'projects/p1/evaluator/criteria.yaml:checkpoints.a[c1].weight',
      'projects/p1/project.yaml:stages[s1].releases[brief].path',
      'projects/p1/evaluator/criteria.yaml:checkpoints.b[c2].dependsOn',
      'projects/p1/evaluator/criteria.yaml:final[f1].reuses',
    ]);
  });

  it('reports a field the schema rejects once, not again as a broken reference', () => {
    const problems = problemsOf((p) => {
      at(p.project, 'stages', 0, 'releases', 0).path = '../../../tasks/t1/evaluator/rubric.yaml';
    });
    expect(problems.filter((l) => l.includes('releases[brief].path'))).toEqual([
      'projects/p1/project.yaml:stages[s1].releases[brief].path: must be a relative path that stays inside its folder (no leading / and no ..)',
    ]);
  });

  it('locates each problem by line and column', () => {
    const parts = validParts() as Parts;
    at(parts.criteria, 'checkpoints', 'b', 1).dependsOn = ['c1', 'c9'];
    const dir = writeBenchmark(parts);
    const text = readFileSync(path.join(dir, 'projects/p1/evaluator/criteria.yaml'), 'utf8').split('\n');
    const { issues } = inspectBenchmark(dir, dir);
    rmSync(dir, { recursive: true, force: true });
    const line = text.findIndex((l) => l.trim() === '- c9') + 1;
    const column = (text[line - 1] ?? '').indexOf('c9') + 1; // 1-based, at the id itself
    expect(line).toBeGreaterThan(0);
    expect(issues).toEqual([
      {
        file: 'projects/p1/evaluator/criteria.yaml',
        field: 'checkpoints.b[c2].dependsOn',
        reason: 'depends on unknown criterion "c9" (known here: "c1", "c2")',
        line,
        column,
      },
    ]);
    expect(formatIssue(issues[0]!)).toBe(
      `projects/p1/evaluator/criteria.yaml:checkpoints.b[c2].dependsOn: depends on unknown criterion "c9" (known here: "c1", "c2") (line ${line}, column ${column})`,
    );
  });

  it('accepts patterns with a leading (?i) and checks that read formats they can read', () => {
    const parts = validParts() as Parts;
    at(parts.task, 'outputs').push({ path: 'book.xlsx', format: 'xlsx' });
    at(parts.rubric, 'items', 1).check = {
      kind: 'files-agree',
      a: { file: 'book.xlsx', cell: 'Totals!B3' },
      b: { file: 'memo.md', pattern: '(?i)total: ([\\d,.]+)' },
    };
    const dir = writeBenchmark(parts);
    const { issues } = inspectBenchmark(dir, dir);
    rmSync(dir, { recursive: true, force: true });
    expect(issues).toEqual([]);
  });

  it('checks a job in one pass: its own schema, its benchmark and its filters', () => {
    const parts = validParts() as Parts;
    at(parts.criteria, 'final', 0).dependsOn = ['c9'];
    const dir = writeBenchmark(parts);
    writeFileSync(
      path.join(dir, 'job.yaml'),
      [
        'schema: assay.job/v1',
        'id: Bad Id',
        'benchmark: .',
        'trials: 0',
        'systems: [{ id: a, harness: oracle }]',
        'tasks: [t1, nope]',
      ].join('\n'),
    );
    const { job, issues } = inspectJob(path.join(dir, 'job.yaml'), { repoRoot: dir, cwd: dir });
    rmSync(dir, { recursive: true, force: true });
    expect(job).toBeNull();
    expect(issues.map(({ line: _l, column: _c, ...rest }) => formatIssue(rest))).toEqual([
      'job.yaml:id: must be lowercase letters, digits, ".", "_" or "-"',
      'job.yaml:trials: Too small: expected number to be >=1',
      'projects/p1/evaluator/criteria.yaml:final[f1].dependsOn: depends on unknown criterion "c9" (known here: "f1", "f2")',
      'job.yaml:tasks[1]: unknown task "nope" (not in mini)',
    ]);
  });

  it('shows the position of nested fields; a top-level key is found by its name', () => {
    const issue = { file: 'job.yaml', reason: 'Too small', line: 4, column: 1 };
    expect(formatIssue({ ...issue, field: 'trials' })).toBe('job.yaml:trials: Too small');
    expect(formatIssue({ ...issue, field: 'systems[a].harness', column: 5 })).toBe(
      'job.yaml:systems[a].harness: Too small (line 4, column 5)',
    );
  });

  it('names list elements by id where the id is unique in its list, else by position', () => {
    expect(nameField(['items', 1, 'check'], { items: [{ id: 'r1' }, { id: 'r2' }] })).toBe('items[r2].check');
    expect(nameField(['items', 1], { items: [{ id: 'r1' }, { id: 'r1' }] })).toBe('items[1]');
    expect(nameField(['outputs', 0, 'format'], { outputs: [{ path: 'memo.md' }] })).toBe('outputs[memo.md].format');
    expect(nameField(['tasks', 0], { tasks: ['t1'] })).toBe('tasks[0]');
  });

  it('has at least 20 distinct broken-file cases', () => {
    expect(cases.length + 4).toBeGreaterThanOrEqual(20);
  });
});
