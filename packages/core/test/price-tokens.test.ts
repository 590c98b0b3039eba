// Tokens to dollars: input read from and written to a prompt cache at their own prices, within the input count.
import { describe, expect, it } from 'vitest';
import { priceTokens, priceUsage, unitUsageOf, type ModelPrice } from '../src/index.js';

// Anthropic's shape of price: reads at a tenth of input, 5-minute writes at 1.25 times.
const SONNET: ModelPrice = { inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 0.3, cacheWritePerMTok: 3.75 };

describe('priceTokens', () => {
  it('bills cache reads and writes at their prices and the rest of the input at the input price', () => {
    const usage = { inputTokens: 1_000_000, cachedInputTokens: 600_000, cacheWriteInputTokens: 300_000 };
    // 100k plain input ($0.30) + 600k read ($0.18) + 300k written ($1.125) + 200k output ($3).
    expect(priceTokens({ ...usage, outputTokens: 200_000 }, SONNET)).toBeCloseTo(0.3 + 0.18 + 1.125 + 3, 10);
    // No cache prices in the table: every input token at the input price.
    const plain = { inputPerMTok: 3, outputPerMTok: 15 };
    expect(priceTokens({ ...usage, outputTokens: 0 }, plain)).toBeCloseTo(3, 10);
  });

  it('never bills more cached or written tokens than the input holds', () => {
    const over = { inputTokens: 100, outputTokens: 0, cachedInputTokens: 80, cacheWriteInputTokens: 80 };
    // 80 read, the other 20 written, nothing at the plain price.
    expect(priceTokens(over, SONNET)).toBeCloseTo((80 * 0.3 + 20 * 3.75) / 1e6, 12);
  });

  it("prices a judged verdict's cache writes in the job's spend, and a reused verdict not at all", () => {
    const judge = (usage: object, reused = false) => ({ judge: { model: 'claude-sonnet-4-5', reused, usage } });
    const usage = unitUsageOf(
      [
        {
          usage: null,
          agentSeconds: 0,
          verdicts: [
            judge({ inputTokens: 2000, outputTokens: 100, cachedInputTokens: 1500, cacheWriteInputTokens: 400 }),
            judge({ inputTokens: 9999, outputTokens: 9999, cachedInputTokens: 0 }, true),
          ],
        },
      ],
      null,
    );
    const spend = priceUsage(usage, { 'claude-sonnet-4-5': SONNET }, 'all');
    expect(spend.usd).toBeCloseTo((100 * 3 + 1500 * 0.3 + 400 * 3.75 + 100 * 15) / 1e6, 12);
    expect(spend.tokens).toBe(2100);
  });
});
