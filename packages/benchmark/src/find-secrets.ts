// A job (and a judge setup) never carries a key: job.json and the job workflow's input (Temporal
// history) store it verbatim. What looks like one is found by its format anywhere, by its randomness
// in a field named like a secret, and by an `apiKeyEnv`-like field that holds something other than a
// variable name. The values found are returned so every issue can be masked.
import type { Path } from './loose.js';

/** What an `apiKeyEnv` may hold: the NAME of the worker's environment variable. */
export const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;

/** A long run of letters and digits with both in it: random, not a name or a slug. */
const random = (token: string): boolean => /[A-Za-z0-9]{16,}/.test(token) && /\d/.test(token) && /[A-Za-z]/.test(token);

/** Published key formats; `check` where the prefix alone could start an ordinary word. */
const KEY_FORMATS: { re: RegExp; check?: (token: string) => boolean }[] = [
  { re: /\bsk-[A-Za-z0-9_-]{20,}/g, check: random }, // OpenAI sk-, sk-proj-; Anthropic sk-ant-
  { re: /\bAIza[0-9A-Za-z_-]{35}/g }, // Google
  { re: /\bgh[pousr]_[A-Za-z0-9]{30,}/g }, // GitHub
  { re: /\bgithub_pat_[A-Za-z0-9_]{30,}/g },
  { re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g }, // Slack
  { re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g }, // AWS access key id
  { re: /\bglpat-[A-Za-z0-9_-]{20,}/g }, // GitLab
  { re: /\bhf_[A-Za-z0-9]{30,}/g, check: random }, // Hugging Face
  { re: /-----BEGIN [A-Z ]*PRIVATE KEY-----/g },
  { re: /\bBearer\s+[A-Za-z0-9._~+/=-]{20,}/g },
];

/** The parts of `text` in a published key format. */
export function keyTokens(text: string): string[] {
  return KEY_FORMATS.flatMap(({ re, check }) =>
    [...text.matchAll(re)].map((m) => m[0]).filter((t) => !check || check(t)),
  );
}

/** `text` with every part in a published key format replaced by `mask`. */
export function maskKeys(text: string, mask: string): string {
  return keyTokens(text).reduce((out, token) => out.split(token).join(mask), text);
}

/** Bits per character of the value's own character distribution. */
function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const c of value) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts.values()].reduce((bits, n) => bits - (n / value.length) * Math.log2(n / value.length), 0);
}

const PASSWORD_FIELD = /passw|pwd/i;
const SECRET_FIELD = /key|token|secret|credential|auth/i;
const ENV_FIELD = /(key|token|secret|password)env$/i;

/** A token-shaped random value: what a key held in a field named like a secret looks like. */
function randomToken(value: string): boolean {
  return /^[A-Za-z0-9+/=_.~-]{16,}$/.test(value) && random(value) && entropy(value) >= 3;
}

export interface SecretFinding {
  path: Path;
  /** `key`: looks like a key; `env-name`: an apiKeyEnv-like field holding something other than a variable name. */
  kind: 'key' | 'env-name';
  /** What to mask wherever it would be shown. */
  value: string;
}

function classify(field: string, value: string): SecretFinding['kind'] | null {
  const keyed = keyTokens(value).length > 0;
  // An AWS key id is also shaped like a variable name: its format decides.
  if (ENV_FIELD.test(field)) return ENV_NAME.test(value) && !keyed ? null : 'env-name';
  if (keyed) return 'key';
  if (value === '' || ENV_NAME.test(value)) return null;
  if (PASSWORD_FIELD.test(field)) return 'key';
  return SECRET_FIELD.test(field) && randomToken(value) ? 'key' : null;
}

/** Everything in `raw` (a file's data as parsed) that looks like a secret, mapping keys included. */
export function findSecrets(raw: unknown): SecretFinding[] {
  const out: SecretFinding[] = [];
  const visit = (value: unknown, path: PropertyKey[], field: string): void => {
    if (typeof value === 'string') {
      const kind = classify(field, value);
      if (kind) out.push({ path, kind, value });
    } else if (Array.isArray(value)) value.forEach((v, i) => visit(v, [...path, i], field));
    else if (value !== null && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) {
        if (keyTokens(k).length > 0) out.push({ path: [...path, k], kind: 'key', value: k });
        visit(v, [...path, k], k);
      }
  };
  visit(raw, [], '');
  return out;
}
