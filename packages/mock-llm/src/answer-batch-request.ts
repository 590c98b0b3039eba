// One request inside a batch, answered by the same steps as a live call (answer-model-call.ts):
// the same rule pick, fault draw, prompt-cache accounting, reply and usage, rendered as the
// non-streamed JSON body. Recorded like a live call (method BATCH) so usage and cache counts add up.
import { pickRule } from './answer-model-call.js';
import { messages } from './messages.js';
import { normalizeRequest } from './normalize-request.js';
import { countCacheBreakpoints, promptElements } from './prompt-elements.js';
import { openRecord, type RecordedRequest } from './recorder.js';
import { resolveReply } from './script.js';
import type { ServerState } from './server-state.js';
import type { ApiKind } from './types.js';
import { renderError, renderReplyJson, replyIdPrefix } from './wire/render-reply.js';

/** What became of one request of a batch. `body` is the reply (succeeded) or the API's error body. */
export type BatchLineOutcome =
  | { kind: 'succeeded'; status: 200; body: unknown }
  | { kind: 'errored'; status: number; body: unknown }
  | { kind: 'expired' }
  | { kind: 'canceled' };

export async function answerBatchRequest(
  server: ServerState,
  api: ApiKind,
  body: Record<string, unknown>,
  where: string,
): Promise<BatchLineOutcome> {
  const started = Date.now();
  const model = String(body.model ?? '');
  const rec = openBatchRecord(server, where, api, model, body);
  const done = (outcome: BatchLineOutcome, status: number, kind: RecordedRequest['outcome']): BatchLineOutcome => {
    rec.status = status;
    rec.outcome = kind;
    rec.durationMs = Date.now() - started;
    server.recorder.log(`#${rec.seq} BATCH ${where} -> ${outcome.kind}${rec.rule ? ` rule=${rec.rule}` : ''}`);
    return outcome;
  };
  const errored = (status: number, message: string, kind: RecordedRequest['outcome']) =>
    done({ kind: 'errored', status, body: renderError(api, status, message) }, status, kind);

  const breakpoints = api === 'anthropic' ? countCacheBreakpoints(body) : 0;
  if (breakpoints > 4) return errored(400, messages.tooManyCacheBreakpoints(breakpoints), 'bad-request');
  const raw = JSON.stringify(body);
  const { request, rule, fault } = pickRule(server, rec, normalizeRequest(api, body, model, false), raw);
  // A batch line has no connection: 429/500 become that line's error, `hang` never finishes in
  // time (expired); slow, truncate and malformed shape an HTTP reply and do not apply.
  if (fault?.kind === '429') return errored(429, messages.rateLimited(fault.retryAfter), 'fault');
  if (fault?.kind === '500') return errored(500, messages.serverError(), 'fault');
  if (fault?.kind === 'hang') return done({ kind: 'expired' }, 0, 'fault');
  const source = rule?.reply ?? server.script.script.default;
  if (source === undefined) return errored(400, messages.noRuleMatched(api, model), 'unmatched');

  rec.cache = server.promptCache.account(api, model, promptElements(api, body));
  const reply = await resolveReply(source, request, 'call_', rec.cache);
  server.replies += 1;
  const ctx = {
    id: `${replyIdPrefix(api)}mock${String(server.replies).padStart(8, '0')}${reply.toolCalls[0]?.id.slice(5, 17) ?? ''}`,
    model: reply.model ?? model,
    created: Math.floor(server.now() / 1000),
    chunkChars: server.script.script.chunkChars ?? 16,
    includeUsage: false,
  };
  rec.reply = { text: reply.text, toolCalls: reply.toolCalls, stopReason: reply.stopReason };
  rec.usage = reply.usage;
  return done({ kind: 'succeeded', status: 200, body: renderReplyJson(api, reply, ctx, body) }, 200, 'ok');
}

function openBatchRecord(
  server: ServerState,
  where: string,
  api: ApiKind,
  model: string,
  body: Record<string, unknown>,
): RecordedRequest {
  server.seq += 1;
  const rec = openRecord({
    seq: server.seq,
    at: new Date(server.now()).toISOString(),
    method: 'BATCH',
    path: where,
    api,
    model,
    headers: {},
    credentials: [],
    body,
  });
  server.recorder.requests.push(rec);
  return rec;
}
