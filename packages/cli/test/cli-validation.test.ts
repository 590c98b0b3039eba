// What a user sees for inputs that must not run: a non-zero exit, file:field: reason lines, JSON
// whenever --json was asked for, and never the key a job or judge setup tried to carry.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseJudgeSetup } from '../../judge/src/judge-setup-file.js';
import { SAMPLE_KEYS } from '../../benchmark/test/sample-keys.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'assay-cli-validation-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const assay = (...args: string[]) => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'packages/cli/src/main.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, TEMPORAL_ADDRESS: '127.0.0.1:1' },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

/** The same with extra (or removed) variables, without blocking the test worker while it runs. */
const assayWith = (env: Record<string, string | undefined>, ...args: string[]) =>
  new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'packages/cli/src/main.ts'), ...args], {
      cwd: ROOT,
      env: Object.fromEntries(
        Object.entries({ ...process.env, TEMPORAL_ADDRESS: '127.0.0.1:1', ...env }).filter(([, v]) => v !== undefined),
      ),
    });
    let [out, err] = ['', ''];
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code, out, err }));
  });

const write = (name: string, content: string | Buffer): string => {
  const file = path.join(tmp, name);
  writeFileSync(file, content);
  return file;
};

const KEY = SAMPLE_KEYS.anthropic;
const jobWithKey = () =>
  write(
    'keyed.yaml',
    [
      'schema: assay.job/v1',
      'id: keyed',
      `benchmark: ${path.join(ROOT, 'datasets/sample')}`,
      'systems:',
      `  - { id: a, harness: claude-code, model: m, settings: { apiKeyEnv: ${KEY} } }`,
    ].join('\n'),
  );

describe('assay validate and run on inputs that must not run', () => {
  it('refuses a key in a job, in lines and in JSON, and never prints it', () => {
    const file = jobWithKey();
    const human = assay('validate', file);
    expect(human.code).toBe(1);
    expect(human.err).toContain(`${path.relative(ROOT, file)}:systems[a].settings.apiKeyEnv: must be the NAME of`);
    const json = assay('validate', file, '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ valid: false, issues: [{ field: 'systems[a].settings.apiKeyEnv' }] });
    const run = assay('run', file, '--json');
    expect(run.code).toBe(1);
    expect(JSON.parse(run.out)).toMatchObject({
      error: 'found 1 problem; nothing was started',
      issues: [expect.stringContaining('settings.apiKeyEnv: must be the NAME of')],
    });
    for (const r of [human, json, run]) expect(r.out + r.err).not.toContain(KEY);
  });

  it('names every key variable the worker will not find, before anything starts, and never a value', async () => {
    const results = path.join(tmp, 'keys-results');
    const file = write(
      'keys.yaml',
      [
        'schema: assay.job/v1',
        'id: keys',
        `benchmark: ${path.join(ROOT, 'datasets/sample')}`,
        `results: ${results}`,
        'systems:',
        '  - { id: a, harness: claude-code, model: m, settings: { apiKeyEnv: ASSAY_TEST_AGENT_KEY } }',
        'judge: { mode: per-item, provider: openai, model: j, apiKeyEnv: ASSAY_TEST_JUDGE_KEY }',
      ].join('\n'),
    );
    const unset = { ASSAY_TEST_AGENT_KEY: undefined, ASSAY_TEST_JUDGE_KEY: undefined };
    const rel = path.relative(ROOT, file);
    const v = await assayWith(unset, 'validate', file);
    expect(v.code).toBe(1);
    expect(v.err).toContain(
      `${rel}:systems[a].settings.apiKeyEnv: names ASSAY_TEST_AGENT_KEY, which is not set in this environment, where the worker runs: export ASSAY_TEST_AGENT_KEY=... before running`,
    );
    expect(v.err).toContain(`${rel}:judge.apiKeyEnv: names ASSAY_TEST_JUDGE_KEY, which is not set in this environment`);
    const run = await assayWith(unset, 'run', file, '--json');
    expect(run.code).toBe(1);
    expect(JSON.parse(run.out)).toMatchObject({
      error: 'found 2 problems; nothing was started',
      issues: [expect.stringContaining('ASSAY_TEST_JUDGE_KEY'), expect.stringContaining('ASSAY_TEST_AGENT_KEY')],
    });
    expect(existsSync(results)).toBe(false);
    // With an external worker the check speaks for this machine only: a warning, and the run goes on
    // (here to the unreachable server).
    const external = await assayWith(
      { ...unset, ASSAY_TEST_JUDGE_KEY: 'sk-judge-value-1234' },
      'run',
      file,
      '--no-worker',
    );
    expect(external.err).toContain(
      `warning: ${rel}:systems[a].settings.apiKeyEnv: names ASSAY_TEST_AGENT_KEY, which is not set on this machine; this is checked here only: with --no-worker the key must be exported as ASSAY_TEST_AGENT_KEY where "assay worker" runs`,
    );
    expect(external.err).not.toContain('ASSAY_TEST_JUDGE_KEY');
    expect(external.err).toContain('cannot reach the Temporal server at 127.0.0.1:1');
    const set = { ASSAY_TEST_AGENT_KEY: 'sk-agent-value-5678', ASSAY_TEST_JUDGE_KEY: 'sk-judge-value-1234' };
    const ok = await assayWith(set, 'validate', file);
    expect([ok.code, ok.out.trim()]).toEqual([0, 'job "keys" is valid']);
    for (const r of [v, run, external, ok]) expect(r.out + r.err).not.toMatch(/sk-(agent|judge)-value/);
    // checks-only never reads a judge key: naming an unset one is not a problem.
    const checksOnly = write(
      'checks-only.yaml',
      readFileSync(file, 'utf8').replace('mode: per-item', 'mode: checks-only'),
    );
    expect((await assayWith({ ...unset, ASSAY_TEST_AGENT_KEY: 'x' }, 'validate', checksOnly)).code).toBe(0);
  }, 300_000);

  it('refuses to run a job whose results would go under /proc (it used to spin in mkdir)', () => {
    const file = write(
      'proc.yaml',
      [
        'schema: assay.job/v1',
        'id: proc',
        `benchmark: ${path.join(ROOT, 'datasets/sample')}`,
        'systems: [{ id: a, harness: oracle }]',
        'results: /proc/assay-results',
      ].join('\n'),
    );
    const r = assay('run', file, '--no-worker');
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${path.relative(ROOT, file)}:results: results folder /proc/assay-results is on /proc`);
    expect(r.err.trim().split('\n').at(-1)).toBe('assay: found 1 problem; nothing was started');
  });

  it('names the file of an alias bomb, in JSON too', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (const [i, k] of [...'bcdefgh'].entries()) lines.push(`${k}: &${k} [${Array(9).fill(`*${'abcdefg'[i]}`)}]`);
    const file = write('bomb.yaml', lines.join('\n'));
    const r = assay('validate', file, '--json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).issues).toEqual([
      {
        file: path.relative(ROOT, file),
        field: '',
        reason:
          'expands YAML aliases more than 100 times (an alias bomb?); write the values out instead of aliasing them',
      },
    ]);
  });

  it('says a UTF-16 file is UTF-16, and a folder without benchmark.yaml is neither a benchmark nor a job', () => {
    const utf16 = write('utf16.yaml', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('id: x\n', 'utf16le')]));
    const folder = path.join(tmp, 'not-a-benchmark');
    mkdirSync(folder);
    const r = assay('validate', utf16);
    expect(r.code).toBe(1);
    expect(r.err).toContain(':(file): is UTF-16 (little-endian) text; YAML files must be UTF-8');
    const d = assay('validate', folder);
    expect(d.code).toBe(1);
    expect(d.err).toContain(
      'not-a-benchmark:(file): is a folder without a benchmark.yaml: give a benchmark folder (it has one) or a job file',
    );
  });

  it('refuses a judge setup file carrying a key, without printing it', () => {
    const setup = write('judge.yaml', `mode: per-item\nprovider: openai\nmodel: m\napiKeyEnv: ${KEY}\n`);
    const r = assay('judge', 'jobs/sample.yaml', '--judge', setup, '--json');
    expect(r.code).not.toBe(0);
    expect(JSON.parse(r.out).error).toMatch(/apiKeyEnv must be the NAME of an environment variable/);
    expect(r.out + r.err).not.toContain(KEY);
  });

  it('refuses two judge setups that would write to one judges/ folder, or one --name for several', () => {
    const setup = write('twice.yaml', 'mode: per-item\nprovider: openai\nmodel: m\napiKeyEnv: OPENAI_API_KEY\n');
    const twice = assay('judge', 'jobs/sample.yaml', '--judge', setup, '--judge', setup, '--json');
    expect(twice.code).not.toBe(0);
    expect(JSON.parse(twice.out).error).toMatch(/another setup is already named "twice"/);
    const named = assay('judge', 'jobs/sample.yaml', '--judge', setup, '--judge', setup, '--name', 'x', '--json');
    expect(JSON.parse(named.out).error).toMatch(/--name: names one judge setup, but 2 --judge files were given/);
  });
});

describe('judge setups refuse what jobs refuse', () => {
  it.each(Object.entries(SAMPLE_KEYS))('a %s key as apiKeyEnv, model or baseUrl', (_name, key) => {
    const complete = { mode: 'per-item', provider: 'openai', model: 'm', apiKeyEnv: 'OPENAI_API_KEY' };
    for (const field of ['apiKeyEnv', 'model', 'baseUrl']) {
      let message = '';
      try {
        parseJudgeSetup({ ...complete, [field]: key }, 'judge.yaml');
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message, field).toMatch(/^judge setup judge\.yaml is invalid: .*(NAME of an environment|secret)/);
      expect(message).not.toContain(key);
    }
  });

  it('needs provider, model and apiKeyEnv for a mode that calls a model', () => {
    expect(() => parseJudgeSetup({ mode: 'batched' }, 'j.yaml')).toThrow(/needs a provider .* and a model/);
    expect(() => parseJudgeSetup({ mode: 'batched', provider: 'openai', model: 'm' }, 'j.yaml')).toThrow(
      /has no apiKeyEnv/,
    );
    expect(parseJudgeSetup({ mode: 'checks-only' }).mode).toBe('checks-only');
  });
});
