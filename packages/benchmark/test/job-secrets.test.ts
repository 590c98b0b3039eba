// A job never carries a key: whatever looks like one is refused with a sentence that says how to pass
// it, and no issue (field names included) ever shows the value.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { findSecrets, formatIssue, inspectJob, namesSecret, type Issue } from '../src/index.js';
import { validParts, writeBenchmark } from './benchmark-fixture.js';
import { SAMPLE_KEYS } from './sample-keys.js';

const SECRET =
  'looks like a secret (an API key or token), and a job is stored as written (job.json, the workflow history): ' +
  'export the key on the worker (export OPENAI_API_KEY=...) and name that variable in apiKeyEnv instead';
const NOT_ENV_NAME =
  'must be the NAME of an environment variable (capital letters, digits and _, like OPENAI_API_KEY), not a key: ' +
  'export the key on the worker (export OPENAI_API_KEY=...) and write only that name here';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function inspect(job: Record<string, unknown>): Issue[] {
  const dir = writeBenchmark(validParts());
  dirs.push(dir);
  writeFileSync(path.join(dir, 'job.yaml'), stringify(job));
  const { job: loaded, issues } = inspectJob(path.join(dir, 'job.yaml'), { repoRoot: dir, cwd: dir });
  expect(loaded).toBeNull();
  return issues;
}

const plain = (issues: Issue[]) => issues.map(({ line: _l, column: _c, ...rest }) => formatIssue(rest));

const jobWith = (system: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  schema: 'assay.job/v1',
  id: 'j',
  benchmark: '.',
  systems: [{ id: 'a', harness: 'codex', model: 'm', ...system }],
  ...extra,
});

describe('keys in a job', () => {
  it.each(Object.entries(SAMPLE_KEYS))('refuses a %s key in any field, without showing it', (_name, key) => {
    const issues = inspect(jobWith({ settings: { note: `use ${key} here` } }));
    expect(plain(issues)).toEqual([`job.yaml:systems[a].settings.note: ${SECRET}`]);
    expect(JSON.stringify(issues)).not.toContain(key);
  });

  const password = 'hunter22';
  const token = 'q8Z2kL9xV4mN7bR1tY6w';
  it.each([
    ['a key in apiKeyEnv', { settings: { apiKeyEnv: SAMPLE_KEYS.anthropic } }, 'settings.apiKeyEnv', NOT_ENV_NAME],
    [
      'an AWS key id (shaped like a name) in apiKeyEnv',
      { settings: { apiKeyEnv: SAMPLE_KEYS.aws } },
      'settings.apiKeyEnv',
      NOT_ENV_NAME,
    ],
    ['a lower-case name in apiKeyEnv', { settings: { apiKeyEnv: 'openai_key' } }, 'settings.apiKeyEnv', NOT_ENV_NAME],
    ['a random token in a field named token', { settings: { token } }, 'settings.token', SECRET],
    ['a password', { settings: { password } }, 'settings.password', SECRET],
    [
      'a key in the container environment',
      { settings: { env: { OPENAI_API_KEY: SAMPLE_KEYS.openai } } },
      'settings.env.OPENAI_API_KEY',
      SECRET,
    ],
    ['a key in the model name', { model: SAMPLE_KEYS.openai }, 'model', SECRET],
  ])('refuses %s, without showing it', (_name, system, field, reason) => {
    const issues = inspect(jobWith(system));
    expect(plain(issues)).toEqual([`job.yaml:systems[a].${field}: ${reason}`]);
    for (const value of [...Object.values(SAMPLE_KEYS), 'openai_key', token, password])
      expect(JSON.stringify(issues)).not.toContain(value);
  });

  it('refuses a key in the judge setup once, not again as an invalid URL', () => {
    const judge = { mode: 'checks-only', baseUrl: SAMPLE_KEYS.google, apiKeyEnv: SAMPLE_KEYS.openai };
    const issues = inspect(jobWith({}, { judge }));
    expect(plain(issues)).toEqual([`job.yaml:judge.baseUrl: ${SECRET}`, `job.yaml:judge.apiKeyEnv: ${NOT_ENV_NAME}`]);
    expect(JSON.stringify(issues)).not.toMatch(/AIza|sk-proj/);
  });

  it('masks a key used as a field name wherever the field is named', () => {
    const issues = inspect(jobWith({ settings: { [SAMPLE_KEYS.github]: true } }));
    expect(plain(issues)).toEqual([`job.yaml:systems[a].settings.***: ${SECRET}`]);
    expect(JSON.stringify(issues)).not.toContain(SAMPLE_KEYS.github);
  });

  it('masks a key in a field the schema reports too', () => {
    const issues = inspect({ ...jobWith({}), tasks: [SAMPLE_KEYS.openai] });
    expect(JSON.stringify(issues)).not.toContain(SAMPLE_KEYS.openai);
    expect(plain(issues)).toEqual([`job.yaml:tasks[0]: ${SECRET}`]);
  });

  it('leaves names, slugs, URLs and variable names alone', () => {
    const ok = {
      schema: 'assay.job/v1',
      id: 'sk-baseline-with-tools',
      systems: [
        {
          id: 'sk-learn-run-2',
          harness: 'claude-code',
          model: 'claude-sonnet-4-5-20250929',
          settings: {
            apiKeyEnv: 'ANTHROPIC_API_KEY',
            apiKeyHeader: 'x-api-key',
            baseUrl: 'https://api.anthropic.com/v1?region=eu',
            maxContextTokens: 262_144,
            tokenizer: 'cl100k_base',
          },
        },
      ],
      judge: { mode: 'per-item', provider: 'openai', model: 'gpt-5.1', apiKeyEnv: 'OPENAI_API_KEY' },
    };
    expect(findSecrets(ok)).toEqual([]);
  });
});

describe('literal values in fields named like a secret', () => {
  // Neither random nor in a published format: refused for the field they are in.
  it.each([
    [
      'an apiKey',
      { settings: { apiKey: 'sk-LITERAL-SECRET-5678abcdef' } },
      'settings.apiKey',
      'sk-LITERAL-SECRET-5678abcdef',
    ],
    ['a token', { settings: { token: 'hello' } }, 'settings.token', 'hello'],
    ['a password that is a number', { settings: { password: 1234 } }, 'settings.password', '1234'],
    ['a client_secret', { settings: { client_secret: 'abc' } }, 'settings.client_secret', 'abc'],
    ['an ACCESS_KEY', { settings: { ACCESS_KEY: 'plain' } }, 'settings.ACCESS_KEY', 'plain'],
    [
      'an authToken shaped like a variable name',
      { settings: { authToken: 'OPENAI_KEY' } },
      'settings.authToken',
      'OPENAI_KEY',
    ],
    [
      'a key in the container environment',
      { settings: { env: { OPENAI_API_KEY: 'not-random' } } },
      'settings.env.OPENAI_API_KEY',
      'not-random',
    ],
    [
      'a variable reference in the container environment (passed on as written)',
      { settings: { env: { ANTHROPIC_API_KEY: '$ANTHROPIC_API_KEY' } } },
      'settings.env.ANTHROPIC_API_KEY',
      '$ANTHROPIC_API_KEY',
    ],
    [
      'a header value',
      { settings: { headers: { Authorization: 'Basic dXNlcg' } } },
      'settings.headers.Authorization',
      'Basic dXNlcg',
    ],
    [
      'a value under a credentials mapping',
      { settings: { credentials: { user: 'me-myself' } } },
      'settings.credentials.user',
      'me-myself',
    ],
    ['an element of a list of keys', { settings: { apiKeys: ['one-of-them'] } }, 'settings.apiKeys[0]', 'one-of-them'],
  ])('refuses %s, without showing it', (_name, system, field, value) => {
    const issues = inspect(jobWith(system));
    expect(plain(issues)).toEqual([`job.yaml:systems[a].${field}: ${SECRET}`]);
    expect(JSON.stringify(issues)).not.toContain(value);
  });

  it("refuses a literal in the judge's apiKey once, not again as an unknown field", () => {
    const issues = inspect(jobWith({}, { judge: { mode: 'checks-only', apiKey: 'short' } }));
    expect(plain(issues)).toEqual([`job.yaml:judge.apiKey: ${SECRET}`]);
    expect(JSON.stringify(issues)).not.toContain('short');
  });

  it('masks a one-letter literal as a word, so the sentence around it stays readable', () => {
    const issues = inspect(jobWith({ settings: { token: 'e' } }));
    expect(plain(issues)).toEqual([`job.yaml:systems[a].settings.token: ${SECRET}`]);
  });

  it("knows a secret's field name in every casing", () => {
    const secret = ['apiKey', 'api_key', 'api-key', 'API_KEY', 'APIKey', 'ApiKey', 'apikey', 'x-api-key', 'key'];
    const more = ['token', 'authToken', 'refresh_token', 'secret', 'clientSecret', 'password', 'DB_PASSWORD', 'passwd'];
    const rest = ['pwd', 'passphrase', 'credential', 'credentials', 'authorization', 'bearer', 'accessKey'];
    const keys = ['privateKey', 'secret_key', 'SERVICE_KEY', 'signingKey', 'session-key', 'AWS_SECRET_ACCESS_KEY'];
    for (const field of [...secret, ...more, ...rest, ...keys]) expect(namesSecret(field), field).toBe(true);
  });

  it('leaves ordinary fields alone, and booleans, empty values and variable names in secret fields', () => {
    const ok = {
      settings: {
        apiKeyHeader: 'x-api-key',
        keyHeader: 'x-goog-api-key',
        authorizationHeader: 'Authorization',
        maxContextTokens: 262_144,
        maxTokens: 8192,
        tokens: 1000,
        tokenizer: 'cl100k_base',
        author: 'someone',
        monkey: 'business',
        keyboard: 'us',
        sortKey: 'id',
        primaryKey: 'task',
        rewardKey: 'reward',
        tokenUrl: 'https://auth.example.com/token',
        tokenEnv: 'MY_TOKEN',
        CLIENT_SECRET_ENV: 'CLIENT_SECRET',
        apiKeyEnv: 'OPENAI_API_KEY',
        secret: true,
        password: '',
        apiKey: null,
        env: { HOME: '/root', DEBUG: '1', TOKENIZERS_PARALLELISM: 'false', MASK_SECRETS: '1', STORE_TOKEN: false },
      },
      budget: { tokens: 5_000_000 },
    };
    expect(findSecrets(ok)).toEqual([]);
    for (const field of [
      'apiKeyHeader',
      'maxTokens',
      'tokens',
      'tokenizer',
      'author',
      'keyboard',
      'sortKey',
      'apiKeyEnv',
    ])
      expect(namesSecret(field), field).toBe(false);
  });

  it('accepts a job with such fields', () => {
    const dir = writeBenchmark(validParts());
    dirs.push(dir);
    const settings = { apiKeyHeader: 'x-api-key', maxTokens: 8192, author: 'me', tokenizer: 'o200k_base' };
    writeFileSync(path.join(dir, 'job.yaml'), stringify(jobWith({ settings })));
    const { job, issues } = inspectJob(path.join(dir, 'job.yaml'), { repoRoot: dir, cwd: dir });
    expect(plain(issues)).toEqual([]);
    expect(job).not.toBeNull();
  });
});
