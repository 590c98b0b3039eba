// Judge setups from files (`assay judge JOB --judge other.yaml`): either a bare judge setup or
// a document with a `judge:` key (so a job file works too). Checked as a job's judge is by
// @assay/benchmark before anything is judged: no key in the file, a mode that calls a model has
// provider, model and apiKeyEnv, an http(s) base URL; a file that is not UTF-8 YAML says so.
import { readFile } from 'node:fs/promises';
import { findSecrets, maskKeys, judgeSetupSchema, type JudgeSetup } from '@assay/core';
import { parse as parseYaml } from 'yaml';
import { messages } from './messages.js';

/** The reasons below are this file's own (the sentences @assay/benchmark gives a job's judge). */
const reasons = {
  notEnvName: (field: string) =>
    `${field} must be the NAME of an environment variable (capital letters, digits and _, like OPENAI_API_KEY), ` +
    'not a key: export the key on the worker (export OPENAI_API_KEY=...) and write only that name here',
  secret: (field: string) =>
    `${field} looks like a secret (an API key or token), and judge setups are stored as written: ` +
    'export the key on the worker (export OPENAI_API_KEY=...) and name that variable in apiKeyEnv instead',
  notHttpUrl: 'baseUrl must be an http:// or https:// URL',
  notUtf8: 'is not UTF-8 text (UTF-16, binary or a legacy encoding); save it as UTF-8',
  yaml: (detail: string) => `is not valid YAML: ${detail}`,
};

/**
 * A field's place in the setup, as the schema's issues name it (`headers.authorization`, `models[0]`).
 * A part that is itself a key (a key written as a field name), or equal to a value found, is masked.
 */
function fieldName(path: readonly PropertyKey[], hidden: ReadonlySet<string>): string {
  const part = (p: PropertyKey) => (hidden.has(String(p)) ? '***' : maskKeys(String(p), '***'));
  return (
    path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${part(p)}`)).join('') || '(root)'
  );
}

/** Why the setup as written carries a key (checked as a job's judge is: every field, nested ones too), never quoting it. */
function secretProblems(doc: unknown): string[] {
  const found = findSecrets(doc);
  const hidden = new Set(found.map((f) => f.value));
  return found.map((f) => {
    const field = fieldName(f.path, hidden);
    return f.kind === 'env-name' ? reasons.notEnvName(field) : reasons.secret(field);
  });
}

/** A setup the judge can run: a mode that calls a model names it, its provider and its key variable. */
function completenessProblems(setup: JudgeSetup): string[] {
  const out: string[] = [];
  if (setup.mode !== 'checks-only' && (!setup.provider || !setup.model)) out.push(messages.missingProvider(setup.mode));
  if (setup.mode !== 'checks-only' && !setup.apiKeyEnv) out.push(messages.missingKeyEnv());
  if (setup.baseUrl !== undefined && !/^https?:\/\/[^/\s]/i.test(setup.baseUrl)) out.push(reasons.notHttpUrl);
  return out;
}

export function parseJudgeSetup(raw: unknown, where = '(object)'): JudgeSetup {
  const doc = raw && typeof raw === 'object' && 'judge' in raw ? (raw as { judge: unknown }).judge : raw;
  const secrets = secretProblems(doc);
  if (secrets.length > 0) throw new Error(messages.setupInvalid(where, secrets.join('; ')));
  const r = judgeSetupSchema.safeParse(doc ?? {});
  if (!r.success)
    throw new Error(
      messages.setupInvalid(
        where,
        r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '),
      ),
    );
  const incomplete = completenessProblems(r.data);
  if (incomplete.length > 0) throw new Error(messages.setupInvalid(where, incomplete.join('; ')));
  return r.data;
}

export async function loadJudgeSetupFile(path: string): Promise<JudgeSetup> {
  const bytes = await readFile(path);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    if (text.includes('\0')) throw new Error('NUL');
  } catch {
    throw new Error(messages.setupInvalid(path, reasons.notUtf8));
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    // Also an alias bomb (yaml's maxAliasCount): named by the file, in one line.
    const detail = (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
    throw new Error(messages.setupInvalid(path, reasons.yaml(maskKeys(detail, '***'))));
  }
  return parseJudgeSetup(raw, path);
}
