// Batch judging, turn by turn across all open sessions. Each round replays every judge session from
// its start (its tools are deterministic over one stored submission): a turn an earlier batch answered
// is served from the book, the first unanswered turn of a session defers it (TurnDeferred) and lands in
// the book's `deferred`; a round's deferred turns are the next batch. A round that defers nothing is the
// judging itself, decided by the same code as a live run, only with the batch's replies.
//
// A turn's key is a digest of the judge model and the whole request, plus how many identical requests came
// before it in the round (a retried session starts with the same request as the one it retries, and must get
// its own reply). No submission is named: identical requests are about identical evidence, so two trials with
// identical submissions share turns instead of paying twice when one of them leads in one round and the other
// in the next (the verdict cache decides which one records them). Anthropic custom ids allow 64 of [a-zA-Z0-9_-].
import { createHash } from 'node:crypto';
import { isBatchFailure, type BatchEntry, type BatchResult } from './batch-client.js';
import { ModelCallError, TurnDeferred, type ChatTurn, type JudgeModel, type ModelRequest } from './judge-model.js';
import { messages } from './messages.js';

export interface TurnBook {
  /** Replies (or the batch's failure) of earlier rounds, by turn key. */
  answers: ReadonlyMap<string, BatchResult>;
  /** This round's unanswered turns, by key. */
  deferred: Map<string, ModelRequest>;
  /** How often each request digest was asked this round. */
  asked: Map<string, number>;
}

export function createTurnBook(answers: ReadonlyMap<string, BatchResult>): TurnBook {
  return { answers, deferred: new Map(), asked: new Map() };
}

/** The judge's model identity (provider, model, sampling) with its turns answered from `book`. */
export function createBatchedTurnModel(
  identity: Pick<JudgeModel, 'provider' | 'model' | 'temperature' | 'seed'>,
  book: TurnBook,
): JudgeModel {
  return {
    provider: identity.provider,
    model: identity.model,
    temperature: identity.temperature,
    seed: identity.seed,
    batch: true,
    complete: (request) => {
      const digest = digestTurn(identity, request);
      const n = book.asked.get(digest) ?? 0;
      book.asked.set(digest, n + 1);
      const key = `t${digest.slice(0, 48)}-${n}`;
      const answer = book.answers.get(key);
      if (!answer) {
        book.deferred.set(key, request);
        return Promise.reject(new TurnDeferred(key));
      }
      if (isBatchFailure(answer))
        return Promise.reject(new ModelCallError(messages.batchFailed(answer.kind, answer.error), 'error'));
      return Promise.resolve(answer);
    },
  };
}

function digestTurn(identity: Pick<JudgeModel, 'provider' | 'model'>, request: ModelRequest): string {
  const { system, turns, tools } = request;
  const { provider, model } = identity;
  const text = JSON.stringify({ provider, model, system, turns, tools }, (_k, v: unknown) =>
    v instanceof Uint8Array ? `sha256:${createHash('sha256').update(v).digest('hex')}` : v,
  );
  return createHash('sha256').update(text).digest('hex');
}

/** One deferred turn as a line of JSON (page images in base64), to be batched by another process. */
export function serializeTurn(customId: string, request: ModelRequest): string {
  const { system, turns, tools } = request;
  return JSON.stringify({ customId, request: { system, turns: turns.map(encodeImages), tools } });
}

export function parseTurn(line: string): BatchEntry {
  const e = JSON.parse(line) as BatchEntry;
  return { customId: e.customId, request: { ...e.request, turns: e.request.turns.map(decodeImages) } };
}

/** A batch result as a line of JSON; `parseAnswer` reads it back. */
export function serializeAnswer(customId: string, result: BatchResult): string {
  return JSON.stringify({ customId, result });
}

export function parseAnswer(line: string): { customId: string; result: BatchResult } {
  const a = JSON.parse(line) as { customId: string; result: BatchResult };
  if (typeof a.customId !== 'string' || typeof a.result !== 'object' || a.result === null)
    throw new Error('not a batch answer line');
  return a;
}

type EncodedResult = { callId: string; name: string; text: string; image?: string };

function encodeImages(t: ChatTurn): ChatTurn {
  if (t.role !== 'tool-results') return t;
  const results = t.results.map((r) =>
    r.image ? { ...r, image: Buffer.from(r.image).toString('base64') } : r,
  ) as unknown as typeof t.results;
  return { role: 'tool-results', results };
}

function decodeImages(t: ChatTurn): ChatTurn {
  if (t.role !== 'tool-results') return t;
  const results = (t.results as unknown as EncodedResult[]).map(({ image, ...r }) =>
    image === undefined ? r : { ...r, image: new Uint8Array(Buffer.from(image, 'base64')) },
  );
  return { role: 'tool-results', results };
}
