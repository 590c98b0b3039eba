// Harbor 0.20 task folders as a benchmark (`benchmark: harbor:PATH`): what is read, what is kept, and
// every task.toml problem as file:field: reason.
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { formatIssue, inspectBenchmark, inspectJob, type LoadedTask } from '../src/index.js';

/** The Harbor part of a loaded task (undefined for another kind). */
const harborOf = (t: LoadedTask | undefined) => (t?.kind === 'harbor' ? t.harbor : undefined);

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const DATASET = path.join(ROOT, 'test/fixtures/harbor/dataset');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A copy of the fixture dataset with write-hello's task.toml replaced; the dataset folder. */
function datasetWith(toml: string | null): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-harbor-'));
  dirs.push(dir);
  const root = path.join(dir, 'dataset');
  cpSync(DATASET, root, { recursive: true });
  if (toml !== null) writeFileSync(path.join(root, 'write-hello', 'task.toml'), toml);
  return root;
}

/** Issues (and warnings) with the file named from the dataset folder, so they read as in `assay validate`. */
function problemsOf(root: string): { issues: string[]; warnings: string[] } {
  const r = inspectBenchmark(`harbor:${root}`, root);
  return { issues: r.issues.map(formatIssue), warnings: (r.warnings ?? []).map(formatIssue) };
}

const NO_NET = '[environment]\nnetwork_mode = "no-network"\n';

describe('Harbor task folders', () => {
  it('loads a dataset folder into the benchmark shape, reading every supported field', () => {
    const r = inspectBenchmark(`harbor:${DATASET}`);
    expect(r.issues).toEqual([]);
    expect(r.warnings).toEqual([]);
    const b = r.benchmark;
    expect(b?.kind).toBe('harbor');
    expect(b?.root).toBe(`harbor:${DATASET}`);
    expect(b?.index).toMatchObject({ id: 'dataset', tasks: ['write-hello'] });
    const task = b?.tasks[0];
    expect(task?.spec).toMatchObject({ id: 'write-hello', domain: 'harbor', title: 'assay-fixtures/write-hello' });
    // The instruction is instruction.md as written.
    expect(task?.agent.request).toBe(readFileSync(path.join(DATASET, 'write-hello/instruction.md'), 'utf8'));
    expect(harborOf(task)?.config).toMatchObject({
      schemaVersion: '1.3',
      agent: { timeoutSec: 120, networkMode: null },
      verifier: { timeoutSec: 120, env: { EXPECTED_WORD: 'hello' } },
      environment: { cpus: 1, memoryMb: 1024, storageMb: 2048, networkMode: 'no-network', buildTimeoutSec: 600 },
      solution: { env: { GREETING: 'hello' } },
    });
    // [metadata] and the rest are kept as written.
    expect(harborOf(task)?.config.config.metadata).toEqual({ difficulty: 'easy', category: 'fixture' });
  });

  it('loads one task folder on its own, with Harbor defaults for what it leaves out', () => {
    const root = datasetWith(NO_NET);
    const r = inspectBenchmark(`harbor:${path.join(root, 'write-hello')}`);
    expect(r.issues).toEqual([]);
    expect(r.benchmark?.tasks.map((t) => t.spec.id)).toEqual(['write-hello']);
    expect(harborOf(r.benchmark?.tasks[0])?.config).toMatchObject({
      schemaVersion: '1.3',
      name: null,
      agent: { timeoutSec: null },
      verifier: { timeoutSec: 600 },
      environment: { buildTimeoutSec: 600, networkMode: 'no-network', cpus: null },
    });
  });

  it('keeps unknown fields and reports them as warnings, never as errors and never dropped', () => {
    const root = datasetWith(`${NO_NET}flavour = "x"\n[agent]\ntimeout_sec = 5\nspeed = 3\n[extras]\na = 1\n`);
    const { issues, warnings } = problemsOf(root);
    expect(issues).toEqual([]);
    expect(warnings).toEqual([
      'write-hello/task.toml:extras: is not a Harbor 0.20 field: kept as written, not used by assay',
      'write-hello/task.toml:agent.speed: is not a Harbor 0.20 field of [agent]: kept as written, not used by assay',
      'write-hello/task.toml:environment.flavour: is not a Harbor 0.20 field of [environment]: kept as written, not used by assay',
    ]);
    const config = harborOf(inspectBenchmark(`harbor:${root}`).benchmark?.tasks[0])?.config.config;
    expect(config?.extras).toEqual({ a: 1 });
  });

  it.each([
    ['[agent]\ntimeout_sec = -5\n', 'agent.timeout_sec: must be a positive number of seconds (got -5)'],
    ['[agent]\ntimeout_sec = "soon"\n', 'agent.timeout_sec: must be a positive number of seconds (got "soon")'],
    ['[verifier]\ntimeout_sec = 9e9\n', "verifier.timeout_sec: 9000000000 s is more than assay's largest limit"],
    ['[environment]\ncpus = 1.5\n', 'environment.cpus: must be a positive whole number (got 1.5)'],
    [
      '[environment]\nnetwork_mode = "allowlist"\nallowed_hosts = ["http://a.org"]\n',
      'environment.allowed_hosts: "http://a.org": allowed_hosts entries must be hostnames, IP addresses, or IP CIDR ranges, not URLs, ports, or paths',
    ],
    [
      '[environment]\nnetwork_mode = "public"\nallowed_hosts = ["a.org"]\n',
      "environment.allowed_hosts: is only valid when network_mode='allowlist'",
    ],
    ['[agent]\nallowed_hosts = []\n', "agent.allowed_hosts: is only valid when network_mode='allowlist'"],
    [
      '[agent]\nnetwork_mode = "allowlist"\nallowed_hosts = "a.org"\n',
      'agent.allowed_hosts: must be a list of host names',
    ],
    [
      '[environment]\nnetwork_mode = "open"\n',
      'environment.network_mode: must be "no-network", "public" or "allowlist" (got "open")',
    ],
    ['[environment]\ngpus = 1\n', 'environment.gpus: "gpus" is not supported yet'],
    ['[environment]\nos = "windows"\n', 'environment.os: "windows" is not supported: assay runs Linux containers only'],
    [
      '[environment]\nmemory = "2G"\nmemory_mb = 1024\n',
      'environment.memory: "2G" (2048 MB) disagrees with memory_mb = 1024',
    ],
    ['[[steps]]\nname = "one"\n', 'steps[0].name: steps/one/instruction.md is missing'],
    [
      '[verifier]\nenvironment_mode = "apart"\n',
      'verifier.environment_mode: must be "shared" or "separate" (got "apart")',
    ],
    ['[verifier.env]\nTOKEN = 3\n', 'verifier.env.TOKEN: must be a string (got 3)'],
    ['[task]\nname = "no-org"\n', 'task.name: must be "org/name"'],
    ['agent = 3\n', 'agent: must be a TOML table ([section])'],
    ['[agent\ntimeout_sec = 1\n', '(file): is not valid TOML:'],
  ])('refuses %j as task.toml:field: reason', (toml, expected) => {
    const { issues } = problemsOf(datasetWith(toml));
    expect(issues.join('\n')).toContain(`write-hello/task.toml:${expected}`);
  });

  it('reads an allowlist with its hosts normalized as Harbor does, per phase over the environment', () => {
    const root = datasetWith(
      '[environment]\nnetwork_mode = "allowlist"\nallowed_hosts = ["PyPI.org.", "*.npmjs.org", "10.0.0.0/8"]\n' +
        '[agent]\nnetwork_mode = "allowlist"\nallowed_hosts = ["127.0.0.2"]\n',
    );
    const config = harborOf(inspectBenchmark(`harbor:${root}`).benchmark?.tasks[0])?.config;
    expect(config?.environment).toMatchObject({
      networkMode: 'allowlist',
      allowedHosts: ['pypi.org', '*.npmjs.org', '10.0.0.0/8'],
    });
    expect(config?.agent).toMatchObject({ networkMode: 'allowlist', allowedHosts: ['127.0.0.2'] });
    expect(config?.verifier).toMatchObject({ networkMode: null, allowedHosts: [] });
  });

  it('reads legacy memory/storage sizes as Harbor does, with a deprecation warning', () => {
    const root = datasetWith(`${NO_NET}memory = "2G"\nstorage = "512M"\n`);
    const { issues, warnings } = problemsOf(root);
    expect(issues).toEqual([]);
    expect(warnings.join('\n')).toContain('write-hello/task.toml:environment.memory: is deprecated');
    const env = harborOf(inspectBenchmark(`harbor:${root}`).benchmark?.tasks[0])?.config.environment;
    expect(env).toMatchObject({ memoryMb: 2048, storageMb: 512 });
  });

  it('refuses a compose file without main, a task without tests and a folder name that cannot be an id', () => {
    const root = datasetWith(NO_NET);
    writeFileSync(path.join(root, 'write-hello/environment/docker-compose.yaml'), 'services: {}\n');
    rmSync(path.join(root, 'write-hello/tests'), { recursive: true });
    cpSync(path.join(root, 'write-hello'), path.join(root, 'Bad_Name'), { recursive: true });
    const { issues } = problemsOf(root);
    expect(issues).toContain(
      'write-hello/environment/docker-compose.yaml:services: needs a "main" service: it is the agent\'s environment (built from environment/Dockerfile)',
    );
    expect(issues).toContain('write-hello:(file): tests/test.sh is missing: the verifier has nothing to run');
    expect(issues.join('\n')).toContain('Bad_Name:(file): task folder "Bad_Name" must be lowercase');
  });

  it('checks the job against its Harbor tasks: harnesses (model CLIs run), the network a task needs, the oracle script', () => {
    const root = datasetWith('[environment]\nnetwork_mode = "public"\n');
    rmSync(path.join(root, 'write-hello/solution'), { recursive: true });
    const jobFile = path.join(path.dirname(root), 'job.yaml');
    const job = {
      schema: 'assay.job/v1',
      id: 'harbor-check',
      benchmark: 'harbor:./dataset',
      results: './results',
      systems: [
        { id: 'oracle', harness: 'oracle' },
        { id: 'codex', harness: 'codex', model: 'gpt-5', settings: { apiKeyEnv: 'OPENAI_API_KEY' } },
        { id: 'nanobot', harness: 'nanobot', model: 'gpt-5' },
        { id: 'mine', harness: 'command', settings: { image: 'mine:1', command: 'run {instruction_file}' } },
      ],
    };
    writeFileSync(jobFile, stringify(job));
    const { issues } = inspectJob(jobFile, { repoRoot: ROOT, cwd: path.dirname(root), machine: false });
    expect(issues.map(formatIssue)).toEqual([
      'job.yaml:systems[mine].harness: harness "command" is not supported on Harbor tasks: it runs its own image (settings.image), but the agent of a Harbor task runs in the task\'s own image, whose snapshot the verifier checks; use oracle, nop or a model CLI (line 17, column 5)',
      'dataset/write-hello/task.toml:environment.network_mode: "public" needs a network, but the job\'s resources.network is "none": set resources.network to "bridge" or "host" (the job\'s network is the upper bound), or make the task "no-network"',
      'dataset/write-hello:(file): solution/solve.sh is missing: the oracle harness cannot run this task',
    ]);
    // A step's own policy needs the job's network as the task's does; where every step names its own for both
    // phases, [environment]'s is never used, so it is not checked.
    const tomlFile = path.join(root, 'write-hello/task.toml');
    const original = readFileSync(tomlFile, 'utf8');
    mkdirSync(path.join(root, 'write-hello/steps/one'), { recursive: true });
    writeFileSync(path.join(root, 'write-hello/steps/one/instruction.md'), 'Say hello.\n');
    writeFileSync(
      tomlFile,
      `${original}\n[[steps]]\nname = "one"\n[steps.agent]\nnetwork_mode = "allowlist"\nallowed_hosts = ["a.org"]\n[steps.verifier]\nnetwork_mode = "no-network"\n`,
    );
    const stepIssues = inspectJob(jobFile, { repoRoot: ROOT, cwd: path.dirname(root), machine: false }).issues;
    expect(stepIssues.map(formatIssue).filter((i) => i.includes('network_mode'))).toEqual([
      'dataset/write-hello/task.toml:steps[0].agent.network_mode: "allowlist" needs a network, but the job\'s resources.network is "none": set resources.network to "bridge" or "host" (the job\'s network is the upper bound), or make the task "no-network"',
    ]);
    writeFileSync(tomlFile, original);
    rmSync(path.join(root, 'write-hello/steps'), { recursive: true });
    // A task with skills and MCP servers: nanobot (no Harbor agent gives it either) is refused, codex is not.
    const toml = path.join(root, 'write-hello/task.toml');
    appendFileSync(
      toml,
      'skills_dir = "/skills"\n[[environment.mcp_servers]]\nname = "fruit"\ntransport = "stdio"\ncommand = "fruit"\n',
    );
    const withTools = inspectJob(jobFile, { repoRoot: ROOT, cwd: path.dirname(root), machine: false });
    expect(withTools.issues.map(formatIssue)).toContain(
      'job.yaml:systems[nanobot].harness: "nanobot" cannot take the skills_dir and mcp_servers of dataset/write-hello/task.toml (Harbor has no agent for it that does): use another model CLI, or a task without them (line 14, column 5)',
    );
    writeFileSync(jobFile, stringify({ ...job, systems: [job.systems[0]], resources: { network: 'bridge' } }));
    rmSync(path.join(root, 'write-hello/environment/Dockerfile'));
    const again = inspectJob(jobFile, { repoRoot: ROOT, cwd: path.dirname(root), machine: false });
    expect(again.issues.map(formatIssue)).toEqual([
      'dataset/write-hello/task.toml:environment.docker_image: needs environment/Dockerfile or [environment].docker_image',
    ]);
  });
});
