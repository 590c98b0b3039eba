// Token counting endpoints (Anthropic count_tokens, Gemini countTokens), by the script's estimate.
import { normalizeRequest } from './normalize-request.js';
import type { Route } from './route-request.js';
import { estimateTokens } from './script.js';

export function countTokens(route: Route, body: Record<string, unknown>): unknown {
  if (route.gemini) {
    const inner = (body.generateContentRequest ?? body) as Record<string, unknown>;
    return { totalTokens: estimateTokens(normalizeRequest('gemini', inner, route.model ?? '', false).all) };
  }
  return { input_tokens: estimateTokens(normalizeRequest('anthropic', body, String(body.model ?? ''), false).all) };
}
