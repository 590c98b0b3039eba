// Harbor multi-step tasks (`[[steps]]`, multi_step_reward_strategy) as the loader reads them: the steps'
// files under steps/<name>/, Harbor's defaults, and every malformed case as file:field: reason.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { formatIssue, inspectBenchmark, readTaskConfig, type LoadedTask } from '../src/index.js';

/** The Harbor part of a loaded task (undefined for another kind). */
const harborOf = (t: LoadedTask | undefined) => (t?.kind === 'harbor' ? t.harbor : undefined);

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const STEPS = path.join(ROOT, 'test/fixtures/harbor/steps');
const STEP_WORKDIR = path.join(ROOT, 'test/fixtures/harbor/step-workdir');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const HEAD = '[environment]\nnetwork_mode = "no-network"\n';

/** Issues of a task.toml alone, as `file:field: reason`. */
function issuesOf(toml: string): string[] {
  return readTaskConfig(`${toml}\n${HEAD}`, 'task.toml').issues.map(formatIssue);
}

/** A copy of the fixture task gated-mean, changed by `edit`; its issues as `assay validate` prints them. */
function gatedWith(edit: (dir: string) => void): string[] {
  const root = mkdtempSync(path.join(os.tmpdir(), 'assay-harbor-steps-'));
  dirs.push(root);
  const dir = path.join(root, 'gated-mean');
  cpSync(path.join(STEPS, 'gated-mean'), dir, { recursive: true });
  edit(dir);
  return inspectBenchmark(`harbor:${dir}`, root).issues.map(formatIssue);
}

describe('Harbor multi-step tasks', () => {
  it('reads each step with its files, overrides and min_reward; mean by default, final when asked', () => {
    const r = inspectBenchmark(`harbor:${STEPS}`);
    expect(r.issues).toEqual([]);
    expect(r.warnings).toEqual([]);
    const [final, gated] = r.benchmark?.tasks ?? [];
    expect(harborOf(gated)?.config.multiStepRewardStrategy).toBe('mean');
    expect(harborOf(final)?.config.multiStepRewardStrategy).toBe('final');
    const dir = path.join(STEPS, 'gated-mean');
    expect(harborOf(gated)?.steps).toEqual([
      {
        name: 'draft',
        agent: { timeoutSec: null, user: null, networkMode: null, allowedHosts: [] },
        verifier: {
          timeoutSec: 600,
          user: null,
          networkMode: null,
          allowedHosts: [],
          env: {},
          mode: null,
          environment: null,
        },
        minReward: 1,
        healthcheck: null,
        artifacts: [],
        collect: [],
        instructionFile: path.join(dir, 'steps/draft/instruction.md'),
        testsDirs: [path.join(dir, 'tests'), path.join(dir, 'steps/draft/tests')],
        solutionDir: path.join(dir, 'steps/draft/solution'),
        workdirDir: null,
      },
      expect.objectContaining({
        name: 'extend',
        verifier: expect.objectContaining({ timeoutSec: 120, env: { EXPECTED: 'two' }, networkMode: null }),
        minReward: null,
      }),
      // No steps/polish/tests or solution: the shared tests/ and solution/ (Harbor's fallback).
      expect.objectContaining({
        name: 'polish',
        testsDirs: [path.join(dir, 'tests')],
        solutionDir: path.join(dir, 'solution'),
      }),
    ]);
    // No top-level instruction.md: the steps' instructions in order are the task's request.
    expect(gated?.agent.request).toContain('## draft\n\nWrite the word "one"');
    expect(gated?.agent.request.indexOf('## polish')).toBeGreaterThan(gated?.agent.request.indexOf('## extend') ?? 0);
  });

  it('reads min_reward as a number or a table of named rewards', () => {
    const r = readTaskConfig(`[[steps]]\nname = "a"\nmin_reward = { reward = 0.5, style = 1 }\n${HEAD}`, 'task.toml');
    expect(r.issues).toEqual([]);
    expect(r.config?.steps?.[0]?.minReward).toEqual({ reward: 0.5, style: 1 });
  });

  it('names every malformed [[steps]] field as file:field: reason', () => {
    expect(issuesOf('multi_step_reward_strategy = "best"\n[[steps]]\nname = "a"\n')).toEqual([
      'task.toml:multi_step_reward_strategy: must be "mean" or "final" (got "best")',
    ]);
    expect(issuesOf('multi_step_reward_strategy = "mean"\n')).toEqual([
      'task.toml:multi_step_reward_strategy: only applies to a multi-step task: this task has no [[steps]]',
    ]);
    expect(issuesOf('steps = []\n')).toEqual(['task.toml:steps: must be one or more [[steps]] tables']);
    expect(issuesOf('[[steps]]\nmin_reward = 1\n')).toEqual([
      'task.toml:steps[0].name: every step needs a name, a non-empty string (got undefined)',
    ]);
    expect(issuesOf('[[steps]]\nname = "a"\n[[steps]]\nname = "a"\n')).toEqual([
      'task.toml:steps[1].name: "a" names two steps: each step has its own folder steps/a/',
    ]);
    expect(issuesOf('[[steps]]\nname = "../up"\n')).toEqual([
      'task.toml:steps[0].name: "../up" cannot name a step folder (steps/<name>/): use letters, digits, ".", "_" or "-", not starting with "."',
    ]);
    expect(issuesOf('[[steps]]\nname = "a"\nmin_reward = "high"\n')).toEqual([
      'task.toml:steps[0].min_reward: must be a number, or a table of reward name = number (got "high")',
    ]);
    expect(issuesOf('[[steps]]\nname = "a"\nmin_reward = { reward = "x" }\n')).toEqual([
      'task.toml:steps[0].min_reward.reward: must be a number (got "x")',
    ]);
    expect(issuesOf('[[steps]]\nname = "a"\n[steps.agent]\ntimeout_sec = 0\n')).toEqual([
      'task.toml:steps[0].agent.timeout_sec: must be a positive number of seconds (got 0)',
    ]);
    expect(issuesOf('[[steps]]\nname = "a"\nverifier = 3\n')).toEqual([
      'task.toml:steps[0].verifier: must be a TOML table ([section])',
    ]);
  });

  it("reads a step's own network policy as the task's phases', and warns of an unknown step field", () => {
    const toml = `[[steps]]\nname = "a"\n[steps.agent]\nnetwork_mode = "allowlist"\nallowed_hosts = ["API.example.org."]\n[steps.verifier]\nnetwork_mode = "no-network"\n${HEAD}`;
    const read = readTaskConfig(toml, 'task.toml');
    expect(read.issues).toEqual([]);
    expect(read.config?.steps?.[0]).toMatchObject({
      agent: { networkMode: 'allowlist', allowedHosts: ['api.example.org'] },
      verifier: { networkMode: 'no-network', allowedHosts: [] },
    });
    expect(issuesOf('[[steps]]\nname = "a"\n[steps.verifier]\nallowed_hosts = ["a.org"]\n')).toEqual([
      "task.toml:steps[0].verifier.allowed_hosts: is only valid when network_mode='allowlist' (as Harbor's NetworkPolicy says)",
    ]);
    expect(issuesOf('[[steps]]\nname = "a"\n[steps.agent]\nnetwork_mode = "open"\n')).toEqual([
      'task.toml:steps[0].agent.network_mode: must be "no-network", "public" or "allowlist" (got "open")',
    ]);
    const r = readTaskConfig(`[[steps]]\nname = "a"\ncolour = "blue"\n${HEAD}`, 'task.toml');
    expect(r.issues).toEqual([]);
    expect(r.warnings.map(formatIssue)).toEqual([
      'task.toml:steps[0].colour: is not a Harbor 0.20 field of [steps[0]]: kept as written, not used by assay',
    ]);
  });

  it('needs each step folder with its instruction and a test', () => {
    const file = path.join('gated-mean', 'task.toml');
    expect(gatedWith((d) => rmSync(path.join(d, 'steps/extend/instruction.md')))).toEqual([
      `${file}:steps[1].name: steps/extend/instruction.md is missing: every step needs its instruction`,
    ]);
    // polish falls back to tests/test.sh: without it, polish has no test (draft and extend have their own).
    expect(gatedWith((d) => rmSync(path.join(d, 'tests'), { recursive: true }))).toEqual([
      `${file}:steps[2].name: step "polish" has no test: neither steps/polish/tests/test.sh nor tests/test.sh exists`,
    ]);
    // A malformed [[steps]] is the one problem named: no "instruction.md missing" for the folder too.
    expect(
      gatedWith((d) => {
        const toml = path.join(d, 'task.toml');
        writeFileSync(toml, `multi_step_reward_strategy = "best"\n${readFileSync(toml, 'utf8')}`);
      }),
    ).toEqual([`${file}:multi_step_reward_strategy: must be "mean" or "final" (got "best")`]);
  });

  it("reads a step's workdir/ (its files and setup.sh, uploaded and run before the step's agent)", () => {
    const r = inspectBenchmark(`harbor:${STEP_WORKDIR}`);
    expect(r.issues).toEqual([]);
    expect(r.warnings).toEqual([]);
    const byId = Object.fromEntries((r.benchmark?.tasks ?? []).map((t) => [t.spec.id, harborOf(t)?.steps]));
    const dir = path.join(STEP_WORKDIR, 'workdir-setup');
    expect(byId['workdir-setup']?.map((s) => s.workdirDir)).toEqual([null, path.join(dir, 'steps/second/workdir')]);
    expect(byId['setup-fails']?.map((s) => s.workdirDir !== null)).toEqual([false, true, false]);
    // A workdir/ without setup.sh (files only) is a step's workdir too.
    const root = mkdtempSync(path.join(os.tmpdir(), 'assay-harbor-steps-'));
    dirs.push(root);
    const copy = path.join(root, 'gated-mean');
    cpSync(path.join(STEPS, 'gated-mean'), copy, { recursive: true });
    mkdirSync(path.join(copy, 'steps/draft/workdir'));
    writeFileSync(path.join(copy, 'steps/draft/workdir/notes.txt'), 'n\n');
    const read = inspectBenchmark(`harbor:${copy}`, root);
    expect(read.issues).toEqual([]);
    expect(harborOf(read.benchmark?.tasks[0])?.steps?.[0]?.workdirDir).toBe(path.join(copy, 'steps/draft/workdir'));
    // A file named workdir is not a workdir/ (Harbor would fail to upload it).
    expect(gatedWith((d) => writeFileSync(path.join(d, 'steps/extend/workdir'), 'x\n'))).toEqual([
      `${path.join('gated-mean', 'task.toml')}:steps[1].name: steps/extend/workdir must be a folder: its contents are uploaded to the agent's working directory before the step`,
    ]);
  });
});
