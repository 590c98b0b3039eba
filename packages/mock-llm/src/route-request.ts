// Which endpoint a request is for, by method and path (any prefix, so `/v1/...` and bare both work).
import type { ApiKind } from './types.js';

export interface Route {
  api: ApiKind | 'count-tokens' | 'models';
  model?: string;
  /** count-tokens in Gemini's format. */
  gemini?: boolean;
  stream?: boolean;
  sse?: boolean;
}

export function routeRequest(method: string, pathname: string, query: URLSearchParams): Route | null {
  if (method === 'GET' && /\/models\/?$/.test(pathname)) return { api: 'models' };
  if (method !== 'POST') return null;
  if (/\/chat\/completions$/.test(pathname)) return { api: 'openai-chat' };
  if (/\/responses$/.test(pathname)) return { api: 'openai-responses' };
  if (/\/messages\/count_tokens$/.test(pathname)) return { api: 'count-tokens' };
  if (/\/messages$/.test(pathname)) return { api: 'anthropic' };
  const c = /\/models\/([^/:]+):countTokens$/.exec(pathname);
  if (c) return { api: 'count-tokens', model: decodeURIComponent(c[1] ?? ''), gemini: true };
  const g = /\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(pathname);
  if (g) {
    const stream = g[2] === 'streamGenerateContent';
    return { api: 'gemini', model: decodeURIComponent(g[1] ?? ''), stream, sse: stream && query.get('alt') === 'sse' };
  }
  return null;
}
