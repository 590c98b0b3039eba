export * from './types.js';
export {
  createMemoryEvidence,
  type EvidenceSource,
  type EvidenceFile,
  type SearchHit,
  type MemoryFile,
} from './evidence-source.js';
export {
  ModelCallError,
  TurnDeferred,
  type JudgeModel,
  type ModelRequest,
  type ModelReply,
  type ChatTurn,
  type ToolSpec,
  type ToolCall,
} from './judge-model.js';
export { createJudgeModel, createJudgeBatchClient, type JudgeModelOptions } from './create-judge-model.js';
export { judgeItems, type JudgeItemsInput } from './judge-items.js';
export { PROMPT_VERSION } from './prompts.js';
export {
  verdictCacheKey,
  createMemoryVerdictCache,
  createDirectoryVerdictCache,
  withSingleFlight,
  withHeldWrites,
  CACHE_KEY_VERSION,
  type VerdictCache,
  type CachedVerdict,
} from './verdict-cache.js';
export { judgeCost, sumJudgeCosts, type JudgeCost, type TokenPrices } from './judge-cost.js';
export { parseJudgeSetup, loadJudgeSetupFile } from './judge-setup-file.js';
export { createJudge, type CreateJudgeOptions } from './create-judge.js';
export {
  createBatchClient,
  isBatchFailure,
  type BatchClient,
  type BatchClientOptions,
  type BatchEntry,
  type BatchResult,
  type BatchFailure,
  type BatchStatus,
  type BatchCounts,
} from './batch-client.js';
export {
  createTurnBook,
  createBatchedTurnModel,
  serializeTurn,
  parseTurn,
  serializeAnswer,
  parseAnswer,
  type TurnBook,
} from './batched-turns.js';
export { runBatchRounds, type BatchRound } from './run-batch-rounds.js';
export { awaitingBatchJudge, AWAITING_BATCH } from './awaiting-batch-judge.js';
