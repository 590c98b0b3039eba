// Build the judge model from a judge setup. The key is read from the environment variable
// the setup names, handed to the SDK, and kept nowhere else.
import type { JudgeSetup } from '@assay/core';
import { createAnthropicModel } from './anthropic-model.js';
import type { JudgeModel } from './judge-model.js';
import { messages } from './messages.js';
import { createOpenAiChatModel } from './openai-chat-model.js';

export interface JudgeModelOptions {
  /** Where to read the key (default: process.env). */
  env?: Record<string, string | undefined>;
  /** SDK transport retries per model request (default 2). */
  transportRetries?: number;
  /** Output token cap per reply (default 4096). */
  maxOutputTokens?: number;
}

export function createJudgeModel(setup: JudgeSetup, options: JudgeModelOptions = {}): JudgeModel {
  if (!setup.provider || !setup.model) throw new Error(messages.missingProvider(setup.mode));
  if (!setup.apiKeyEnv) throw new Error(messages.missingKeyEnv());
  const apiKey = (options.env ?? process.env)[setup.apiKeyEnv];
  if (!apiKey) throw new Error(messages.missingKey(setup.apiKeyEnv));
  const o = {
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
  return setup.provider === 'anthropic' ? createAnthropicModel(o) : createOpenAiChatModel(o);
}
