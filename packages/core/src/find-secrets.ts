// A job (and a judge setup) never carries a key: job.json and the job workflow's input (Temporal
// history) store it verbatim. What looks like one is found by its format anywhere; by its field, in
// which any literal is a key (a field named like a secret: `apiKey`, `token`, `client_secret`, an
// `env:` map's OPENAI_API_KEY, and everything under such a field); by its randomness in a field that
// only resembles one; and by an `apiKeyEnv`-like field that holds something other than a variable
// name. The values found are returned so every issue can be masked. Pure: workflows import it too.

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

/** The lower-case words of a field name in camelCase, PascalCase, snake_case, kebab-case or SCREAMING_CASE. */
function fieldWords(field: string): string[] {
  return field
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2') // APIKey: API Key
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

/** A last word that names a secret by itself. Not `tokens` (maxTokens, budget.tokens count them) nor `secrets` (MASK_SECRETS). */
const SECRET_WORDS = new Set([
  'token',
  'secret',
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'credential',
  'credentials',
  'apikey',
  'apikeys',
  'authorization',
  'bearer',
]);

/** What makes a `key` a credential (apiKey, private_key, ACCESS_KEY), unlike sortKey or rewardKey. */
const KEY_QUALIFIERS = new Set([
  'api',
  'access',
  'secret',
  'private',
  'auth',
  'client',
  'service',
  'signing',
  'encryption',
  'master',
  'session',
  'license',
  'subscription',
  'account',
]);

function wordsNameSecret(words: readonly string[]): boolean {
  const last = words.at(-1);
  if (last === undefined) return false;
  if (SECRET_WORDS.has(last)) return true;
  if (last !== 'key' && last !== 'keys') return false;
  const before = words.at(-2);
  return before === undefined ? last === 'key' : KEY_QUALIFIERS.has(before);
}

/**
 * Whether a field named `field` holds a secret, so that any literal in it is a key: its last word is
 * token, secret, password, passwd, pwd, passphrase, credential(s), apikey, authorization or bearer,
 * or `key` alone or after api, access, secret, private, auth, client, ... (apiKey, OPENAI_API_KEY,
 * client-secret). A header name (apiKeyHeader), a URL, a count (maxTokens) or a variable name
 * (apiKeyEnv) ends in another word.
 */
export function namesSecret(field: string): boolean {
  return wordsNameSecret(fieldWords(field));
}

/** An `apiKeyEnv`-like field: it names the variable that holds a secret (tokenEnv, CLIENT_SECRET_ENV). */
export function namesSecretVariable(field: string): boolean {
  const words = fieldWords(field);
  return words.at(-1) === 'env' && wordsNameSecret(words.slice(0, -1));
}

/** Bits per character of the value's own character distribution. */
function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const c of value) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts.values()].reduce((bits, n) => bits - (n / value.length) * Math.log2(n / value.length), 0);
}

/** Fields that resemble a secret's without naming one (auth, tokenValue): only a random value there is a key. */
const SECRET_LIKE_FIELD = /key|token|secret|credential|auth|passw|pwd/i;

/** A token-shaped random value: what a key held in a field named like a secret looks like. */
function randomToken(value: string): boolean {
  return /^[A-Za-z0-9+/=_.~-]{16,}$/.test(value) && random(value) && entropy(value) >= 3;
}

export interface SecretFinding {
  path: readonly PropertyKey[];
  /** `key`: looks like a key; `env-name`: an apiKeyEnv-like field holding something other than a variable name. */
  kind: 'key' | 'env-name';
  /** What to mask wherever it would be shown (a number as written, e.g. "1234"). */
  value: string;
}

/** `secret`: the field, or one it is nested in, names a secret. */
function classify(field: string, value: string | number | bigint, secret: boolean): SecretFinding['kind'] | null {
  const text = String(value);
  const keyed = keyTokens(text).length > 0;
  // An AWS key id is also shaped like a variable name: its format decides.
  if (namesSecretVariable(field)) return typeof value === 'string' && ENV_NAME.test(text) && !keyed ? null : 'env-name';
  if (keyed) return 'key';
  if (text.trim() === '') return null;
  // Any literal, even one shaped like a variable name: an `env:` map hands it to the container as is.
  if (secret) return 'key';
  if (typeof value !== 'string' || ENV_NAME.test(value)) return null;
  return SECRET_LIKE_FIELD.test(field) && randomToken(value) ? 'key' : null;
}

/** Everything in `raw` (a file's data as parsed) that looks like a secret, mapping keys included. Booleans never do. */
export function findSecrets(raw: unknown): SecretFinding[] {
  const out: SecretFinding[] = [];
  const visit = (value: unknown, path: PropertyKey[], field: string, secret: boolean): void => {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') {
      const kind = classify(field, value, secret);
      if (kind) out.push({ path, kind, value: String(value) });
    } else if (Array.isArray(value)) value.forEach((v, i) => visit(v, [...path, i], field, secret));
    else if (value !== null && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) {
        if (keyTokens(k).length > 0) out.push({ path: [...path, k], kind: 'key', value: k });
        visit(v, [...path, k], k, secret || namesSecret(k));
      }
  };
  visit(raw, [], '', false);
  return out;
}
