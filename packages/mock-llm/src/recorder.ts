// What the server saw: every request with secrets replaced by their hash, and every
// log line. `assertNoSecret` proves a key never appears in plain text in either.
import { createHash } from 'node:crypto';
import type { ApiKind, FaultKind } from './script-schema.js';
import type { CacheAccounting } from './prompt-cache.js';
import type { FinalReply } from './types.js';
import { messages } from './messages.js';

export interface RecordedCredential {
  /** Header name (lower case) or `query:<name>`. */
  where: string;
  /** sha256 of the secret value (a `Bearer ` prefix removed). */
  sha256: string;
}

export interface RecordedRequest {
  seq: number;
  at: string;
  method: string;
  /** Path with any secret query values replaced. */
  path: string;
  api: ApiKind | null;
  model: string;
  stream: boolean;
  headers: Record<string, string>;
  credentials: RecordedCredential[];
  body: unknown;
  rule: string | null;
  fault: FaultKind | null;
  status: number;
  /** Usage of a reply delivered in full, else null. */
  usage: FinalReply['usage'] | null;
  /** What the prompt cache did for this prompt (even when the script fixed the usage sent); null when not simulated. */
  cache: CacheAccounting | null;
  reply: Pick<FinalReply, 'text' | 'toolCalls' | 'stopReason'> | null;
  outcome: 'ok' | 'fault' | 'unmatched' | 'bad-request' | 'not-found' | 'client-aborted';
  durationMs: number;
}

/** One batch created through a batch API (so a test can prove a batch was submitted once). */
export interface RecordedBatch {
  id: string;
  provider: 'openai' | 'anthropic';
  at: string;
  /** Requests in the batch. */
  requests: number;
  /** OpenAI's batch metadata (Anthropic has none). */
  metadata: Record<string, string> | null;
}

/** A request as recorded before it is answered: what it was, nothing yet of how it ended. */
export function openRecord(
  fields: Pick<
    RecordedRequest,
    'seq' | 'at' | 'method' | 'path' | 'api' | 'model' | 'headers' | 'credentials' | 'body'
  >,
): RecordedRequest {
  return {
    ...fields,
    stream: false,
    rule: null,
    fault: null,
    status: 0,
    usage: null,
    cache: null,
    reply: null,
    outcome: 'ok',
    durationMs: 0,
  };
}

const SECRET_HEADER = /(authorization|api-key|apikey|x-api-key|token|secret|cookie|key)/i;
const SECRET_QUERY = /^(key|api[-_]?key|token|access_token)$/i;

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

function stripScheme(v: string): string {
  return v.replace(/^(Bearer|Basic|Token)\s+/i, '');
}

/** Redact secret-looking headers; return the redacted copy and the credential hashes. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): {
  headers: Record<string, string>;
  credentials: RecordedCredential[];
} {
  const out: Record<string, string> = {};
  const credentials: RecordedCredential[] = [];
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    if (SECRET_HEADER.test(name) && value.length > 0) {
      const hash = sha256(stripScheme(value));
      credentials.push({ where: name.toLowerCase(), sha256: hash });
      out[name] = `[redacted sha256:${hash.slice(0, 12)}]`;
    } else out[name] = value;
  }
  return { headers: out, credentials };
}

/** Redact secret query values from a URL path; returns the safe path and credential hashes. */
export function redactUrl(rawUrl: string): { path: string; query: URLSearchParams; credentials: RecordedCredential[] } {
  const url = new URL(rawUrl, 'http://127.0.0.1');
  const credentials: RecordedCredential[] = [];
  const safe = new URLSearchParams();
  for (const [k, v] of url.searchParams) {
    if (SECRET_QUERY.test(k)) {
      const hash = sha256(v);
      credentials.push({ where: `query:${k}`, sha256: hash });
      safe.append(k, `[redacted sha256:${hash.slice(0, 12)}]`);
    } else safe.append(k, v);
  }
  const qs = safe.toString();
  return { path: url.pathname + (qs ? `?${qs}` : ''), query: url.searchParams, credentials };
}

export class Recorder {
  readonly requests: RecordedRequest[] = [];
  readonly logs: string[] = [];
  readonly batches: RecordedBatch[] = [];

  constructor(private readonly sink?: (line: string) => void) {}

  log(line: string): void {
    this.logs.push(line);
    this.sink?.(line);
  }

  /** Requests to model endpoints (not /models listings), optionally of one API. */
  modelCalls(api?: ApiKind): RecordedRequest[] {
    return this.requests.filter((r) => r.api !== null && (api === undefined || r.api === api));
  }

  /** Sum of usage of every reply delivered in full. */
  totalUsage(): { input: number; output: number; cachedInput: number } {
    return this.requests.reduce(
      (s, r) =>
        r.usage
          ? {
              input: s.input + r.usage.input,
              output: s.output + r.usage.output,
              cachedInput: s.cachedInput + r.usage.cachedInput,
            }
          : s,
      { input: 0, output: 0, cachedInput: 0 },
    );
  }

  clear(): void {
    this.requests.length = 0;
    this.logs.length = 0;
    this.batches.length = 0;
  }

  /** True when some request presented this secret (compared by hash). */
  sawCredential(secret: string): boolean {
    const h = sha256(secret);
    return this.requests.some((r) => r.credentials.some((c) => c.sha256 === h));
  }

  /** Throw if `secret` appears in plain text in any recorded request, log line, or extra text given. */
  assertNoSecret(secret: string, extra: Record<string, string> = {}): void {
    if (secret.length === 0) return;
    const places: Record<string, string> = {
      'recorded requests': JSON.stringify(this.requests),
      'server log': this.logs.join('\n'),
      ...extra,
    };
    for (const [where, text] of Object.entries(places))
      if (text.includes(secret)) throw new Error(messages.secretLeaked(where));
  }
}
