// List prices (USD per million tokens) the job's budget uses to turn recorded token counts into
// money, for the current models of Anthropic, OpenAI and Google that a judge or agent here is likely
// to name. Every number below was read from the provider's own pages (PRICE_SOURCES) on
// PRICES_AS_OF; nothing is carried over from memory or from third-party price lists. Providers
// change prices: check them before a paid run and override or add models in the job file
// (`prices:`). A model missing here and in the job is counted in tokens only
// (`spend.unpricedTokens`), never guessed.
//
// What the table leaves out, on purpose:
// - Models whose current price could not be read on a provider page: Claude Fable 5.2, Claude
//   Sonnet 4.5 / Sonnet 4, Claude Haiku 4.5, GPT-6.2 Astra, GPT-6.1 Sol, GPT-6 Sol / Astra, GPT-5,
//   GPT-5 mini, GPT-4.1 (mini), GPT-4o (mini), and every Gemini model (Google's pricing page was not
//   found; only its optimization page, for the batch discount, was).
// - Claude Haiku 5.5: it has two price bands chosen per request by prompt length (up to 100K
//   tokens, and above), which a single flat row cannot express from aggregated token counts.
// - Long-context surcharges: the OpenAI models below bill a whole request at higher rates once its
//   input passes 272K tokens; the rows hold the standard (short-context) rates.
// - Batch, flex, priority/fast and regional-processing rates: see BATCH_DISCOUNT for batch.
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
  /** Cached input tokens read (prompt caching: a cache hit); the input price when absent. */
  cachedInputPerMTok?: number;
  /**
   * Input tokens written to the prompt cache (Anthropic's 5-minute cache writes; OpenAI's default
   * cache writes where its page lists them); the input price when absent.
   */
  cacheWritePerMTok?: number;
}

export type PriceProvider = 'anthropic' | 'openai' | 'google';

/** The day the prices below were read from the providers' pages. */
export const PRICES_AS_OF = '2026-12-06';

/**
 * The provider pages the prices were read from (the stored copies available on PRICES_AS_OF; the
 * version each showed is noted at the rows that use it).
 */
export const PRICE_SOURCES: Readonly<Record<PriceProvider, readonly string[]>> = {
  anthropic: [
    'https://platform.claude.com/docs/en/about-claude/pricing',
    'https://platform.claude.com/docs/about-claude/models/whats-new-opus-5',
    'https://platform.claude.com/docs/zh-CN/models/opus-5-5/overview',
    'https://platform.claude.com/docs/zh-CN/models/sonnet-5-5/overview',
    'https://platform.claude.com/docs/zh-CN/models/sonnet-5/overview',
  ],
  openai: [
    'https://developers.openai.com/api/docs/models/gpt-6.2-sol',
    'https://developers.openai.com/ja-JP/api/docs/models/gpt-6-luna',
    'https://developers.openai.com/api/docs/models/gpt-5.1',
  ],
  google: ['https://ai.google.dev/gemini-api/docs/optimization'],
};

/**
 * The fraction of the standard price each provider's batch API bills (0.5 = half price). All three
 * pages give batch requests half the standard rate: Anthropic on input and output for every model
 * page read, OpenAI on the GPT-6 model pages, Google on its optimization page.
 */
export const BATCH_DISCOUNT: Readonly<Record<PriceProvider, number>> = {
  anthropic: 0.5,
  openai: 0.5,
  google: 0.5,
};

/** A price as billed through the provider's batch API: every rate, cache reads and writes included, at its discount. */
export function batchPriceOf(price: ModelPrice, provider: PriceProvider): ModelPrice {
  const d = BATCH_DISCOUNT[provider];
  const out: ModelPrice = { inputPerMTok: price.inputPerMTok * d, outputPerMTok: price.outputPerMTok * d };
  if (price.cachedInputPerMTok !== undefined) out.cachedInputPerMTok = price.cachedInputPerMTok * d;
  if (price.cacheWritePerMTok !== undefined) out.cacheWritePerMTok = price.cacheWritePerMTok * d;
  return out;
}

export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  // Anthropic. Cache writes are the 5-minute ones (1.25x input on every page read); 1-hour writes
  // (2x input) are not modelled. Cache reads vary by model (0.025x to 0.1x input).
  // Model page (Chinese-language copy; lineup still shows Sonnet 5 and Haiku 4.5, so read
  // before the Sonnet 5.5 and Haiku 5.5 releases); Opus 5.5 is the flagship on the newest pages.
  'claude-opus-5-5': { inputPerMTok: 4, outputPerMTok: 20, cachedInputPerMTok: 0.2, cacheWritePerMTok: 5 },
  // Model page (Chinese-language copy, same era as above). Third-party changelogs report a cache-read
  // cut to 0.10 on 2026-10-07 that no provider page read here shows; kept at the page's 0.20.
  'claude-sonnet-5-5': { inputPerMTok: 2, outputPerMTok: 10, cachedInputPerMTok: 0.2, cacheWritePerMTok: 2.5 },
  // Model page (Chinese-language copy), legacy since Sonnet 5.5.
  'claude-sonnet-5': { inputPerMTok: 2, outputPerMTok: 10, cachedInputPerMTok: 0.2, cacheWritePerMTok: 2.5 },
  // whats-new-opus-5 (legacy page; its lineup already lists Haiku 5.5, so read after 2026-10-07).
  'claude-opus-5': { inputPerMTok: 5, outputPerMTok: 25, cachedInputPerMTok: 0.5, cacheWritePerMTok: 6.25 },
  // Pricing page (version whose newest Fable row is 5.1, so read before Fable 5.2's release).
  'claude-fable-5-1': { inputPerMTok: 10, outputPerMTok: 50, cachedInputPerMTok: 0.25, cacheWritePerMTok: 12.5 },
  // Pricing page, same version: retired on the Claude API, still served on Bedrock and Google Cloud.
  'claude-opus-4-1': { inputPerMTok: 15, outputPerMTok: 75, cachedInputPerMTok: 1.5, cacheWritePerMTok: 18.75 },

  // OpenAI. Cache writes as the model pages list them (30-minute retention on GPT-6.2 Sol).
  // Model page (lists GPT-6.2 Sol, released 2026-11-17): OpenAI's everyday flagship.
  'gpt-6.2-sol': { inputPerMTok: 2, outputPerMTok: 10, cachedInputPerMTok: 0.1, cacheWritePerMTok: 2.5 },
  // Model page (Japanese-language copy): the small, high-volume model.
  'gpt-6-luna': { inputPerMTok: 0.1, outputPerMTok: 0.5, cachedInputPerMTok: 0.01, cacheWritePerMTok: 0.125 },
  // Model page, marked deprecated; no cache-write price listed.
  'gpt-5.1': { inputPerMTok: 1.25, outputPerMTok: 10, cachedInputPerMTok: 0.125 },
};
