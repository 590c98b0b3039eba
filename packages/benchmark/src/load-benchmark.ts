// Load a benchmark folder into typed tasks and projects, collecting every problem — schema and
// references together, in one pass — as file:field: reason. Agent-visible and evaluator-only parts are returned in
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
import { checkProject } from './check-project.js';
import { checkTask } from './check-task.js';
import { InvalidInputError, type Issue } from './issue.js';
import { str, strings, type Raw } from './loose.js';
import { messages } from './messages.js';
import { walkContained } from './paths.js';
import { reportDuplicates } from './report-duplicates.js';
import { readYamlFile } from './yaml-file.js';

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
  /** The index as written (id, task and project ids), when benchmark.yaml could be read: for checking job filters. */
  listed?: { id: string; tasks: string[]; projects: string[] };
}

/** Ids as the schema allows them: also what keeps a folder name inside tasks/ or projects/. */
const FOLDER_ID = /^[a-z0-9][a-z0-9._-]*$/;

/** Load and validate in one pass: schema and reference problems together. Never throws for bad input. */
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
  const file = readYamlFile(indexFile, labelOf(indexFile), issues);
  if (!file) return { benchmark: null, issues };
  const index = file.validate(benchmarkIndexSchema);
  const raw = file.raw as Raw;
  const taskIds = strings(raw.tasks);
  const projectIds = strings(raw.projects);
  if (taskIds.length === 0 && projectIds.length === 0) file.report(['tasks'], messages.emptyBenchmark);
  reportDuplicates(
    file,
    taskIds.map((t) => ({ id: t.value, at: ['tasks', t.index] })),
    'task id',
  );
  reportDuplicates(
    file,
    projectIds.map((t) => ({ id: t.value, at: ['projects', t.index] })),
    'project id',
  );
  const unique = (ids: { value: string }[]) => [...new Set(ids.map((t) => t.value))].filter((id) => FOLDER_ID.test(id));
  const tasks = unique(taskIds).flatMap((id) => loadTask(root, path.join(root, 'tasks', id), labelOf, issues) ?? []);
  const projects = unique(projectIds).flatMap(
    (id) => loadProject(root, path.join(root, 'projects', id), labelOf, issues) ?? [],
  );
  const listed = {
    id: str(raw.id) ?? path.basename(root),
    tasks: taskIds.map((t) => t.value),
    projects: projectIds.map((t) => t.value),
  };
  const benchmark = issues.length === 0 && index ? { root, index, tasks, projects } : null;
  return { benchmark, issues, listed };
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
  const specYaml = readYamlFile(specFile, labelOf(specFile), issues);
  const rubricYaml = readYamlFile(rubricFile, labelOf(rubricFile), issues);
  const spec = specYaml?.validate(taskSpecSchema) ?? null;
  const rubric = rubricYaml?.validate(rubricSchema) ?? null;
  const inputsDir = path.join(dir, 'inputs');
  walkContained(root, inputsDir, labelOf(inputsDir), issues);
  checkTask({ root, dir, spec: specYaml, rubric: rubricYaml, labelOf });
  if (!spec || !rubric) return null;
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
  const specYaml = readYamlFile(specFile, labelOf(specFile), issues);
  const criteriaYaml = readYamlFile(criteriaFile, labelOf(criteriaFile), issues);
  const spec = specYaml?.validate(projectSpecSchema) ?? null;
  const criteria = criteriaYaml?.validate(projectCriteriaSchema) ?? null;
  checkProject({ root, dir, spec: specYaml, criteria: criteriaYaml, labelOf });
  if (!spec || !criteria) return null;
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
