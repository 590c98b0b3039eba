// What a job must allow for its Harbor tasks: harnesses assay runs on them (any other is refused saying why),
// and the network a task asks for within the job's (the job's resources are upper bounds, so a "public" or
// "allowlist" task on a job without network is refused).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { MODEL_HARNESSES, TASK_TOOL_HARNESSES, isModelHarness } from '@assay/core';
import type { Issue } from '../issue.js';
import type { LoadedBenchmark } from '../load-benchmark.js';
import type { HarborNetworkMode, HarborTask } from './harbor-task.js';
import { records, rec, str, type Raw } from '../loose.js';
import type { YamlFile } from '../yaml-file.js';
import { harborMessages as m } from './harbor-messages.js';

// oracle, nop and every model CLI: the npm CLIs' chain (node22 runtime, then the CLI) layers on any glibc image, a
// Harbor task's too; a Python CLI's venv comes bundled with its interpreter, libraries and loader onto that runtime.
const HARBOR_HARNESSES: readonly string[] = ['oracle', 'nop', ...MODEL_HARNESSES];

const refusalOf = (harness: string): string =>
  harness === 'command' ? m.commandNotSupported : m.harnessNotSupported(harness);

export function checkHarborJob(
  yaml: YamlFile,
  raw: Raw,
  benchmark: LoadedBenchmark,
  labelOf: (p: string) => string,
  issues: Issue[],
): void {
  const systems = records(raw.systems);
  for (const { item, index } of systems) {
    const harness = str(item.harness);
    if (harness !== undefined && !HARBOR_HARNESSES.includes(harness))
      yaml.report(['systems', index, 'harness'], refusalOf(harness));
  }
  const oracle = systems.some(({ item }) => item.harness === 'oracle');
  const toolless = systems.filter(({ item }) => isModelCliWithoutTools(str(item.harness)));
  const network = str(rec(raw.resources)?.network) ?? 'none';
  for (const task of benchmark.tasks) {
    if (task.kind !== 'harbor') continue;
    const h = task.harbor;
    const file = labelOf(h.configFile);
    if (network === 'none')
      for (const [field, mode] of networkPolicies(h.config))
        if (mode !== 'no-network' && mode !== null)
          issues.push({ file, field, reason: m.publicNeedsNetwork(network, mode) });
    const tools = [
      h.config.environment.skillsDir ? 'skills_dir' : '',
      h.config.environment.mcpServers.length ? 'mcp_servers' : '',
    ];
    for (const { index, item } of tools.some(Boolean) ? toolless : [])
      yaml.report(
        ['systems', index, 'harness'],
        m.noTaskTools(String(item.harness), file, tools.filter(Boolean).join(' and ')),
      );
    // Each step's oracle runs steps/<name>/solution/solve.sh when that folder exists, else solution/solve.sh.
    for (const dir of h.steps ? h.steps.map((s) => s.solutionDir) : [h.solutionDir])
      if (oracle && !existsSync(path.join(dir, 'solve.sh')))
        issues.push({ file: labelOf(h.dir), field: '', reason: m.solutionMissing(path.relative(h.dir, dir)) });
  }
  checkResumeTrajectory(yaml, systems, benchmark, labelOf);
}

/**
 * Harbor's _validate_resume_support: resume_trajectory on a task with more than one step needs an agent that can
 * resume (every model CLI here; oracle and nop cannot), refused before any environment is built.
 */
function checkResumeTrajectory(
  yaml: YamlFile,
  systems: { item: Raw; index: number }[],
  benchmark: LoadedBenchmark,
  labelOf: (p: string) => string,
): void {
  const multiStep = benchmark.tasks.find((t) => t.kind === 'harbor' && (t.harbor.steps?.length ?? 0) > 1);
  if (multiStep?.kind !== 'harbor') return;
  for (const { item, index } of systems) {
    const harness = str(item.harness);
    if (rec(item.harbor)?.resumeTrajectory !== true || harness === undefined || isModelHarness(harness)) continue;
    yaml.report(
      ['systems', index, 'harbor', 'resumeTrajectory'],
      m.noResume(harness, labelOf(multiStep.harbor.configFile)),
    );
  }
}

/** A model CLI that Harbor gives no skills or MCP servers (no Harbor agent for it): refused for tasks that have them. */
function isModelCliWithoutTools(harness: string | undefined): boolean {
  if (harness === undefined) return false;
  return (
    (MODEL_HARNESSES as readonly string[]).includes(harness) &&
    !(TASK_TOOL_HARNESSES as readonly string[]).includes(harness)
  );
}

/**
 * Each network_mode a trial's phases run under, by field: the task's [agent] and [verifier], each step's, and
 * [environment]'s where some phase falls back to it (not when every phase, or step, names its own).
 */
function networkPolicies(c: HarborTask['config']): [string, HarborNetworkMode | null][] {
  const phases: [string, HarborNetworkMode | null][] = [
    ['agent.network_mode', c.agent.networkMode],
    ['verifier.network_mode', c.verifier.networkMode],
  ];
  (c.steps ?? []).forEach((st, i) =>
    phases.push(
      [`steps[${i}].agent.network_mode`, st.agent.networkMode],
      [`steps[${i}].verifier.network_mode`, st.verifier.networkMode],
    ),
  );
  const resolved = c.steps
    ? c.steps.flatMap((st) => [
        st.agent.networkMode ?? c.agent.networkMode,
        st.verifier.networkMode ?? c.verifier.networkMode,
      ])
    : [c.agent.networkMode, c.verifier.networkMode];
  if (resolved.includes(null)) phases.unshift(['environment.network_mode', c.environment.networkMode]);
  return phases;
}
