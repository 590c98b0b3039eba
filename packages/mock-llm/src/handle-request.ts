// Every request: record it, route it, and answer model listings, bad bodies and token
// counts here; model calls go on to answerModelCall.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerAnthropicBatchApi } from './anthropic-batch-api.js';
import { answerModelCall } from './answer-model-call.js';
import { countTokens } from './count-tokens.js';
import { openExchange, type Exchange } from './exchange.js';
import { listModels } from './list-models.js';
import { messages } from './messages.js';
import { answerOpenAiBatchApi } from './openai-batch-api.js';
import { routeRequest } from './route-request.js';
import type { ServerState } from './server-state.js';
import { renderError } from './wire/render-reply.js';

export async function handleRequest(server: ServerState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { exchange: ex, raw } = await openExchange(server, req, res);
  const { method, path } = ex.rec;
  const url = new URL(req.url ?? '/', 'http://x');
  if (await answerBatchApi(server, ex, req, url, raw)) return;
  const route = routeRequest(method, url.pathname, url.searchParams);
  if (!route) {
    ex.sendJson(404, { error: { message: messages.unknownRoute(method, path), type: 'not_found_error' } });
    return ex.finish(404, 'not-found');
  }
  if (route.api === 'models') {
    ex.sendJson(200, listModels(server.recorder.requests));
    return ex.finish(200, 'ok');
  }
  const parsed = parseBody(raw);
  if ('error' in parsed) {
    const api = route.api === 'count-tokens' ? 'anthropic' : route.api;
    ex.sendJson(400, renderError(api, 400, messages.badJson(parsed.error)));
    return ex.finish(400, 'bad-request');
  }
  const body = parsed.body;
  ex.rec.body = body;
  if (route.api === 'count-tokens') {
    ex.sendJson(200, countTokens(route, body));
    return ex.finish(200, 'ok');
  }
  return answerModelCall(server, ex, { ...route, api: route.api }, body, raw);
}

function parseBody(raw: string): { body: Record<string, unknown> } | { error: string } {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    return { body: parsed as Record<string, unknown> };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** The batch and file endpoints (any path prefix); false when the request is for another endpoint. */
async function answerBatchApi(
  server: ServerState,
  ex: Exchange,
  req: IncomingMessage,
  url: URL,
  raw: string,
): Promise<boolean> {
  const method = ex.rec.method;
  const anthropic = /^(.*)\/messages\/batches(?:\/([^/]+))?(?:\/([^/]+))?\/?$/.exec(url.pathname);
  if (anthropic) {
    const origin = `http://${req.headers.host ?? '127.0.0.1'}${anthropic[1] ?? ''}`;
    const rest = [anthropic[2], anthropic[3]].filter((s): s is string => s !== undefined);
    await answerAnthropicBatchApi(server, ex, method, rest, url.searchParams, raw, origin);
    return true;
  }
  const openai = /\/(files|batches)(?:\/([^/]+))?(?:\/([^/]+))?\/?$/.exec(url.pathname);
  if (!openai) return false;
  const rest = [openai[1], openai[2], openai[3]].filter((s): s is string => s !== undefined);
  await answerOpenAiBatchApi(server, ex, method, rest, url.searchParams, raw);
  return true;
}
