// Build the judge model from a judge setup. The key is read from the environment variable
// the setup names, handed to the SDK, and kept nowhere else.
import type { JudgeSetup } from '@assay/core';
import { createAnthropicModel } from './anthropic-model.js';
import { createBatchClient, type BatchClient } from './batch-client.js';
import type { JudgeModel } from './judge-model.js';
import { messages } from './messages.js';
import { createOpenAiChatModel } from './openai-chat-model.js';
import type { ProviderOptions } from './provider-options.js';

export interface JudgeModelOptions {
  /** Where to read the key (default: process.env). */
  env?: Record<string, string | undefined>;
  /** SDK transport retries per model request (default 2). */
  transportRetries?: number;
  /** Output token cap per reply (default 4096). */
  maxOutputTokens?: number;
}

export function createJudgeModel(setup: JudgeSetup, options: JudgeModelOptions = {}): JudgeModel {
  const o = providerOptionsOf(setup, options);
  return setup.provider === 'anthropic' ? createAnthropicModel(o) : createOpenAiChatModel(o);
}

/** The setup's provider batch API, configured as its live model is (same key, endpoint, sampling, caps). */
export function createJudgeBatchClient(setup: JudgeSetup, options: JudgeModelOptions = {}): BatchClient {
  const o = providerOptionsOf(setup, options);
  return createBatchClient({ ...o, provider: setup.provider === 'anthropic' ? 'anthropic' : 'openai' });
}

function providerOptionsOf(setup: JudgeSetup, options: JudgeModelOptions): ProviderOptions {
  if (!setup.provider || !setup.model) throw new Error(messages.missingProvider(setup.mode));
  if (!setup.apiKeyEnv) throw new Error(messages.missingKeyEnv());
  const apiKey = (options.env ?? process.env)[setup.apiKeyEnv];
  if (!apiKey) throw new Error(messages.missingKey(setup.apiKeyEnv));
  return {
    model: setup.model,
    apiKey,
    baseUrl: setup.baseUrl,
    temperature: setup.temperature,
    seed: setup.seed ?? null,
    timeoutMs: setup.timeoutSeconds * 1000,
    transportRetries: options.transportRetries ?? 2,
    maxOutputTokens: options.maxOutputTokens ?? 4096,
    promptCache: setup.promptCache,
  };
}
