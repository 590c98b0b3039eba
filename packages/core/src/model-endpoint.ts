// Which model endpoint a system's agent calls: the origin of its upstream (`settings.baseUrl`, else
// the provider's default for the harness's wire protocol). The job limits its lanes per endpoint
// when the endpoint answers 429 / overloaded (back-pressure); systems without a model route
// (scripted agents, `command` without `settings.api`) have no endpoint and are never limited.
import { isModelHarness, MODEL_APIS, type ModelApi, type ModelHarness } from './harness-names.js';
import type { SystemSpec } from './job-schema.js';
import type { EndpointView } from './workflow-io.js';

/** Provider endpoints used when a system gives no settings.baseUrl. */
export const DEFAULT_UPSTREAM: Record<ModelApi, string> = {
  anthropic: 'https://api.anthropic.com',
  'openai-chat': 'https://api.openai.com/v1',
  'openai-responses': 'https://api.openai.com/v1',
  gemini: 'https://generativelanguage.googleapis.com',
};

/** The wire protocol each model CLI speaks unless `settings.api` says otherwise (the adapters' own `api`). */
export const HARNESS_MODEL_API: Record<ModelHarness, ModelApi> = {
  'claude-code': 'anthropic',
  codex: 'openai-responses',
  'gemini-cli': 'gemini',
  'qwen-code': 'openai-chat',
  'kimi-cli': 'openai-chat',
  nanobot: 'openai-chat',
  hermes: 'openai-chat',
};

function isModelApi(v: unknown): v is ModelApi {
  return typeof v === 'string' && (MODEL_APIS as readonly string[]).includes(v);
}

/** The origin (`https://api.anthropic.com`, `http://127.0.0.1:18080`) the system's agent calls, or null. */
export function modelEndpoint(system: Pick<SystemSpec, 'harness' | 'settings'>): string | null {
  const { harness, settings } = system;
  let api: ModelApi;
  if (harness === 'command') {
    if (!isModelApi(settings.api)) return null;
    api = settings.api;
  } else if (isModelHarness(harness)) api = isModelApi(settings.api) ? settings.api : HARNESS_MODEL_API[harness];
  else return null;
  const upstream = typeof settings.baseUrl === 'string' ? settings.baseUrl : DEFAULT_UPSTREAM[api];
  try {
    return new URL(upstream).origin;
  } catch {
    return null;
  }
}

/** `api.anthropic.com`, `127.0.0.1:18080`: an endpoint as status lines show it. */
export function endpointLabel(endpoint: string): string {
  return endpoint.replace(/^https?:\/\//, '');
}

/** "127.0.0.1:18080 2/8 lanes, 37 throttled in the last 5 min": a status line of a limited endpoint. */
export function describeEndpoint(v: EndpointView): string {
  return `${endpointLabel(v.endpoint)} ${v.limit}/${v.concurrency} lanes, ${v.recentThrottled} throttled in the last 5 min`;
}
