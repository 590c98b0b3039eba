// Harbor 0.25's healthchecks as task.toml holds them ([environment.healthcheck], a step's healthcheck) and
// compose's depends_on condition service_completed_successfully: Harbor's defaults, and every bad value as
// file:field: reason.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { formatIssue, inspectBenchmark, readTaskConfig, type LoadedTask } from '../src/index.js';

const harborOf = (t: LoadedTask | undefined) => (t?.kind === 'harbor' ? t.harbor : undefined);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const COMPOSE_DATASET = path.join(ROOT, 'test/fixtures/harbor/compose');
const COMPOSE = 'fetch-token/environment/docker-compose.yaml';
const HEAD = '[environment]\nnetwork_mode = "no-network"\n';
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const read = (toml: string) => readTaskConfig(`${HEAD}${toml}`, 'task.toml');
const issuesOf = (toml: string): string[] => read(toml).issues.map(formatIssue);

describe('Harbor healthchecks in task.toml', () => {
  it("reads [environment.healthcheck] with Harbor's defaults, and a step's own", () => {
    const r = read('[environment.healthcheck]\ncommand = "test -f /tmp/ready"\n');
    expect(r.issues).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.config?.environment.healthcheck).toEqual({
      command: 'test -f /tmp/ready',
      intervalSec: 5,
      timeoutSec: 30,
      startPeriodSec: 0,
      startIntervalSec: 5,
      retries: 3,
    });
    const full = read(
      '[environment.healthcheck]\ncommand = "true"\ninterval_sec = 0.5\ntimeout_sec = 2\nstart_period_sec = 10\nstart_interval_sec = 0\nretries = 0\n',
    );
    expect(full.config?.environment.healthcheck).toEqual({
      command: 'true',
      intervalSec: 0.5,
      timeoutSec: 2,
      startPeriodSec: 10,
      startIntervalSec: 0,
      retries: 0,
    });
    const steps = readTaskConfig(
      '[[steps]]\nname = "a"\n[steps.healthcheck]\ncommand = "curl -sf localhost:80"\nretries = 10\n[[steps]]\nname = "b"\n',
      'task.toml',
    );
    expect(steps.issues).toEqual([]);
    expect(steps.config?.environment.healthcheck).toBeNull();
    expect(steps.config?.steps?.map((s) => s.healthcheck)).toEqual([
      {
        command: 'curl -sf localhost:80',
        intervalSec: 5,
        timeoutSec: 30,
        startPeriodSec: 0,
        startIntervalSec: 5,
        retries: 10,
      },
      null,
    ]);
  });

  it("takes a verifier environment's healthcheck with a warning that it is not run, as Harbor 0.25 runs none", () => {
    const toml =
      '[verifier.environment]\ncpus = 1\n[verifier.environment.healthcheck]\ncommand = "true"\n' +
      '[[steps]]\nname = "a"\n[steps.verifier.environment]\ncpus = 1\n[steps.verifier.environment.healthcheck]\ncommand = "true"\n';
    const r = read(toml);
    expect(r.issues).toEqual([]);
    const unused =
      "is not run: Harbor 0.25 runs no verifier environment's healthcheck (only [environment]'s and a step's, in the agent's environment), and assay does as Harbor does; kept as written";
    expect(r.warnings.map(formatIssue)).toEqual([
      `task.toml:steps[0].verifier.environment.healthcheck: ${unused}`,
      `task.toml:verifier.environment.healthcheck: ${unused}`,
    ]);
  });

  it('names every bad value as file:field: reason, and warns of an unknown key', () => {
    expect(issuesOf('[environment.healthcheck]\ninterval_sec = 1\n')).toEqual([
      "task.toml:environment.healthcheck.command: is required: the shell command run in the agent's environment until it exits 0 (got undefined)",
    ]);
    expect(
      issuesOf(
        '[environment.healthcheck]\ncommand = ""\ninterval_sec = -1\ntimeout_sec = 0.5\nstart_period_sec = "soon"\nretries = 1.5\n',
      ),
    ).toEqual([
      'task.toml:environment.healthcheck.command: is required: the shell command run in the agent\'s environment until it exits 0 (got "")',
      'task.toml:environment.healthcheck.timeout_sec: must be 1 s or more (got 0.5): Harbor runs each attempt with int(timeout_sec) as its limit, where 0 means none',
      'task.toml:environment.healthcheck.retries: must be a whole number, 0 or more (got 1.5)',
      'task.toml:environment.healthcheck.interval_sec: must be a number of seconds, 0 or more (got -1)',
      'task.toml:environment.healthcheck.start_period_sec: must be a number of seconds, 0 or more (got "soon")',
    ]);
    expect(readTaskConfig('[environment]\nhealthcheck = "true"\n', 'task.toml').issues.map(formatIssue)).toEqual([
      'task.toml:environment.healthcheck: must be a TOML table ([section])',
    ]);
    expect(issuesOf('[[steps]]\nname = "a"\n[steps.healthcheck]\ncommand = "true"\ntimeout_sec = -3\n')).toEqual([
      'task.toml:steps[0].healthcheck.timeout_sec: must be a positive number of seconds (got -3)',
    ]);
    const warned = read('[environment.healthcheck]\ncommand = "true"\ncolour = "blue"\n');
    expect(warned.issues).toEqual([]);
    expect(warned.warnings.map(formatIssue)).toEqual([
      'task.toml:environment.healthcheck.colour: is not a Harbor 0.20 field of [environment.healthcheck]: kept as written, not used by assay',
    ]);
  });
});

describe('compose depends_on condition service_completed_successfully', () => {
  function composeIssues(compose: string) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-harbor-hc-'));
    dirs.push(dir);
    const root = path.join(dir, 'compose');
    cpSync(COMPOSE_DATASET, root, { recursive: true });
    writeFileSync(path.join(root, COMPOSE), compose);
    const r = inspectBenchmark(`harbor:${root}`, root);
    return { issues: r.issues.map(formatIssue), compose: harborOf(r.benchmark?.tasks[0])?.compose };
  }

  it('reads it for a sidecar and for main; an unknown condition still names the three', () => {
    const { issues, compose } = composeIssues(
      'services:\n  main:\n    depends_on: { init: { condition: service_completed_successfully } }\n' +
        '  init:\n    image: assay/base:bookworm\n    command: ["true"]\n' +
        '  web:\n    image: assay/base:bookworm\n    depends_on: { init: { condition: service_completed_successfully } }\n',
    );
    expect(issues).toEqual([]);
    expect(compose?.main.dependsOn).toEqual([{ service: 'init', condition: 'service_completed_successfully' }]);
    expect(compose?.sidecars.map((s) => [s.name, s.dependsOn])).toEqual([
      ['init', []],
      ['web', [{ service: 'init', condition: 'service_completed_successfully' }]],
    ]);
    const bad = composeIssues(
      'services:\n  main:\n    depends_on: { init: { condition: service_done } }\n  init:\n    image: x\n',
    );
    expect(bad.issues).toEqual([
      `${COMPOSE}:services.main.depends_on.init.condition: must be "service_started", "service_healthy" or "service_completed_successfully" (got "service_done")`,
    ]);
  });
});
