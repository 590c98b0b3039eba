// The price table is read from the providers' pages (src/model-prices.ts): these checks hold for
// every row of it, so a typo (a cache price above the input price, a cache write off the documented
// 1.25x, a model of no known provider) fails here rather than in a budget.
import { describe, expect, it } from 'vitest';
import {
  BATCH_DISCOUNT,
  MODEL_PRICES,
  PRICES_AS_OF,
  PRICE_SOURCES,
  jobSchema,
  type ModelPrice,
  type PriceProvider,
} from '../src/index.js';

const PROVIDER_PREFIXES: Record<PriceProvider, string> = { anthropic: 'claude-', openai: 'gpt-', google: 'gemini-' };
const PROVIDER_HOSTS: Record<PriceProvider, string[]> = {
  anthropic: ['platform.claude.com', 'docs.anthropic.com', 'www.anthropic.com', 'claude.com'],
  openai: ['developers.openai.com', 'platform.openai.com', 'openai.com'],
  google: ['ai.google.dev', 'cloud.google.com'],
};

function providerOf(model: string): PriceProvider | undefined {
  return (Object.keys(PROVIDER_PREFIXES) as PriceProvider[]).find((p) => model.startsWith(PROVIDER_PREFIXES[p]));
}

/** What is wrong with a price table, one line a problem; empty when every row is consistent. */
function problems(table: Readonly<Record<string, ModelPrice>>): string[] {
  const out: string[] = [];
  for (const [model, p] of Object.entries(table)) {
    const values = [p.inputPerMTok, p.outputPerMTok, p.cachedInputPerMTok, p.cacheWritePerMTok];
    if (values.some((v) => v !== undefined && !(Number.isFinite(v) && v > 0))) out.push(`${model}: a price is not > 0`);
    if (p.inputPerMTok > p.outputPerMTok) out.push(`${model}: input above output`);
    if (p.cachedInputPerMTok !== undefined && !(p.cachedInputPerMTok < p.inputPerMTok))
      out.push(`${model}: cache read not below input`);
    // Both providers that list cache writes price them at 1.25x the input price.
    if (p.cacheWritePerMTok !== undefined && Math.abs(p.cacheWritePerMTok - 1.25 * p.inputPerMTok) > 1e-9)
      out.push(`${model}: cache write is not 1.25x input`);
    const provider = providerOf(model);
    if (!provider) out.push(`${model}: no known provider`);
    else if (PRICE_SOURCES[provider].length === 0) out.push(`${model}: ${provider} has no source`);
  }
  return out;
}

describe('MODEL_PRICES', () => {
  it('is consistent row by row', () => {
    expect(Object.keys(MODEL_PRICES).length).toBeGreaterThan(0);
    expect(problems(MODEL_PRICES)).toEqual([]);
  });

  it('catches the typos it is there for', () => {
    const good = MODEL_PRICES['claude-opus-5-5'] as ModelPrice;
    expect(problems({ 'claude-opus-5-5': { ...good, cachedInputPerMTok: 40 } })).toEqual([
      'claude-opus-5-5: cache read not below input',
    ]);
    expect(problems({ 'claude-opus-5-5': { ...good, cacheWritePerMTok: 50 } })).toEqual([
      'claude-opus-5-5: cache write is not 1.25x input',
    ]);
    expect(problems({ 'claude-opus-5-5': { ...good, inputPerMTok: 200 } })).toContain(
      'claude-opus-5-5: input above output',
    );
    expect(problems({ 'mistral-large': { inputPerMTok: 1, outputPerMTok: 2 } })).toEqual([
      'mistral-large: no known provider',
    ]);
  });

  it('gives Anthropic rows both cache prices, as the pages list them', () => {
    for (const [model, p] of Object.entries(MODEL_PRICES))
      if (providerOf(model) === 'anthropic') {
        expect(p.cachedInputPerMTok, model).toBeDefined();
        expect(p.cacheWritePerMTok, model).toBeDefined();
      }
  });

  it('is accepted as a job file `prices:` block', () => {
    const job = { schema: 'assay.job/v1', id: 'j', benchmark: '.', systems: [{ id: 'a', harness: 'oracle' }] };
    const r = jobSchema.safeParse({ ...job, prices: MODEL_PRICES });
    expect(r.success ? [] : r.error.issues).toEqual([]);
  });
});

describe('price provenance', () => {
  it('PRICES_AS_OF is a real calendar date', () => {
    expect(PRICES_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(new Date(`${PRICES_AS_OF}T00:00:00Z`).toISOString().slice(0, 10)).toBe(PRICES_AS_OF);
  });

  it('every source is an https page of its own provider', () => {
    for (const [provider, urls] of Object.entries(PRICE_SOURCES) as [PriceProvider, readonly string[]][]) {
      expect(urls.length, provider).toBeGreaterThan(0);
      for (const url of urls) {
        const u = new URL(url);
        expect(u.protocol, url).toBe('https:');
        expect(PROVIDER_HOSTS[provider], url).toContain(u.hostname);
      }
    }
  });

  it('BATCH_DISCOUNT is a fraction of the standard price for every provider', () => {
    expect(Object.keys(BATCH_DISCOUNT).sort()).toEqual(Object.keys(PRICE_SOURCES).sort());
    for (const f of Object.values(BATCH_DISCOUNT)) {
      expect(f).toBeGreaterThan(0);
      expect(f).toBeLessThanOrEqual(1);
    }
  });
});
