// What every SDK-backed judge model is configured with, and the client options both
// official SDKs (openai, @anthropic-ai/sdk) take under the same names.

export interface ProviderOptions {
  model: string;
  apiKey: string;
  baseUrl?: string;
  temperature: number;
  seed: number | null;
  timeoutMs: number;
  /** SDK-level retries of 429/5xx/connection errors within one model request. */
  transportRetries: number;
  maxOutputTokens: number;
  /** Send prompt-cache breakpoints where the provider takes them (judge setup `promptCache`). */
  promptCache: boolean;
}

/** The SDK client's connection settings: endpoint, key, per-request timeout and transport retries. */
export function toClientOptions(o: ProviderOptions): {
  apiKey: string;
  baseURL: string | undefined;
  timeout: number;
  maxRetries: number;
} {
  return { apiKey: o.apiKey, baseURL: o.baseUrl, timeout: o.timeoutMs, maxRetries: o.transportRetries };
}
