export { startMockLlm, type MockLlmServer, type StartMockLlmOptions } from './start-mock-llm.js';
export { runMockLlmServer, type RunMockLlmServerOptions } from './run-mock-llm-server.js';
export { loadScriptFile, parseScript, estimateTokens } from './script.js';
export { sha256, type RecordedRequest, type RecordedCredential } from './recorder.js';
export type * from './types.js';
