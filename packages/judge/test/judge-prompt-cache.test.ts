// The judge's prompt layout for provider prompt caches (#34 item 1): every session of one submission sends the
// same bytes up to the end of its submission part, where the Anthropic request puts a cache_control breakpoint
// (after the system prompt, after the submission block, on the conversation's last block: never more than 4);
// OpenAI's automatic prefix cache gets the same order. Checked on the request bodies the real SDKs sent.
import { judgeSetupSchema, type JudgeSetup } from '@assay/core';
import { startMockLlm, type MockLlmServer } from '@assay/mock-llm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createJudgeModel, judgeItems } from '../src/index.js';
import { CONTEXT, ITEMS, KEY_ENV, env, evidence, judgeScript } from './fixtures.js';

let server: MockLlmServer;
beforeAll(async () => {
  server = await startMockLlm({ script: judgeScript() });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.setScript(judgeScript());
  server.clearRecords();
});

function setup(over: Partial<JudgeSetup>): JudgeSetup {
  return judgeSetupSchema.parse({ apiKeyEnv: KEY_ENV, seed: 7, mode: 'per-item', ...over });
}

async function judge(s: JudgeSetup) {
  return judgeItems({
    items: ITEMS,
    context: CONTEXT,
    evidence: evidence(),
    setup: s,
    model: createJudgeModel(s, { env }),
    evidenceContextVersion: 'test/1',
  });
}

interface Block {
  type: string;
  text?: string;
  cache_control?: { type: string };
}
interface AnthropicBody {
  system: Block[];
  tools: { name: string; cache_control?: unknown }[];
  messages: { role: string; content: Block[] }[];
}

/** The request as the cache sees it, up to and including its block marked at `index` of the first message. */
function prefixOf(body: AnthropicBody, upTo: number): string {
  const first = body.messages[0]?.content.slice(0, upTo + 1) ?? [];
  return JSON.stringify([body.tools, body.system, first]);
}

describe("the judge's prompt layout for provider caches", () => {
  it('Anthropic: the submission part is byte-identical in every per-item session and ends at a breakpoint', async () => {
    const r = await judge(setup({ provider: 'anthropic', model: 'claude-judge', baseUrl: server.url }));
    expect(r.sessions).toHaveLength(ITEMS.length);
    const bodies = server.modelCalls('anthropic').map((c) => c.body as AnthropicBody);
    expect(bodies.length).toBeGreaterThanOrEqual(ITEMS.length * 2);
    for (const body of bodies) {
      const marks = [...body.system, ...body.tools, ...body.messages.flatMap((m) => m.content)].filter(
        (b) => 'cache_control' in b && b.cache_control,
      );
      expect(marks.length).toBeLessThanOrEqual(4);
      expect(body.system.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
      // The conversation's last block, where the next turn of the session reads from.
      expect(body.messages.at(-1)?.content.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    }
    const firstTurns = bodies.filter((b) => b.messages.length === 1);
    expect(firstTurns).toHaveLength(ITEMS.length);
    const prefixes = new Set(
      firstTurns.map((b) => {
        const content = b.messages[0]?.content ?? [];
        const shared = content.findIndex((block) => block.cache_control);
        expect(shared).toBe(0);
        expect(content[0]?.text).toContain('## Submission overview');
        expect(content[0]?.text).not.toMatch(/ITEM /);
        return prefixOf(b, shared);
      }),
    );
    expect(prefixes.size).toBe(1);
    // What follows the breakpoint is the session's own criterion, and the two blocks read as the one text.
    const texts = firstTurns.map((b) => (b.messages[0]?.content ?? []).map((block) => block.text).join(''));
    for (const [i, text] of texts.entries()) expect(text).toMatch(new RegExp(`ITEM ${ITEMS[i]?.id}:`));
  });

  it('Anthropic with promptCache off: no breakpoint anywhere, the same text', async () => {
    const s = setup({ provider: 'anthropic', model: 'claude-judge', baseUrl: server.url, promptCache: false });
    const r = await judge(s);
    expect(r.verdicts.every((v) => v.source === 'judge')).toBe(true);
    const bodies = server.modelCalls('anthropic').map((c) => JSON.stringify(c.body));
    expect(bodies.length).toBeGreaterThan(0);
    expect(bodies.filter((b) => b.includes('cache_control'))).toEqual([]);
  });

  it('OpenAI: every per-item session starts with the same system prompt, tools and submission part', async () => {
    await judge(setup({ provider: 'openai', model: 'judge-model', baseUrl: `${server.url}/v1` }));
    type ChatBody = { tools: unknown[]; messages: { role: string; content: string }[] };
    const firstTurns = server
      .modelCalls('openai-chat')
      .map((c) => c.body as ChatBody)
      .filter((b) => b.messages.length === 2);
    expect(firstTurns).toHaveLength(ITEMS.length);
    const user = firstTurns.map((b) => b.messages[1]?.content ?? '');
    const shared = user[0]?.slice(0, user[0].indexOf('## Criterion to decide')) ?? '';
    expect(shared).toContain('## Submission overview');
    const prefixes = new Set(
      firstTurns.map((b, i) => JSON.stringify([b.tools, b.messages[0], user[i]?.slice(0, shared.length)])),
    );
    expect(prefixes.size).toBe(1);
  });
});
