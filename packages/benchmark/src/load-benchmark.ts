// Load a benchmark folder into typed tasks and projects, collecting every problem
// as file:field: reason. Agent-visible and evaluator-only parts are returned in
// separate objects so workspace preparation can never reach rubrics or references.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  benchmarkIndexSchema,
  projectCriteriaSchema,
  projectSpecSchema,
  rubricSchema,
  taskSpecSchema,
  type BenchmarkIndex,
  type ProjectCriteria,
  type ProjectSpec,
  type Rubric,
  type TaskSpec,
} from '@assay/core';
import { InvalidInputError, reportDuplicates, type Issue } from './issue.js';
import { messages } from './messages.js';
import { walkContained } from './paths.js';
import { readYamlFile } from './read-yaml-file.js';
import { checkProject, checkTask } from './check-references.js';

/** What an agent may see of a task: the request, the required outputs and the inputs folder. */
export interface TaskAgentView {
  id: string;
  title: string;
  request: string;
  outputs: TaskSpec['outputs'];
  inputsDir: string;
}

export interface TaskEvaluatorView {
  rubric: Rubric;
  referenceDir: string;
  flawsDir: string;
}

export interface LoadedTask {
  dir: string;
  spec: TaskSpec;
  agent: TaskAgentView;
  evaluator: TaskEvaluatorView;
}

export interface LoadedProject {
  dir: string;
  spec: ProjectSpec;
  releasesDir: string;
  evaluator: { criteria: ProjectCriteria; referenceDir: string; flawsDir: string };
}

export interface LoadedBenchmark {
  root: string;
  index: BenchmarkIndex;
  tasks: LoadedTask[];
  projects: LoadedProject[];
}

export interface LoadResult {
  benchmark: LoadedBenchmark | null;
  issues: Issue[];
}

/** Load and validate; never throws for bad input, returns issues instead. */
export function inspectBenchmark(dir: string, cwd = process.cwd()): LoadResult {
  const root = path.resolve(dir);
  const issues: Issue[] = [];
  const labelOf = (abs: string): string => path.relative(cwd, abs) || '.';
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    issues.push({
      file: labelOf(root),
      field: '',
      reason: existsSync(root) ? messages.notAFolder : messages.fileMissing,
    });
    return { benchmark: null, issues };
  }
  const indexFile = path.join(root, 'benchmark.yaml');
  const index = readYamlFile(indexFile, labelOf(indexFile), benchmarkIndexSchema, issues);
  if (!index) return { benchmark: null, issues };
  if (index.tasks.length === 0 && index.projects.length === 0) {
    issues.push({ file: labelOf(indexFile), field: 'tasks', reason: messages.emptyBenchmark });
  }
  reportDuplicates(index.tasks, 'task', labelOf(indexFile), 'tasks', issues);
  reportDuplicates(index.projects, 'project', labelOf(indexFile), 'projects', issues);

  const tasks: LoadedTask[] = [];
  for (const id of new Set(index.tasks)) {
    const task = loadTask(root, path.join(root, 'tasks', id), labelOf, issues);
    if (task) tasks.push(task);
  }
  const projects: LoadedProject[] = [];
  for (const id of new Set(index.projects)) {
    const project = loadProject(root, path.join(root, 'projects', id), labelOf, issues);
    if (project) projects.push(project);
  }
  return { benchmark: issues.length === 0 ? { root, index, tasks, projects } : null, issues };
}

/** Load or throw an InvalidInputError listing every issue. */
export function loadBenchmark(dir: string, cwd = process.cwd()): LoadedBenchmark {
  const { benchmark, issues } = inspectBenchmark(dir, cwd);
  if (!benchmark) throw new InvalidInputError(issues);
  return benchmark;
}

function loadTask(root: string, dir: string, labelOf: (p: string) => string, issues: Issue[]): LoadedTask | null {
  const specFile = path.join(dir, 'task.yaml');
  const rubricFile = path.join(dir, 'evaluator', 'rubric.yaml');
  const spec = readYamlFile(specFile, labelOf(specFile), taskSpecSchema, issues);
  const rubric = readYamlFile(rubricFile, labelOf(rubricFile), rubricSchema, issues);
  if (!spec || !rubric) return null;
  if (spec.id !== path.basename(dir))
    issues.push({ file: labelOf(specFile), field: 'id', reason: messages.idMismatch(spec.id, path.basename(dir)) });
  const inputsDir = path.join(dir, 'inputs');
  walkContained(root, inputsDir, labelOf(inputsDir), issues);
  const before = issues.length;
  checkTask(
    { root, dir, spec, rubric, specLabel: labelOf(specFile), rubricLabel: labelOf(rubricFile), labelOf },
    issues,
  );
  if (issues.length > before) return null;
  return {
    dir,
    spec,
    agent: { id: spec.id, title: spec.title, request: spec.request, outputs: spec.outputs, inputsDir },
    evaluator: {
      rubric,
      referenceDir: path.join(dir, 'evaluator', 'reference'),
      flawsDir: path.join(dir, 'evaluator', 'flaws'),
    },
  };
}

function loadProject(root: string, dir: string, labelOf: (p: string) => string, issues: Issue[]): LoadedProject | null {
  const specFile = path.join(dir, 'project.yaml');
  const criteriaFile = path.join(dir, 'evaluator', 'criteria.yaml');
  const spec = readYamlFile(specFile, labelOf(specFile), projectSpecSchema, issues);
  const criteria = readYamlFile(criteriaFile, labelOf(criteriaFile), projectCriteriaSchema, issues);
  if (!spec || !criteria) return null;
  if (spec.id !== path.basename(dir))
    issues.push({ file: labelOf(specFile), field: 'id', reason: messages.idMismatch(spec.id, path.basename(dir)) });
  const before = issues.length;
  checkProject(
    { root, dir, spec, criteria, specLabel: labelOf(specFile), criteriaLabel: labelOf(criteriaFile), labelOf },
    issues,
  );
  if (issues.length > before) return null;
  return {
    dir,
    spec,
    releasesDir: path.join(dir, 'releases'),
    evaluator: {
      criteria,
      referenceDir: path.join(dir, 'evaluator', 'reference'),
      flawsDir: path.join(dir, 'evaluator', 'flaws'),
    },
  };
}
