// `benchmark: harbor:PATH`: a folder of Harbor task folders (or one task folder) loaded into the benchmark shape
// the rest of assay uses. Nothing is rewritten: the files are read where they are, and the runner uses them
// from there (instruction.md as the instruction, environment/ as the build context, tests/ copied after the agent).
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { HARBOR_DOMAIN } from '@assay/core';
import { refusalOf } from '../benchmark-files.js';
import { decodeUtf8 } from '../decode-text.js';
import type { Issue } from '../issue.js';
import type { LoadedTask, LoadResult } from '../load-benchmark.js';
import { messages } from '../messages.js';
import { harborMessages as m } from './harbor-messages.js';
import type { HarborTask } from './harbor-task.js';
import { readTaskConfig } from './read-task-config.js';

export const HARBOR_PREFIX = 'harbor:';

const ID = /^[a-z0-9][a-z0-9._-]*$/;

interface Ctx {
  labelOf: (p: string) => string;
  issues: Issue[];
  warnings: Issue[];
}

/** The task folders of a dataset: PATH itself when it holds task.toml, else its sub-folders that do. */
function taskFolders(root: string, ctx: Ctx): string[] {
  if (existsSync(path.join(root, 'task.toml'))) return [root];
  const dirs: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const dir = path.join(root, entry.name);
    if (existsSync(path.join(dir, 'task.toml'))) dirs.push(dir);
    else ctx.warnings.push({ file: ctx.labelOf(dir), field: '', reason: m.notATaskFolder });
  }
  return dirs;
}

export function inspectHarborBenchmark(dir: string, cwd = process.cwd()): LoadResult {
  const root = path.resolve(dir);
  const ctx: Ctx = { labelOf: (abs) => path.relative(cwd, abs) || '.', issues: [], warnings: [] };
  if (!existsSync(root)) return fail(ctx, root, messages.fileMissing);
  if (!statSync(root).isDirectory()) return fail(ctx, root, messages.notAFolder);
  const folders = taskFolders(root, ctx);
  if (folders.length === 0) return fail(ctx, root, m.noTasks);
  const id = path.basename(root).toLowerCase();
  if (!ID.test(id)) ctx.issues.push({ file: ctx.labelOf(root), field: '', reason: m.notADataset(id) });
  const tasks = folders.flatMap((f) => loadHarborTask(f, ctx) ?? []);
  const listed = { id, tasks: folders.map((f) => path.basename(f)), projects: [] };
  const material = { tasks: new Map(tasks.map((t) => [t.spec.id, 0])), projects: new Map<string, number>() };
  const index = {
    schema: 'assay.benchmark/v1' as const,
    id,
    title: id,
    version: 'local',
    tasks: listed.tasks,
    projects: [],
  };
  const benchmark =
    ctx.issues.length === 0
      ? { root: `${HARBOR_PREFIX}${root}`, index, tasks, projects: [], kind: 'harbor' as const }
      : null;
  return { benchmark, issues: ctx.issues, warnings: ctx.warnings, listed, material };
}

function fail(ctx: Ctx, root: string, reason: string): LoadResult {
  return { benchmark: null, issues: [{ file: ctx.labelOf(root), field: '', reason }], warnings: ctx.warnings };
}

/** A regular UTF-8 file's text, or an issue naming it (links, devices and the like are refused). */
function readText(file: string, ctx: Ctx): string | null {
  const reason = refusalOf(file, lstatSync(file));
  if (reason !== null) {
    ctx.issues.push({ file: ctx.labelOf(file), field: '', reason });
    return null;
  }
  const decoded = decodeUtf8(readFileSync(file));
  if ('problem' in decoded) {
    ctx.issues.push({ file: ctx.labelOf(file), field: '', reason: decoded.problem });
    return null;
  }
  return decoded.text;
}

function loadHarborTask(dir: string, ctx: Ctx): LoadedTask | null {
  const before = ctx.issues.length;
  const label = ctx.labelOf(dir);
  const id = path.basename(dir);
  if (!ID.test(id)) ctx.issues.push({ file: label, field: '', reason: m.badFolderName(id) });
  const configFile = path.join(dir, 'task.toml');
  const text = readText(configFile, ctx);
  const read = text === null ? null : readTaskConfig(text, ctx.labelOf(configFile));
  ctx.issues.push(...(read?.issues ?? []));
  ctx.warnings.push(...(read?.warnings ?? []));
  const instructionFile = path.join(dir, 'instruction.md');
  const instruction = existsSync(instructionFile) ? readText(instructionFile, ctx) : null;
  if (!existsSync(instructionFile)) ctx.issues.push({ file: label, field: '', reason: m.instructionMissing });
  else if (instruction !== null && instruction.trim() === '')
    ctx.issues.push({ file: ctx.labelOf(instructionFile), field: '', reason: m.instructionEmpty });
  const environmentDir = path.join(dir, 'environment');
  const dockerfile = path.join(environmentDir, 'Dockerfile');
  const hasDockerfile = existsSync(dockerfile);
  for (const compose of ['docker-compose.yaml', 'docker-compose.yml'])
    if (existsSync(path.join(environmentDir, compose)))
      ctx.issues.push({
        file: ctx.labelOf(path.join(environmentDir, compose)),
        field: '',
        reason: m.composeNotSupported,
      });
  if (read?.config && !hasDockerfile && read.config.environment.dockerImage === null)
    ctx.issues.push({ file: ctx.labelOf(configFile), field: 'environment.docker_image', reason: m.environmentMissing });
  if (!existsSync(path.join(dir, 'tests', 'test.sh')))
    ctx.issues.push({ file: label, field: '', reason: m.testsMissing });
  const config = read?.config;
  if (ctx.issues.length > before || !config || instruction === null) return null;
  const harbor: HarborTask = {
    dir,
    configFile,
    instructionFile,
    environmentDir,
    dockerfile: hasDockerfile ? dockerfile : null,
    solutionDir: path.join(dir, 'solution'),
    testsDir: path.join(dir, 'tests'),
    config,
  };
  const title = config.name ?? id;
  const spec = {
    schema: 'assay.task/v1' as const,
    id,
    title,
    domain: HARBOR_DOMAIN,
    request: instruction,
    outputs: [],
    formatRequired: false,
  };
  return {
    dir,
    spec,
    // No inputs/ folder: a Harbor task's files are in its image.
    agent: { id, title, request: instruction, outputs: [], inputsDir: path.join(dir, '.assay-no-inputs') },
    evaluator: {
      rubric: { schema: 'assay.rubric/v1', items: [], reference: [] },
      referenceDir: path.join(dir, '.assay-no-reference'),
      flawsDir: path.join(dir, '.assay-no-flaws'),
    },
    harbor,
  };
}
