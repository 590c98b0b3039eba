// A job that validates does not fail later for a reason knowable before the run: judge setup,
// harness settings, resources, the results folder, limits in range, files readable as UTF-8 YAML.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatIssue, inspectJob, machineIssues, type Issue } from '../src/index.js';
import { validParts, writeBenchmark } from './benchmark-fixture.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const baseJob = (): Record<string, unknown> => ({
  schema: 'assay.job/v1',
  id: 'j',
  benchmark: '.',
  systems: [{ id: 'a', harness: 'oracle' }],
});

/** Write the fixture benchmark and a job in it; `job.yaml` is written as `text` when given. */
function setUp(job: Record<string, unknown>, text?: string | Buffer): { dir: string; file: string } {
  const dir = writeBenchmark(validParts());
  dirs.push(dir);
  const file = path.join(dir, 'job.yaml');
  writeFileSync(file, text ?? stringify(job));
  return { dir, file };
}

/** Every problem as file:field: reason (positions are tested in validate-benchmark.test.ts). */
const plain = (issues: Issue[]): string[] => issues.map(({ line: _l, column: _c, ...rest }) => formatIssue(rest));

function problemsOf(job: Record<string, unknown>, text?: string | Buffer): string[] {
  const { dir, file } = setUp(job, text);
  const { job: loaded, issues } = inspectJob(file, { repoRoot: dir, cwd: dir });
  if (issues.length > 0) expect(loaded).toBeNull();
  return plain(issues);
}

const withSystem = (system: Record<string, unknown>) => ({ ...baseJob(), systems: [system] });

describe('job: harness settings', () => {
  it.each([
    [
      'an unknown scripted agent',
      { id: 'a', harness: 'scripted', settings: { agent: 'correction-not-aplied' } },
      'job.yaml:systems[a].settings.agent: must name the scripted agent to play, one of oracle, nop, missing-deliverable, wrong-type, no-cached-values, correction-not-applied, superseded-decision',
    ],
    [
      'a model harness without a model',
      { id: 'a', harness: 'codex' },
      'job.yaml:systems[a].model: is missing: harness codex runs a model and needs its name',
    ],
    [
      'a command harness without an image',
      { id: 'a', harness: 'command', settings: { command: 'run {instruction_file}' } },
      'job.yaml:systems[a].settings.image: is missing: the command harness runs your agent in this image (a tag you built; assay pulls nothing)',
    ],
    [
      'an unknown command placeholder',
      { id: 'a', harness: 'command', settings: { image: 'me/agent', command: 'run {instructions}' } },
      'job.yaml:systems[a].settings.command: has an unknown placeholder {instructions} (known: {instruction_file} {workspace} {inputs_dir} {outputs_dir} {session_dir} {model} {base_url} {api_key} {max_steps} {time_limit_seconds})',
    ],
    [
      'an unknown wire protocol',
      { id: 'a', harness: 'claude-code', model: 'm', settings: { api: 'openai' } },
      'job.yaml:systems[a].settings.api: must be one of anthropic, openai-chat, openai-responses, gemini',
    ],
    [
      'a base URL that is not http(s)',
      { id: 'a', harness: 'codex', model: 'm', settings: { baseUrl: 'ftp://models.example' } },
      'job.yaml:systems[a].settings.baseUrl: must be an http:// or https:// URL',
    ],
  ])('refuses %s', (_name, system, expected) => {
    expect(problemsOf(withSystem(system))).toEqual([expected]);
  });

  it('accepts every scripted agent, model harnesses with a model, and a complete command harness', () => {
    const systems = [
      { id: 's', harness: 'scripted', settings: { agent: 'superseded-decision' } },
      { id: 'c', harness: 'claude-code', model: 'm', settings: { baseUrl: 'http://127.0.0.1:18080' } },
      { id: 'x', harness: 'command', settings: { image: 'me/agent', command: 'a {instruction_file} {outputs_dir}' } },
    ];
    expect(problemsOf({ ...baseJob(), systems })).toEqual([]);
  });
});

describe('job: judge setup', () => {
  it('needs provider, model and apiKeyEnv for a mode that calls a model', () => {
    expect(problemsOf({ ...baseJob(), judge: { mode: 'per-item' } })).toEqual([
      'job.yaml:judge.provider: is missing: judge mode per-item calls a model, so it needs a provider (openai or anthropic) (or use mode checks-only)',
      "job.yaml:judge.model: is missing: judge mode per-item calls a model, so it needs the judge model's name (or use mode checks-only)",
      "job.yaml:judge.apiKeyEnv: is missing: judge mode per-item calls a model, so it needs the NAME of the worker's environment variable holding the key (or use mode checks-only)",
    ]);
  });

  it('needs an http(s) base URL; a complete setup passes', () => {
    const judge = { mode: 'batched', provider: 'openai', model: 'gpt-5.1', apiKeyEnv: 'OPENAI_API_KEY' };
    vi.stubEnv('OPENAI_API_KEY', undefined);
    expect(problemsOf({ ...baseJob(), judge })).toEqual([
      'job.yaml:judge.apiKeyEnv: names OPENAI_API_KEY, which is not set in this environment, where the worker runs: export OPENAI_API_KEY=... before running (the key is read from there only)',
    ]);
    vi.stubEnv('OPENAI_API_KEY', 'set-on-the-worker');
    expect(problemsOf({ ...baseJob(), judge })).toEqual([]);
    expect(problemsOf({ ...baseJob(), judge: { ...judge, baseUrl: 'file:///etc/passwd' } })).toEqual([
      'job.yaml:judge.baseUrl: must be an http:// or https:// URL',
    ]);
    vi.unstubAllEnvs();
  });
});

describe('job: limits and resources', () => {
  it.each([
    [{ trials: 1001 }, 'job.yaml:trials: Too big: expected number to be <=1000'],
    [{ concurrency: 1001 }, 'job.yaml:concurrency: Too big: expected number to be <=1000'],
    [{ limits: { agentSeconds: 604_801 } }, 'job.yaml:limits.agentSeconds: Too big: expected number to be <=604800'],
    [{ limits: { setupSeconds: 86_401 } }, 'job.yaml:limits.setupSeconds: Too big: expected number to be <=86400'],
    [{ resources: { memoryGiB: 0.01 } }, 'job.yaml:resources.memoryGiB: Too small: expected number to be >=0.0625'],
    [{ resources: { storageGiB: 20_000 } }, 'job.yaml:resources.storageGiB: Too big: expected number to be <=16384'],
    [{ resources: { pids: 4 } }, 'job.yaml:resources.pids: Too small: expected number to be >=16'],
    [{ judge: { attempts: 11 } }, 'job.yaml:judge.attempts: Too big: expected number to be <=10'],
  ])('refuses %o', (change, expected) => {
    expect(problemsOf({ ...baseJob(), ...change })).toEqual([expected]);
  });

  it("refuses more CPUs than this machine's", () => {
    const cpus = os.availableParallelism() + 1;
    expect(problemsOf({ ...baseJob(), resources: { cpus } })).toEqual([
      `job.yaml:resources.cpus: asks for ${cpus} CPUs, but this machine has ${os.availableParallelism()}; a container cannot have more CPUs than its host`,
    ]);
  });

  it('refuses a work volume smaller than the files copied into it', () => {
    const { dir, file } = setUp({ ...baseJob(), resources: { storageGiB: 0.0625 } });
    const big = path.join(dir, 'tasks/t1/inputs/big.bin');
    writeFileSync(big, '');
    truncateSync(big, 65 * 1024 ** 2); // sparse
    const { issues } = inspectJob(file, { repoRoot: dir, cwd: dir });
    expect(plain(issues)).toEqual([
      "job.yaml:resources.storageGiB: is 0.0625 GiB, but the files of task t1 alone take 65 MiB; the work volume holds them and the agent's output",
    ]);
  });
});

describe('job: results folder', () => {
  it('refuses /proc, /sys and /dev, also through a link', () => {
    expect(problemsOf({ ...baseJob(), results: '/proc/assay' })).toEqual([
      'job.yaml:results: results folder /proc/assay is on /proc, a kernel filesystem; give a real folder (the default is .assay/results/<id>)',
    ]);
    const { dir, file } = setUp({ ...baseJob(), results: 'out/r' });
    symlinkSync('/sys/kernel', path.join(dir, 'out'));
    const { issues } = inspectJob(file, { repoRoot: dir, cwd: dir });
    expect(plain(issues)).toEqual([
      `job.yaml:results: results folder ${path.join(dir, 'out/r')} is on /sys, a kernel filesystem; give a real folder (the default is .assay/results/<id>)`,
    ]);
  });

  it('refuses a results URL of another scheme, saying why, instead of making a folder named after it', () => {
    const { dir, file } = setUp({ ...baseJob(), results: 'gs://bucket/runs' });
    expect(plain(inspectJob(file, { repoRoot: dir, cwd: dir }).issues)).toEqual([
      expect.stringMatching(/^job\.yaml:results: gs:\/\/bucket\/runs: a job's results are a local folder or an s3:/),
    ]);
    expect(execFileSync('ls', ['-A', dir], { encoding: 'utf8' })).not.toMatch(/gs/);
  });

  it('takes an s3:// results location as written (the store is checked before a run, not here)', () => {
    const { dir, file } = setUp({ ...baseJob(), results: 's3://bucket/runs/' });
    const { job, issues } = inspectJob(file, { repoRoot: dir, cwd: dir });
    expect(issues).toEqual([]);
    expect(job?.resultsDir).toBe('s3://bucket/runs');
    expect(execFileSync('ls', ['-A', dir], { encoding: 'utf8' })).not.toMatch(/s3/);
  });

  it('refuses a results path that is a file or under one, and leaves no probe behind', () => {
    const { dir, file } = setUp({ ...baseJob(), results: 'tasks/t1/task.yaml/out' });
    const { issues } = inspectJob(file, { repoRoot: dir, cwd: dir });
    expect(plain(issues)).toEqual([
      `job.yaml:results: results folder ${path.join(dir, 'tasks/t1/task.yaml/out')} cannot be made: ${path.join(dir, 'tasks/t1/task.yaml')} is a file`,
    ]);
    expect(problemsOf({ ...baseJob(), results: 'benchmark.yaml' })).toEqual([
      expect.stringMatching(/^job\.yaml:results: results folder \/.*benchmark\.yaml exists and is not a folder$/),
    ]);
    mkdirSync(path.join(dir, 'fresh'));
    writeFileSync(file, stringify({ ...baseJob(), results: 'fresh/r' }));
    expect(inspectJob(file, { repoRoot: dir, cwd: dir }).issues).toEqual([]);
    expect(execFileSync('ls', ['-A', path.join(dir, 'fresh')], { encoding: 'utf8' })).toBe('');
  });
});

describe('job: checks that depend on the machine', () => {
  it('are left out when reading a job run elsewhere, and machineIssues gives them before a run', () => {
    const cpus = os.availableParallelism() + 1;
    const { dir, file } = setUp({ ...baseJob(), resources: { cpus }, results: '/dev/shm/assay' });
    const { job, issues } = inspectJob(file, { repoRoot: dir, cwd: dir, machine: false });
    expect(issues).toEqual([]);
    expect(machineIssues(job!, dir).map(formatIssue)).toEqual([
      'job.yaml:results: results folder /dev/shm/assay is on /dev, a kernel filesystem; give a real folder (the default is .assay/results/<id>)',
      `job.yaml:resources.cpus: asks for ${cpus} CPUs, but this machine has ${os.availableParallelism()}; a container cannot have more CPUs than its host`,
    ]);
  });
});

describe('job file: encoding, size, aliases, kind', () => {
  const text = stringify(baseJob());
  it.each([
    [
      'UTF-16 with a byte-order mark',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
      'job.yaml:(file): is UTF-16 (little-endian) text; YAML files must be UTF-8 (save it as UTF-8, without a byte-order mark)',
    ],
    [
      'UTF-16 without a byte-order mark',
      Buffer.from(text, 'utf16le'),
      'job.yaml:(file): has a NUL byte at offset 1, so it is binary (or UTF-16 without a byte-order mark); YAML files must be UTF-8 text',
    ],
    [
      'Latin-1',
      Buffer.from(`${text}# caf\xe9\n`, 'latin1'),
      'job.yaml:(file): is not valid UTF-8 (Latin-1 or another legacy encoding?); save it as UTF-8',
    ],
    [
      'an alias bomb',
      [
        'a: &a [x, x, x, x, x, x, x, x, x, x]',
        ...'bcdefgh'.split('').map((k, i) => {
          const prev = 'abcdefgh'[i];
          return `${k}: &${k} [*${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}]`;
        }),
      ].join('\n'),
      'job.yaml:(file): expands YAML aliases more than 100 times (an alias bomb?); write the values out instead of aliasing them',
    ],
    [
      'a file above 1 MiB',
      `${text}# ${'x'.repeat(1024 ** 2)}\n`,
      'job.yaml:(file): is 1 MiB; a YAML file of a benchmark or job is at most 1 MiB',
    ],
  ])('says so for %s', (_name, bytes, expected) => {
    expect(problemsOf({}, bytes)).toEqual([expected]);
  });

  it('says so for a folder or a FIFO given as the job file (reading a FIFO would block)', () => {
    const { dir } = setUp(baseJob());
    mkdirSync(path.join(dir, 'a-folder'));
    execFileSync('mkfifo', [path.join(dir, 'a-fifo.yaml')]);
    const lines = (f: string) => inspectJob(path.join(dir, f), { repoRoot: dir, cwd: dir }).issues.map(formatIssue);
    expect(lines('a-folder')).toEqual(['a-folder:(file): is a folder, not a YAML file']);
    expect(lines('a-fifo.yaml')).toEqual([
      'a-fifo.yaml:(file): is not a regular file (a FIFO, socket or device), so it cannot be a YAML file',
    ]);
  });
});

describe('job: budget and prices', () => {
  it('accepts a budget and a price table', () => {
    expect(
      problemsOf({
        ...baseJob(),
        budget: { usd: 250, tokens: 5e8, agentHours: 400, covers: 'agents' },
        prices: { 'my-model': { inputPerMTok: 1, outputPerMTok: 4 } },
      }),
    ).toEqual([]);
  });

  it.each([
    [{ budget: {} }, 'job.yaml:budget: needs at least one of usd, tokens, agentHours'],
    [{ budget: { usd: -5 } }, 'job.yaml:budget.usd:'],
    [{ budget: { usd: 5, covers: 'everyone' } }, 'job.yaml:budget.covers:'],
    [{ budget: { usd: 5, dollars: 5 } }, 'job.yaml:budget'],
    [{ prices: { m: { inputPerMTok: 1 } } }, 'job.yaml:prices.m.outputPerMTok:'],
  ])('refuses %j', (extra, problem) => {
    const problems = problemsOf({ ...baseJob(), ...extra });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(problem);
  });
});
