// The YAML/JSON script form: regex strings, {{group}} templates, `$each` arrays, turns and `times`.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadScriptFile, parseScript, runMockLlmServer, type MockLlmServer } from '../src/index.js';

const YAML = `
chunkChars: 8
rules:
  - name: verdicts
    match: { tool: submit_verdicts }
    reply:
      toolCalls:
        - name: submit_verdicts
          arguments:
            verdicts:
              $each: 'ITEM (?<id>[a-z0-9-]+):'
              in: user
              item: { itemId: '{{id}}', decision: satisfied, justification: 'checked {{id}}' }
  - name: second-turn
    match: { turn: { min: 2 } }
    reply: { text: 'turn {{turn}} for {{model}}' }
  - name: first-call-fails
    match: { user: 'flaky', call: 1 }
    fault: { kind: '500' }
  - name: once
    match: { user: 'once' }
    times: 1
    reply: { text: 'first time' }
default: { text: 'default reply', usage: { input: 3, output: 2 } }
`;

let server: MockLlmServer;
let dir: string;
const lines: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mock-llm-'));
  await writeFile(join(dir, 'script.yaml'), YAML);
  server = await runMockLlmServer({ scriptPath: join(dir, 'script.yaml'), detach: true, log: (l) => lines.push(l) });
});
afterAll(async () => {
  await server.close();
});

const openai = () => new OpenAI({ apiKey: 'sk-file-test', baseURL: `${server.url}/v1`, maxRetries: 1 });

it('expands $each into one array item per match', async () => {
  const r = await openai().chat.completions.create({
    model: 'judge',
    tools: [{ type: 'function', function: { name: 'submit_verdicts', parameters: {} } }],
    messages: [
      { role: 'user', content: 'ITEM a-1: totals add up\nITEM b-2: has a title page\nITEM c-3: cites sources' },
    ],
  });
  const call = r.choices[0]?.message.tool_calls?.[0];
  if (call?.type !== 'function') throw new Error('expected a function call');
  expect(JSON.parse(call.function.arguments)).toEqual({
    verdicts: ['a-1', 'b-2', 'c-3'].map((id) => ({
      itemId: id,
      decision: 'satisfied',
      justification: `checked ${id}`,
    })),
  });
});

it('matches on turn and fills {{turn}} and {{model}}', async () => {
  const r = await openai().chat.completions.create({
    model: 'm2',
    messages: [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
      { role: 'user', content: 'c' },
    ],
  });
  expect(r.choices[0]?.message.content).toBe('turn 2 for m2');
});

it('counts calls per conversation so a retry sees call 2', async () => {
  const r = await openai().chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'flaky' }] });
  expect(r.choices[0]?.message.content).toBe('default reply');
  expect(server.requests.filter((q) => JSON.stringify(q.body).includes('flaky')).map((q) => q.status)).toEqual([
    500, 200,
  ]);
});

it('stops using a rule after `times`', async () => {
  const a = await openai().chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'once' }] });
  const b = await openai().chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'once' }] });
  expect([a.choices[0]?.message.content, b.choices[0]?.message.content]).toEqual(['first time', 'default reply']);
  expect(server.totalUsage().input).toBeGreaterThan(0);
  expect(lines.some((l) => l.includes('rule=once'))).toBe(true);
});

it('rejects an invalid script with the field named', async () => {
  await writeFile(join(dir, 'bad.json'), JSON.stringify({ rules: [{ match: { turn: 'two' } }] }));
  await expect(loadScriptFile(join(dir, 'bad.json'))).rejects.toThrow(/rules\.0\.match\.turn/);
  expect(() => parseScript({ rules: [{ fault: { kind: 'explode' } }] })).toThrow(/fault\.kind/);
});
