// A request to a model endpoint: pick the script rule, apply its delay and fault, resolve
// the reply and deliver it in the API's wire format.
import { setTimeout as sleep } from 'node:timers/promises';
import { answerErrorFault, sendMalformed } from './apply-fault.js';
import type { Exchange } from './exchange.js';
import { messages } from './messages.js';
import { normalizeRequest } from './normalize-request.js';
import { countCacheBreakpoints, promptElements } from './prompt-elements.js';
import type { RecordedRequest } from './recorder.js';
import type { Route } from './route-request.js';
import { resolveReply } from './script.js';
import { sendStreamedReply, sendWholeReply } from './send-reply.js';
import type { ServerState } from './server-state.js';
import type { ApiKind, FinalReply, MockRequest, MockRule, ResolvedFault } from './types.js';
import type { WireContext } from './wire/chunk-text.js';
import { renderError, replyIdPrefix } from './wire/render-reply.js';

export async function answerModelCall(
  server: ServerState,
  ex: Exchange,
  route: Route & { api: ApiKind },
  body: Record<string, unknown>,
  raw: string,
): Promise<void> {
  const api = route.api;
  const model = route.model ?? String(body.model ?? '');
  const stream = route.stream ?? body.stream === true;
  ex.rec.api = api;
  ex.rec.model = model;
  ex.rec.stream = stream;
  // The API refuses this before any model work: no rule use, no cache update.
  const breakpoints = api === 'anthropic' ? countCacheBreakpoints(body) : 0;
  if (breakpoints > 4) {
    ex.sendJson(400, renderError(api, 400, messages.tooManyCacheBreakpoints(breakpoints)));
    return ex.finish(400, 'bad-request');
  }
  const { request, rule, fault } = pickRule(server, ex.rec, normalizeRequest(api, body, model, stream), raw);
  if (rule?.delayMs) await sleep(rule.delayMs);
  ex.watchAbort();
  if (await answerErrorFault(ex, api, fault)) return;

  const source = rule?.reply ?? server.script.script.default;
  if (source === undefined) {
    ex.sendJson(400, renderError(api, 400, messages.noRuleMatched(api, model)));
    return ex.finish(400, 'unmatched');
  }
  // The provider processed the prompt (even if the reply then breaks), so the cache sees it.
  ex.rec.cache = server.promptCache.account(api, model, promptElements(api, body));
  const reply = await resolveReply(source, request, 'call_', ex.rec.cache);
  const delivery = { api, reply, ctx: wireContext(server, ex, api, reply, body), body, fault };
  if (fault?.kind === 'malformed') return sendMalformed(ex, stream);
  if (!stream) return sendWholeReply(ex, delivery);
  return sendStreamedReply(ex, delivery, route.sse ?? true);
}

/** The first matching rule (consuming one use) and the fault it, or chance, injects; both recorded. */
export function pickRule(
  server: ServerState,
  rec: RecordedRequest,
  base: Omit<MockRequest, 'call' | 'groups'>,
  raw: string,
): { request: MockRequest; rule: MockRule | null; fault: ResolvedFault | null } {
  const state = server.script;
  const call = state.nextCall(base.conversationKey);
  const picked = state.pick({ ...base, call, groups: {} });
  rec.rule = picked.rule ? (picked.rule.name ?? `rule#${picked.index}`) : null;
  const fault = state.ruleFault(picked.rule) ?? (picked.rule?.noRandomFaults ? null : state.randomFault(raw));
  rec.fault = fault?.kind ?? null;
  return { request: { ...base, call, groups: picked.groups }, rule: picked.rule, fault };
}

function wireContext(
  server: ServerState,
  ex: Exchange,
  api: ApiKind,
  reply: FinalReply,
  body: Record<string, unknown>,
): WireContext {
  server.replies += 1;
  return {
    id: `${replyIdPrefix(api)}mock${String(server.replies).padStart(8, '0')}${reply.toolCalls[0]?.id.slice(5, 17) ?? ''}`,
    // The recorded request keeps the model asked for; the reply may name another.
    model: reply.model ?? ex.rec.model,
    created: Math.floor(ex.started / 1000),
    chunkChars: server.script.script.chunkChars ?? 16,
    includeUsage: (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true,
  };
}
