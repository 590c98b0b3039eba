// One judge session against a scripted model: every turn the model is shown, how the session
// ends, and what its record counts, pinned exactly.
import { describe, expect, it } from 'vitest';
import { ModelCallError, type ChatTurn, type JudgeModel, type ModelReply, type ToolCall } from '../src/judge-model.js';
import { runJudgeSession, type SessionInput } from '../src/run-judge-session.js';
import { CONTEXT, evidence, ITEMS } from './fixtures.js';

type Step = Omit<ModelReply, 'usage' | 'stopReason' | 'model'> | Error;

/** A model that answers from `steps` in order and keeps a copy of every conversation it was sent. */
function scriptedModel(steps: Step[]): { model: JudgeModel; seen: ChatTurn[][] } {
  const seen: ChatTurn[][] = [];
  const model: JudgeModel = {
    provider: 'openai',
    model: 'scripted',
    temperature: null,
    seed: null,
    complete: async ({ turns }) => {
      seen.push(structuredClone(turns));
      const step = steps[seen.length - 1];
      if (step === undefined) throw new Error('script ran out');
      if (step instanceof Error) throw step;
      const n = seen.length;
      return {
        ...step,
        usage: { inputTokens: 100 * n, outputTokens: 10 * n, cachedInputTokens: n, cacheWriteInputTokens: 0 },
        stopReason: 'end',
        model: `m-${n}`,
      };
    },
  };
  return { model, seen };
}

const call = (id: string, name: string, args: unknown): ToolCall => ({
  id,
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
});
const verdict = { decision: 'satisfied', justification: 'It says so.', evidence: ['q3-review.md line 4'] };

async function run(steps: Step[], over: Partial<SessionInput> = {}) {
  const { model, seen } = scriptedModel(steps);
  const out = await runJudgeSession({
    id: 's1',
    phase: 'batch',
    attempt: 1,
    model,
    evidence: evidence(),
    context: CONTEXT,
    items: ITEMS.slice(0, 2),
    overview: 'two files',
    maxSteps: 6,
    correctionTurns: 2,
    ...over,
  });
  const { wallMs, modelMs, ...record } = out.record;
  expect(wallMs).toBeGreaterThanOrEqual(modelMs);
  expect(modelMs).toBeGreaterThanOrEqual(0);
  // The first user turn is the prompt, pinned by the prompt tests; what follows is the session's own.
  const lastSent = seen.at(-1) ?? [];
  if (seen.length > 0) expect(lastSent[0]?.role).toBe('user');
  return { record, verdicts: [...out.verdicts.values()], reportedModel: out.reportedModel, turns: lastSent.slice(1) };
}

describe('runJudgeSession', () => {
  it('runs tools, corrects prose and a bad submission, then keeps the valid verdicts', async () => {
    const out = await run([
      { text: 'Looking.', toolCalls: [call('t1', 'search_text', { query: 'Riverside' })] },
      { text: 'Both are satisfied.', toolCalls: [] },
      { text: '', toolCalls: [call('t2', 'submit_verdicts', '{not json'), call('t3', 'search_text', { query: 'x' })] },
      {
        text: '',
        toolCalls: [
          call('t4', 'submit_verdicts', {
            verdicts: [
              { ...verdict, itemId: 'c-01' },
              { ...verdict, itemId: 'c-99' },
            ],
          }),
        ],
      },
    ]);
    expect(out).toMatchInlineSnapshot(`
      {
        "record": {
          "attempt": 1,
          "calls": 4,
          "id": "s1",
          "itemIds": [
            "c-01",
            "c-02",
          ],
          "malformedReplies": 3,
          "outcome": "partial",
          "phase": "batch",
          "resolvedItemIds": [
            "c-01",
          ],
          "steps": 4,
          "usage": {
            "cacheWriteInputTokens": 0,
            "cachedInputTokens": 10,
            "inputTokens": 1000,
            "outputTokens": 100,
          },
        },
        "reportedModel": "m-4",
        "turns": [
          {
            "role": "assistant",
            "text": "Looking.",
            "toolCalls": [
              {
                "arguments": "{"query":"Riverside"}",
                "id": "t1",
                "name": "search_text",
              },
            ],
          },
          {
            "results": [
              {
                "callId": "t1",
                "name": "search_text",
                "text": "q3-review.md line 9: | Riverside | $1.91M | +6.2% |",
              },
            ],
            "role": "tool-results",
          },
          {
            "role": "assistant",
            "text": "Both are satisfied.",
            "toolCalls": [],
          },
          {
            "role": "user",
            "text": "You must finish by calling submit_verdicts; a plain text answer is not recorded.",
          },
          {
            "role": "assistant",
            "text": "",
            "toolCalls": [
              {
                "arguments": "{not json",
                "id": "t2",
                "name": "submit_verdicts",
              },
              {
                "arguments": "{"query":"x"}",
                "id": "t3",
                "name": "search_text",
              },
            ],
          },
          {
            "results": [
              {
                "callId": "t2",
                "name": "submit_verdicts",
                "text": "verdict rejected: arguments are not valid JSON (Expected property name or '}' in JSON at position 1). Call the submit tool again with valid arguments.",
              },
              {
                "callId": "t3",
                "name": "search_text",
                "text": "not run: the submission was rejected",
              },
            ],
            "role": "tool-results",
          },
        ],
        "verdicts": [
          {
            "decision": "satisfied",
            "evidence": [
              "q3-review.md line 4",
            ],
            "itemId": "c-01",
            "justification": "It says so.",
          },
        ],
      }
    `);
  });

  it('gives up when the corrections are spent', async () => {
    const prose = { text: 'Satisfied.', toolCalls: [] };
    const badSubmit = { text: '', toolCalls: [call('t1', 'submit_verdict', verdict)] };
    expect(await run([prose, badSubmit], { correctionTurns: 1 })).toMatchInlineSnapshot(`
      {
        "record": {
          "attempt": 1,
          "calls": 2,
          "id": "s1",
          "itemIds": [
            "c-01",
            "c-02",
          ],
          "malformedReplies": 2,
          "outcome": "malformed",
          "phase": "batch",
          "resolvedItemIds": [],
          "steps": 2,
          "usage": {
            "cacheWriteInputTokens": 0,
            "cachedInputTokens": 3,
            "inputTokens": 300,
            "outputTokens": 30,
          },
        },
        "reportedModel": null,
        "turns": [
          {
            "role": "assistant",
            "text": "Satisfied.",
            "toolCalls": [],
          },
          {
            "role": "user",
            "text": "You must finish by calling submit_verdicts; a plain text answer is not recorded.",
          },
        ],
        "verdicts": [],
      }
    `);
  });

  it('completes a single item and names the model that submitted', async () => {
    const out = await run([{ text: '', toolCalls: [call('t1', 'submit_verdict', verdict)] }], {
      items: ITEMS.slice(0, 1),
    });
    expect(out).toMatchInlineSnapshot(`
      {
        "record": {
          "attempt": 1,
          "calls": 1,
          "id": "s1",
          "itemIds": [
            "c-01",
          ],
          "malformedReplies": 0,
          "outcome": "complete",
          "phase": "batch",
          "resolvedItemIds": [
            "c-01",
          ],
          "steps": 1,
          "usage": {
            "cacheWriteInputTokens": 0,
            "cachedInputTokens": 1,
            "inputTokens": 100,
            "outputTokens": 10,
          },
        },
        "reportedModel": "m-1",
        "turns": [],
        "verdicts": [
          {
            "decision": "satisfied",
            "evidence": [
              "q3-review.md line 4",
            ],
            "itemId": "c-01",
            "justification": "It says so.",
          },
        ],
      }
    `);
  });

  it('stops at the step limit while tools are still running', async () => {
    const search = { text: '', toolCalls: [call('t1', 'search_text', { query: 'Harbor' })] };
    expect((await run([search, search], { maxSteps: 2 })).record).toMatchInlineSnapshot(`
      {
        "attempt": 1,
        "calls": 2,
        "id": "s1",
        "itemIds": [
          "c-01",
          "c-02",
        ],
        "malformedReplies": 0,
        "outcome": "max-steps",
        "phase": "batch",
        "resolvedItemIds": [],
        "steps": 2,
        "usage": {
          "cacheWriteInputTokens": 0,
          "cachedInputTokens": 3,
          "inputTokens": 300,
          "outputTokens": 30,
        },
      }
    `);
  });

  it('ends on model errors by their kind, and before any call when already cancelled', async () => {
    const outcomes = [];
    for (const err of [
      new ModelCallError('request timed out', 'timeout'),
      new ModelCallError('cancelled', 'cancelled'),
      new ModelCallError('APIError 500: down', 'error', 500),
      new Error('boom'),
    ]) {
      const { record } = await run([{ text: '', toolCalls: [call('t1', 'search_text', { query: 'a' })] }, err]);
      outcomes.push([record.outcome, record.error, record.calls, record.steps]);
    }
    const aborted = AbortSignal.abort();
    const { record } = await run([], { signal: aborted });
    outcomes.push([record.outcome, record.error, record.calls, record.steps]);
    expect(outcomes).toMatchInlineSnapshot(`
      [
        [
          "timeout",
          "request timed out",
          2,
          2,
        ],
        [
          "cancelled",
          "cancelled",
          2,
          2,
        ],
        [
          "model-error",
          "APIError 500: down",
          2,
          2,
        ],
        [
          "model-error",
          "Error: boom",
          2,
          2,
        ],
        [
          "cancelled",
          undefined,
          0,
          0,
        ],
      ]
    `);
  });
});
