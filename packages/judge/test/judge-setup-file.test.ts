// A judge setup file never carries a key: a literal in any field named like a secret is refused as a
// job's judge is, the message names the field and never the value.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadJudgeSetupFile, parseJudgeSetup } from '../src/index.js';

const COMPLETE = { mode: 'per-item', provider: 'openai', model: 'm', apiKeyEnv: 'OPENAI_API_KEY' };
const SECRET =
  'looks like a secret (an API key or token), and judge setups are stored as written: ' +
  'export the key on the worker (export OPENAI_API_KEY=...) and name that variable in apiKeyEnv instead';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The message parseJudgeSetup throws, or '' when it accepts the setup. */
function refusal(raw: unknown): string {
  try {
    parseJudgeSetup(raw, 'judge.yaml');
    return '';
  } catch (err) {
    return (err as Error).message;
  }
}

describe('judge setup files refuse literal keys by their field', () => {
  it.each([
    ['apiKey', { ...COMPLETE, apiKey: 'plain' }, 'plain'],
    ['token', { ...COMPLETE, token: 1234 }, '1234'],
    ['client_secret', { ...COMPLETE, client_secret: 'abc' }, 'abc'],
    ['headers.authorization', { ...COMPLETE, headers: { authorization: 'Basic plain-words' } }, 'Basic plain-words'],
    ['apiKeys[0]', { judge: { ...COMPLETE, apiKeys: ['first-one'] } }, 'first-one'],
  ])('refuses a literal in %s, naming the field and not the value', (field, raw, value) => {
    const message = refusal(raw);
    expect(message).toBe(`judge setup judge.yaml is invalid: ${field} ${SECRET}`);
    expect(message).not.toContain(value);
  });

  it('masks a key written as a field name in the field it names', () => {
    const key = ['ghp', '1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R'].join('_'); // a fake, in GitHub's format
    const message = refusal({ ...COMPLETE, headers: { [key]: true } });
    expect(message).toBe(`judge setup judge.yaml is invalid: headers.*** ${SECRET}`);
  });

  it('refuses something other than a variable name in an apiKeyEnv-like field', () => {
    const message = refusal({ ...COMPLETE, apiKeyEnv: 'not a name' });
    expect(message).toMatch(
      /^judge setup judge\.yaml is invalid: apiKeyEnv must be the NAME of an environment variable/,
    );
    expect(message).not.toContain('not a name');
  });

  it('refuses a literal in a file, nested under judge:, without printing it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'judge-setup-'));
    dirs.push(dir);
    const file = path.join(dir, 'judge.yaml');
    writeFileSync(
      file,
      'judge:\n  mode: per-item\n  provider: openai\n  model: m\n  apiKeyEnv: OPENAI_API_KEY\n  apiKey: plain-secret\n',
    );
    const err = await loadJudgeSetupFile(file).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toBe(`judge setup ${file} is invalid: apiKey ${SECRET}`);
    expect(err?.message).not.toContain('plain-secret');
  });

  it('accepts a complete setup, and variable names and booleans where a secret could be', () => {
    expect(refusal(COMPLETE)).toBe('');
    expect(parseJudgeSetup({ judge: { ...COMPLETE, seed: 7 } }).apiKeyEnv).toBe('OPENAI_API_KEY');
    expect(refusal({ mode: 'checks-only' })).toBe('');
  });
});
