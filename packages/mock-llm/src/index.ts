export { startMockLlm, type MockLlmServer, type StartMockLlmOptions } from './start-mock-llm.js';
export { runMockLlmServer, type RunMockLlmServerOptions } from './run-mock-llm-server.js';
export { loadScriptFile, parseScript } from './script.js';
export { estimateTokens } from './estimate-tokens.js';
export {
  createPromptCache,
  anthropicMinCacheableTokens,
  type PromptCache,
  type CacheAccounting,
} from './prompt-cache.js';
export { promptElements, type PromptElement } from './prompt-elements.js';
export { sha256, type RecordedRequest, type RecordedCredential } from './recorder.js';
export type * from './types.js';
