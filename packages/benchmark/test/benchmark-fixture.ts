// A small valid benchmark written from plain objects, so each test can break one thing.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';

export interface FixtureParts {
  index: Record<string, unknown>;
  task: Record<string, unknown>;
  rubric: Record<string, unknown>;
  project: Record<string, unknown>;
  criteria: Record<string, unknown>;
}

export function validParts(): FixtureParts {
  return {
    index: { schema: 'assay.benchmark/v1', id: 'mini', title: 'Mini', version: '1', tasks: ['t1'], projects: ['p1'] },
    task: {
      schema: 'assay.task/v1',
      id: 't1',
      title: 'Memo',
      domain: 'legal',
      request: 'Write the memo.',
      outputs: [{ path: 'memo.md', format: 'md' }],
    },
    rubric: {
      schema: 'assay.rubric/v1',
      reference: ['memo.md'],
      items: [
        {
          id: 'r1',
          text: 'The memo exists',
          importance: 'core',
          dimension: 'structure-completeness',
          check: { kind: 'deliverable-present', path: 'memo.md', format: 'md' },
        },
        { id: 'r2', text: 'Cites the statute', importance: 'important', dimension: 'domain-compliance' },
      ],
    },
    project: {
      schema: 'assay.project/v1',
      id: 'p1',
      title: 'Launch',
      role: 'Analyst',
      objective: 'Ship a plan',
      stages: [
        {
          id: 's1',
          title: 'Draft',
          releases: [{ id: 'brief', kind: 'material', path: 'brief.md' }],
          subtasks: [
            { id: 'a', title: 'Draft', instructions: 'Draft it', deliverables: [{ path: 'plan.md', format: 'md' }] },
          ],
        },
        {
          id: 's2',
          title: 'Revise',
          releases: [{ id: 'fb', kind: 'feedback', path: 'feedback.md' }],
          subtasks: [
            { id: 'b', title: 'Revise', instructions: 'Revise it', deliverables: [{ path: 'plan.md', format: 'md' }] },
          ],
        },
      ],
      finalPackage: [{ path: 'plan.md', format: 'md' }],
    },
    criteria: {
      schema: 'assay.criteria/v1',
      checkpoints: {
        a: [{ id: 'c1', text: 'Has a plan', weight: 5, dimension: 'completeness' }],
        b: [
          { id: 'c1', text: 'Applies feedback', weight: 8, dimension: 'correctness' },
          { id: 'c2', text: 'Keeps the old figure', weight: -4, dimension: 'consistency', dependsOn: ['c1'] },
        ],
      },
      final: [
        {
          id: 'f1',
          text: 'Plan is right',
          weight: 6,
          dimension: 'correctness',
          target: 'artifact-quality',
          reuses: 'b/c1',
        },
        {
          id: 'f2',
          text: 'No secrets leaked',
          weight: 0,
          fatal: true,
          dimension: 'professionalism',
          target: 'package-acceptance',
        },
      ],
    },
  };
}

export function writeBenchmark(parts: FixtureParts, dir = mkdtempSync(path.join(os.tmpdir(), 'assay-bench-'))): string {
  const put = (rel: string, content: string): void => {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  };
  put('benchmark.yaml', stringify(parts.index));
  put('tasks/t1/task.yaml', stringify(parts.task));
  put('tasks/t1/inputs/facts.md', '# Facts\n');
  put('tasks/t1/evaluator/rubric.yaml', stringify(parts.rubric));
  put('tasks/t1/evaluator/reference/memo.md', '# Memo\n');
  put('projects/p1/project.yaml', stringify(parts.project));
  put('projects/p1/releases/brief.md', '# Brief\n');
  put('projects/p1/releases/feedback.md', '# Feedback\n');
  put('projects/p1/evaluator/criteria.yaml', stringify(parts.criteria));
  return dir;
}
