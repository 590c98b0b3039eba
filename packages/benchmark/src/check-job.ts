// What a job needs beyond its schema, so that nothing knowable before the run fails after it: no
// secret in the file, a judge setup that can judge, resources this machine can give, a results
// folder that can be written, the keys' variables exported, and work volumes large enough for the
// material copied into them.
import os from 'node:os';
import type { MaterialBytes } from './load-benchmark.js';
import { findSecrets } from '@assay/core';
import { checkSystems, isHttpUrl } from './check-systems.js';
import { resultsDirProblem } from './check-results-dir.js';
import { keyEnvNeeds } from './check-key-env.js';
import { rec, str, strings, type Raw } from './loose.js';
import { messages } from './messages.js';
import type { YamlFile } from './yaml-file.js';

/** Report (once, with the way to pass a key) every value that looks like a secret, and mask them all. Before the schema. */
export function checkSecrets(file: YamlFile): void {
  const found = findSecrets(file.raw);
  file.hide(found.map((f) => f.value));
  for (const f of found)
    file.report(f.path, f.kind === 'env-name' ? messages.notEnvName : messages.secretValue, { settles: true });
}

const JUDGE_NEEDS = ['provider', 'model', 'apiKeyEnv'] as const;

/** A judge mode other than checks-only calls a model: it needs all of provider, model and apiKeyEnv. */
function checkJudge(file: YamlFile, raw: Raw): void {
  const judge = rec(raw.judge);
  if (!judge) return;
  const mode = str(judge.mode) ?? 'checks-only';
  if (mode !== 'checks-only')
    for (const key of JUDGE_NEEDS)
      if (judge[key] === undefined) file.report(['judge', key], messages.judgeNeeds(mode, key));
  const baseUrl = str(judge.baseUrl);
  if (baseUrl !== undefined && !isHttpUrl(baseUrl)) file.report(['judge', 'baseUrl'], messages.notHttpUrl);
}

export interface JobChecks {
  file: YamlFile;
  raw: Raw;
  /** Absolute results folder, when the job names one or has an id to default it by; null: not checked here. */
  resultsDir: string | null;
  /** Resources as the schema resolved them (defaults included); null when the schema rejected the job. */
  resources: { cpus: number; storageGiB: number } | null;
  material: MaterialBytes | undefined;
}

/** Why this machine cannot give a container `cpus` CPUs, or null. */
export function cpusProblem(cpus: number): string | null {
  const here = os.availableParallelism();
  return cpus > here ? messages.cpusAboveMachine(cpus, here) : null;
}

/** `machine`: also what depends on the machine running the job (its CPUs, the results folder writable here, the keys' variables set). */
export function checkJob(ctx: JobChecks, machine: boolean): void {
  checkSystems(ctx.file, ctx.raw);
  checkJudge(ctx.file, ctx.raw);
  const results = machine && ctx.resultsDir !== null ? resultsDirProblem(ctx.resultsDir) : null;
  if (results !== null) ctx.file.report(['results'], results);
  if (machine)
    for (const n of keyEnvNeeds(ctx.raw))
      if (!process.env[n.env]) ctx.file.report(n.path, messages.keyEnvUnset(n.env, 'here'));
  if (!ctx.resources) return;
  const cpus = machine ? cpusProblem(ctx.resources.cpus) : null;
  if (cpus !== null) ctx.file.report(['resources', 'cpus'], cpus);
  if (ctx.material) checkStorage(ctx, ctx.material, ctx.resources.storageGiB);
}

/** The largest material of what the job runs must fit its work volume (resources.storageGiB). */
function checkStorage(ctx: JobChecks, material: MaterialBytes, storageGiB: number): void {
  const named = { tasks: strings(ctx.raw.tasks), projects: strings(ctx.raw.projects) };
  // As selectTasks/selectProjects: naming neither runs everything.
  const all = ctx.raw.tasks === undefined && ctx.raw.projects === undefined;
  const pick = (sizes: Map<string, number>, ids: { value: string }[], kind: 'task' | 'project') =>
    [...sizes].filter(([id]) => all || ids.some((t) => t.value === id)).map(([id, bytes]) => ({ kind, id, bytes }));
  const units = [...pick(material.tasks, named.tasks, 'task'), ...pick(material.projects, named.projects, 'project')];
  const cap = storageGiB * 1024 ** 3;
  const over = units.filter((u) => u.bytes > cap).sort((a, b) => b.bytes - a.bytes);
  const largest = over[0];
  if (largest)
    ctx.file.report(['resources', 'storageGiB'], messages.materialAboveStorage(largest, storageGiB, over.length));
}
