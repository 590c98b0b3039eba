// The prefix-cache simulator on its own: canonical elements in, provider accounting out.
import { describe, expect, it } from 'vitest';
import { createPromptCache, estimateTokens, promptElements, type PromptElement } from '../src/index.js';
import { countCacheBreakpoints } from '../src/prompt-elements.js';

/** An element of exactly `tokens` tokens (4 characters each, the `user: ` tag and newline included). */
const el = (tokens: number, fill = 'a', breakpoint?: '5m' | '1h'): PromptElement => {
  const text = `user: ${fill.repeat(tokens * 4 - 7)}\n`;
  return breakpoint ? { text, breakpoint } : { text };
};

describe('Anthropic rules', () => {
  it('writes every breakpoint prefix over the minimum, then reads the longest', () => {
    let t = 0;
    const cache = createPromptCache({ now: () => t });
    const prompt = [el(1250, 's', '5m'), el(100, 'u', '5m'), el(50, 'q')];
    expect(cache.account('anthropic', 'claude-x', prompt)).toEqual({
      rule: 'anthropic',
      prompt: 1400,
      read: 0,
      write: 1350,
      write1h: 0,
      uncached: 50,
    });
    t += 1000;
    expect(cache.account('anthropic', 'claude-x', prompt)).toMatchObject({ read: 1350, write: 0, uncached: 50 });
    // Another model has its own cache.
    expect(cache.account('anthropic', 'claude-y', prompt)).toMatchObject({ read: 0, write: 1350 });
  });

  it('finds an earlier breakpoint by looking back from a moved one (up to 20 blocks)', () => {
    const cache = createPromptCache({ now: () => 0 });
    const turn1 = [el(1250, 's', '5m'), el(100, 'u', '5m')];
    cache.account('anthropic', 'm', turn1);
    // The next turn moves the conversation breakpoint to its new last block.
    const turn2 = [el(1250, 's'), el(100, 'u'), el(100, 'a'), el(100, 'v', '5m')];
    expect(cache.account('anthropic', 'm', turn2)).toMatchObject({ read: 1350, write: 200, uncached: 0 });
    // 25 blocks after the only cached prefix: beyond the lookback, a miss.
    const far = [
      el(1250, 's'),
      ...Array.from({ length: 25 }, (_, i) => el(10, String.fromCharCode(98 + (i % 20)))),
      el(5, 'z', '5m'),
    ];
    expect(cache.account('anthropic', 'm', far)).toMatchObject({ read: 0, write: 1505 });
  });

  it('never caches a prefix under the minimum (2048 for haiku models)', () => {
    const cache = createPromptCache({ now: () => 0 });
    const small = [el(1000, 's', '5m'), el(10, 'u')];
    cache.account('anthropic', 'claude-sonnet', small);
    expect(cache.account('anthropic', 'claude-sonnet', small)).toMatchObject({ read: 0, write: 0, uncached: 1010 });
    const mid = [el(1500, 's', '5m'), el(10, 'u')];
    expect(cache.account('anthropic', 'claude-sonnet', mid)).toMatchObject({ write: 1500 });
    expect(cache.account('anthropic', 'claude-3-5-haiku', mid)).toMatchObject({ write: 0 });
    expect(cache.account('anthropic', 'claude-3-5-haiku', mid)).toMatchObject({ read: 0 });
  });

  it('expires 5 min after the last read, 1 h with ttl 1h, and splits writes by TTL', () => {
    let t = 0;
    const cache = createPromptCache({ now: () => t });
    const prompt = [el(1100, 't', '1h'), el(1100, 's', '5m'), el(10, 'u')];
    expect(cache.account('anthropic', 'm', prompt)).toMatchObject({ write: 2200, write1h: 1100 });
    t = 4 * 60_000;
    expect(cache.account('anthropic', 'm', prompt)).toMatchObject({ read: 2200 });
    t += 4 * 60_000; // 8 min after the write, 4 after the read that refreshed it
    expect(cache.account('anthropic', 'm', prompt)).toMatchObject({ read: 2200 });
    t += 5 * 60_000 + 1; // the 5 min entry is gone; the 1 h one is still there
    expect(cache.account('anthropic', 'm', prompt)).toMatchObject({ read: 1100, write: 1100, write1h: 0 });
    t += 61 * 60_000;
    expect(cache.account('anthropic', 'm', prompt)).toMatchObject({ read: 0, write: 2200 });
  });
});

describe('OpenAI rules', () => {
  it('caches prompts from 1024 tokens in steps of 128', () => {
    const cache = createPromptCache({ now: () => 0 });
    const under = [el(1023)];
    cache.account('openai-chat', 'gpt', under);
    expect(cache.account('openai-chat', 'gpt', under)).toMatchObject({ prompt: 1023, read: 0 });
    const p = [el(1300, 'b')];
    expect(cache.account('openai-chat', 'gpt', p)).toMatchObject({ prompt: 1300, read: 0, write: 0 });
    expect(cache.account('openai-chat', 'gpt', p)).toMatchObject({ read: 1280, uncached: 20 });
    // A longer prompt with the same opening reads the steps it shares.
    expect(cache.account('openai-responses', 'gpt', [el(1300, 'b'), el(500, 'c')])).toMatchObject({ read: 1280 });
    expect(cache.account('openai-chat', 'gpt', [el(1800, 'b')])).toMatchObject({ read: 1280 });
    // A prompt that differs in its first byte shares nothing.
    expect(cache.account('openai-chat', 'gpt', [{ text: `x${el(1300, 'b').text.slice(1)}` }])).toMatchObject({
      read: 0,
    });
  });

  it('forgets a prefix after 5 min without use', () => {
    let t = 0;
    const cache = createPromptCache({ now: () => t });
    const p = [el(2000)];
    cache.account('openai-chat', 'gpt', p);
    t = 5 * 60_000 - 1;
    expect(cache.account('openai-chat', 'gpt', p)).toMatchObject({ read: 1920 });
    t += 5 * 60_000;
    expect(cache.account('openai-chat', 'gpt', p)).toMatchObject({ read: 0 });
    expect(cache.size).toBeGreaterThan(0);
    cache.clear();
    expect(cache.size).toBe(0);
  });
});

describe('canonical elements', () => {
  it('ignore where cache_control sits and count a prefix as the estimate of its text', () => {
    const body = {
      tools: [{ name: 'grep', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } }],
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral', ttl: '1h' } }],
      messages: [{ role: 'user', content: 'hi' }],
    };
    const els = promptElements('anthropic', body);
    expect(els.map((e) => e.text)).toEqual([
      'tool: {"name":"grep","input_schema":{"type":"object"}}\n',
      'system: Be brief.\n',
      'user: hi\n',
    ]);
    expect(els.map((e) => e.breakpoint)).toEqual(['5m', '1h', undefined]);
    const acct = createPromptCache().account('anthropic', 'm', els);
    expect(acct?.prompt).toBe(estimateTokens(els.map((e) => e.text).join('')));
    expect(createPromptCache().account('gemini', 'm', els)).toBeNull();
  });
});

describe('automatic caching', () => {
  it('a top-level cache_control marks the last block and counts as a breakpoint', () => {
    const body = { cache_control: { type: 'ephemeral' }, system: 'S', messages: [{ role: 'user', content: 'hi' }] };
    expect(promptElements('anthropic', body).map((e) => e.breakpoint)).toEqual([undefined, '5m']);
    expect(countCacheBreakpoints(body)).toBe(1);
  });
});
