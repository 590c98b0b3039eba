// `benchmark: harbor:PATH`: a folder of Harbor task folders (or one task folder) loaded into the benchmark shape
// the rest of assay uses. A folder holding a dataset.toml (or PATH naming it) runs the tasks it pins, in its order,
// each found by its [task] name and refused unless its content has the pinned digest. Nothing is rewritten: the files are read where they are, and the runner uses them
// from there (instruction.md as the instruction, environment/ as the build context, tests/ copied after the agent).
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';
import { HARBOR_DOMAIN } from '@assay/core';
import { refusalOf } from '../benchmark-files.js';
import { decodeUtf8 } from '../decode-text.js';
import type { Issue } from '../issue.js';
import type { HarborLoadedTask, LoadResult } from '../load-benchmark.js';
import { messages } from '../messages.js';
import { harborMessages as m } from './harbor-messages.js';
import type { HarborStep, HarborStepConfig, HarborTask, HarborTaskConfig } from './harbor-task.js';
import { harborTaskDigest } from './harbor-task-digest.js';
import { readDatasetManifest, type DatasetManifest } from './read-dataset-manifest.js';
import { readTaskConfig } from './read-task-config.js';
import { evidenceIssues } from './read-artifacts.js';
import { readComposeFile } from './read-compose-file.js';
import type { HarborCompose } from './harbor-compose.js';
import { composeMessages as cm } from './compose-messages.js';

export const HARBOR_PREFIX = 'harbor:';
const MANIFEST = 'dataset.toml';

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
  const given = path.resolve(dir);
  const ctx: Ctx = { labelOf: (abs) => path.relative(cwd, abs) || '.', issues: [], warnings: [] };
  if (!existsSync(given)) return fail(ctx, given, messages.fileMissing);
  const root = path.basename(given) === MANIFEST && statSync(given).isFile() ? path.dirname(given) : given;
  if (!statSync(root).isDirectory()) return fail(ctx, root, messages.notAFolder);
  const pinned = existsSync(path.join(root, MANIFEST)) ? pinnedTaskFolders(root, ctx) : null;
  if (pinned === undefined) return { benchmark: null, issues: ctx.issues, warnings: ctx.warnings };
  const folders = pinned?.folders ?? taskFolders(root, ctx);
  if (folders.length === 0) return fail(ctx, root, m.noTasks);
  const id = (pinned ? pinned.manifest.name.split('/')[1]! : path.basename(root)).toLowerCase();
  if (!ID.test(id)) ctx.issues.push({ file: ctx.labelOf(root), field: '', reason: m.notADataset(id) });
  const tasks = folders.flatMap((f) => loadHarborTask(f, ctx) ?? []);
  const listed = { id, tasks: folders.map((f) => path.basename(f)), projects: [] };
  const material = { tasks: new Map(tasks.map((t) => [t.spec.id, 0])), projects: new Map<string, number>() };
  const index = {
    schema: 'assay.benchmark/v1' as const,
    id,
    title: pinned?.manifest.name ?? id,
    version: pinned?.manifest.version ?? 'local',
    tasks: listed.tasks,
    projects: [],
  };
  const benchmark =
    ctx.issues.length === 0
      ? { root: `${HARBOR_PREFIX}${root}`, index, tasks, projects: [], kind: 'harbor' as const }
      : null;
  return { benchmark, issues: ctx.issues, warnings: ctx.warnings, listed, material };
}

/**
 * The task folders dataset.toml pins, in its order: each found by its [task] name among the sub-folders and
 * checked against its digest. Undefined when the manifest itself cannot be read (its issues say why).
 */
function pinnedTaskFolders(root: string, ctx: Ctx): { manifest: DatasetManifest; folders: string[] } | undefined {
  const file = path.join(root, MANIFEST);
  const label = ctx.labelOf(file);
  if (existsSync(path.join(root, 'task.toml'))) ctx.issues.push({ file: label, field: '', reason: m.manifestAndTask });
  const text = readText(file, ctx);
  const read = text === null ? null : readDatasetManifest(text, label);
  ctx.issues.push(...(read?.issues ?? []));
  ctx.warnings.push(...(read?.warnings ?? []));
  const manifest = read?.manifest;
  if (!manifest || ctx.issues.length > 0) return undefined;
  const byName = taskFoldersByName(root);
  const folders = manifest.tasks.flatMap(({ name, digest }, i) => {
    const folder = byName.get(name);
    const at = (field: string, reason: string) =>
      ctx.issues.push({ file: label, field: `tasks[${i}].${field}`, reason });
    if (!folder) {
      at('name', m.taskNotHere(name));
      return [];
    }
    const actual = harborTaskDigest(folder);
    if ('unsupported' in actual) at('digest', m.digestUnsupported(name, actual.unsupported));
    else if (actual.digest !== digest)
      at('digest', m.digestMismatch(name, path.basename(folder), actual.digest, digest));
    return [folder];
  });
  for (const folder of byName.values())
    if (!folders.includes(folder)) ctx.warnings.push({ file: ctx.labelOf(folder), field: '', reason: m.notInManifest });
  return { manifest, folders };
}

/**
 * The sub-folders holding a task.toml, by its [task] name, as `harbor sync` finds them: in name order, a later
 * folder of the same name wins; unreadable ones are left out.
 */
function taskFoldersByName(root: string): Map<string, string> {
  const byName = new Map<string, string>();
  const entries = readdirSync(root, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    const config = path.join(root, entry.name, 'task.toml');
    if (!entry.isDirectory() || !existsSync(config)) continue;
    try {
      const task = (parse(readFileSync(config, 'utf8')) as { task?: { name?: unknown } }).task;
      if (typeof task?.name === 'string') byName.set(task.name, path.join(root, entry.name));
    } catch {
      // Not a readable task.toml: not a task this manifest can pin (its own load says why if it is listed).
    }
  }
  return byName;
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

function loadHarborTask(dir: string, ctx: Ctx): HarborLoadedTask | null {
  const before = ctx.issues.length;
  const label = ctx.labelOf(dir);
  const id = path.basename(dir);
  if (!ID.test(id)) ctx.issues.push({ file: label, field: '', reason: m.badFolderName(id) });
  const configFile = path.join(dir, 'task.toml');
  const text = readText(configFile, ctx);
  const read = text === null ? null : readTaskConfig(text, ctx.labelOf(configFile));
  ctx.issues.push(...(read?.issues ?? []));
  ctx.warnings.push(...(read?.warnings ?? []));
  const configSteps = read?.config?.steps ?? null;
  // A multi-step task whose [[steps]] have problems: those are reported; its files are checked once they are read.
  const stepsUnread = read?.hasSteps === true && configSteps === null;
  const instructionFile = path.join(dir, 'instruction.md');
  // A multi-step task's instructions are its steps' (Harbor ignores a top-level instruction.md then).
  const instruction = configSteps
    ? stepInstructions(dir, configSteps, ctx)
    : stepsUnread
      ? null
      : readInstruction(instructionFile, label, ctx);
  const environmentDir = path.join(dir, 'environment');
  const dockerfile = path.join(environmentDir, 'Dockerfile');
  const hasDockerfile = existsSync(dockerfile);
  const compose = readCompose(environmentDir, ctx);
  if (read?.config && !hasDockerfile && read.config.environment.dockerImage === null)
    ctx.issues.push({ file: ctx.labelOf(configFile), field: 'environment.docker_image', reason: m.environmentMissing });
  const steps = configSteps ? stepsOf(dir, configSteps, ctx) : null;
  if (!configSteps && !stepsUnread && !existsSync(path.join(dir, 'tests', 'test.sh')))
    ctx.issues.push({ file: label, field: '', reason: m.testsMissing });
  const config = read?.config;
  // One network serves both, unless the verifier runs apart (on its own network, as Harbor's separate one).
  const sharedVerifier =
    config?.verifier.mode !== 'separate' || (config.steps?.some((st) => st.verifier.mode === 'shared') ?? false);
  if (compose && config && sharedVerifier && phaseNetwork(config, 'agent') !== phaseNetwork(config, 'verifier'))
    ctx.issues.push({ file: ctx.labelOf(configFile), field: 'verifier.network_mode', reason: cm.phaseNetworks });
  if (compose && config) ctx.issues.push(...stepNetworkIssues(config, ctx.labelOf(configFile)));
  if (config && compose !== undefined)
    ctx.issues.push(...evidenceIssues(config, compose, ctx.labelOf(configFile), path.join(dir, 'tests')));
  if (ctx.issues.length > before || !config || instruction === null || compose === undefined) return null;
  const harbor: HarborTask = {
    dir,
    configFile,
    instructionFile,
    environmentDir,
    dockerfile: hasDockerfile ? dockerfile : null,
    solutionDir: path.join(dir, 'solution'),
    testsDir: path.join(dir, 'tests'),
    config,
    steps,
    compose,
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
    kind: 'harbor',
    dir,
    spec,
    // No inputs/ folder: a Harbor task's files are in its image.
    agent: { id, title, request: instruction, outputs: [], inputsDir: path.join(dir, '.assay-no-inputs') },
    harbor,
  };
}

function readInstruction(file: string, label: string, ctx: Ctx): string | null {
  if (!existsSync(file)) {
    ctx.issues.push({ file: label, field: '', reason: m.instructionMissing });
    return null;
  }
  const text = readText(file, ctx);
  if (text !== null && text.trim() === '')
    ctx.issues.push({ file: ctx.labelOf(file), field: '', reason: m.instructionEmpty });
  return text;
}

/** The steps' instructions, one after another (the task's request as assay's records show it), or null. */
function stepInstructions(dir: string, steps: HarborStepConfig[], ctx: Ctx): string | null {
  const texts = steps.map((s, i) => {
    const file = path.join(dir, 'steps', s.name, 'instruction.md');
    if (existsSync(file)) return readInstruction(file, ctx.labelOf(file), ctx);
    ctx.issues.push(stepIssue(dir, i, ctx, m.stepInstructionMissing(s.name)));
    return null;
  });
  return texts.every((t) => t !== null) ? texts.map((t, i) => `## ${steps[i]?.name}\n\n${t}`).join('\n') : null;
}

/** Each step's files, as Harbor's TaskPaths finds them; a step without a test is an issue. */
function stepsOf(dir: string, steps: HarborStepConfig[], ctx: Ctx): HarborStep[] {
  const shared = path.join(dir, 'tests');
  return steps.map((s, i) => {
    const stepDir = path.join(dir, 'steps', s.name);
    const own = path.join(stepDir, 'tests');
    if (!existsSync(path.join(own, 'test.sh')) && !existsSync(path.join(shared, 'test.sh')))
      ctx.issues.push(stepIssue(dir, i, ctx, m.stepTestsMissing(s.name)));
    const workdir = path.join(stepDir, 'workdir');
    const hasWorkdir = existsSync(workdir);
    if (hasWorkdir && !statSync(workdir).isDirectory())
      ctx.issues.push(stepIssue(dir, i, ctx, m.stepWorkdirNotFolder(s.name)));
    const solution = path.join(stepDir, 'solution');
    return {
      ...s,
      instructionFile: path.join(stepDir, 'instruction.md'),
      testsDirs: [shared, own].filter((d) => existsSync(d)),
      solutionDir: existsSync(solution) ? solution : path.join(dir, 'solution'),
      workdirDir: hasWorkdir ? workdir : null,
    };
  });
}

/** A problem with step `i`'s files, named at its entry in task.toml. */
const stepIssue = (dir: string, i: number, ctx: Ctx, reason: string): Issue => ({
  file: ctx.labelOf(path.join(dir, 'task.toml')),
  field: `steps[${i}].name`,
  reason,
});
/** environment/docker-compose.yaml (the name Harbor reads): null when absent, undefined when it has issues. */
function readCompose(environmentDir: string, ctx: Ctx): HarborCompose | null | undefined {
  const yml = path.join(environmentDir, 'docker-compose.yml');
  if (existsSync(yml)) ctx.issues.push({ file: ctx.labelOf(yml), field: '', reason: m.composeYml });
  const file = path.join(environmentDir, 'docker-compose.yaml');
  if (!existsSync(file)) return existsSync(yml) ? undefined : null;
  const text = readText(file, ctx);
  if (text === null) return undefined;
  const read = readComposeFile(text, ctx.labelOf(file), environmentDir);
  ctx.issues.push(...read.issues);
  return read.compose ?? undefined;
}

const phaseNetwork = (c: HarborTaskConfig, phase: 'agent' | 'verifier') =>
  c[phase].networkMode ?? c.environment.networkMode;

/**
 * On a compose task one trial network serves every step, made as step 1's agent needs it (internal or not): a
 * step's own network_mode must come to the task's (its allowed_hosts may differ: each phase has its own proxy).
 */
function stepNetworkIssues(c: HarborTaskConfig, file: string): Issue[] {
  return (c.steps ?? []).flatMap((st, i) =>
    (['agent', 'verifier'] as const).flatMap((phase) => {
      const mode = st[phase].networkMode;
      if (mode === null || mode === phaseNetwork(c, 'agent')) return [];
      if (phase === 'verifier' && (st.verifier.mode ?? c.verifier.mode) === 'separate') return [];
      return [{ file, field: `steps[${i}].${phase}.network_mode`, reason: cm.stepNetworks }];
    }),
  );
}
