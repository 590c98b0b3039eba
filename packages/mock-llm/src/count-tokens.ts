// Token counting endpoints (Anthropic count_tokens, Gemini countTokens), by the script's estimate.
// Anthropic's count is the whole prompt as a Messages call without fixed usage bills it.
import { estimateTokens } from './estimate-tokens.js';
import { normalizeRequest } from './normalize-request.js';
import { promptElements } from './prompt-elements.js';
import type { Route } from './route-request.js';

export function countTokens(route: Route, body: Record<string, unknown>): unknown {
  if (route.gemini) {
    const inner = (body.generateContentRequest ?? body) as Record<string, unknown>;
    return { totalTokens: estimateTokens(normalizeRequest('gemini', inner, route.model ?? '', false).all) };
  }
  return {
    input_tokens: estimateTokens(
      promptElements('anthropic', body)
        .map((e) => e.text)
        .join(''),
    ),
  };
}
