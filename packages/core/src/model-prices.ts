// List prices (USD per million tokens) the job's budget uses to turn recorded token counts into
// money, for the models this repo's jobs name. Providers change prices: check them before a paid
// run and override or add models in the job file (`prices:`). A model missing here and in the job
// is counted in tokens only (`spend.unpricedTokens`), never guessed.
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
  /** Cached input tokens read (prompt caching: a cache hit); the input price when absent. */
  cachedInputPerMTok?: number;
  /** Input tokens written to the prompt cache (Anthropic's 5-minute cache writes); the input price when absent. */
  cacheWritePerMTok?: number;
}

export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-5': { inputPerMTok: 1.25, outputPerMTok: 10, cachedInputPerMTok: 0.125 },
  'gpt-5.1': { inputPerMTok: 1.25, outputPerMTok: 10, cachedInputPerMTok: 0.125 },
  'gpt-5-mini': { inputPerMTok: 0.25, outputPerMTok: 2, cachedInputPerMTok: 0.025 },
  'gpt-4.1': { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 },
  'gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6, cachedInputPerMTok: 0.1 },
  'gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10, cachedInputPerMTok: 1.25 },
  'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6, cachedInputPerMTok: 0.075 },
  'claude-sonnet-4-5': { inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 0.3 },
  'claude-sonnet-4': { inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 0.3 },
  'claude-opus-4-1': { inputPerMTok: 15, outputPerMTok: 75, cachedInputPerMTok: 1.5 },
  'gemini-2.5-pro': { inputPerMTok: 1.25, outputPerMTok: 10, cachedInputPerMTok: 0.31 },
  'gemini-2.5-flash': { inputPerMTok: 0.3, outputPerMTok: 2.5, cachedInputPerMTok: 0.075 },
};
