// The official Gemini SDK (@google/genai, what Gemini CLI uses) parses our Gemini replies.
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMockLlm, type MockLlmServer } from '../src/index.js';

const KEY = 'AIza-test-0c4f1d9e8b7a';
let server: MockLlmServer;
let ai: GoogleGenAI;

beforeAll(async () => {
  server = await startMockLlm({
    script: {
      chunkChars: 4,
      rules: [
        {
          match: { api: 'gemini', user: /file (?<name>\S+)/ },
          reply: {
            text: 'Reading it.',
            toolCalls: [{ name: 'read_file', arguments: { path: '{{name}}' } }],
            usage: { input: 40, output: 8 },
          },
        },
        {
          match: { api: 'gemini' },
          reply: { text: 'Plain answer from the scripted model.', usage: { input: 10, output: 7 } },
        },
      ],
    },
  });
  ai = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: server.url } });
});
afterAll(async () => {
  await server.close();
});

it('generateContent returns text, function calls and usage', async () => {
  const r = await ai.models.generateContent({ model: 'gemini-mock', contents: 'Please open file notes.md' });
  expect(r.text).toBe('Reading it.');
  expect(r.functionCalls).toEqual([{ name: 'read_file', args: { path: 'notes.md' } }]);
  expect(r.usageMetadata).toMatchObject({ promptTokenCount: 40, candidatesTokenCount: 8 });
});

it('generateContentStream yields chunks that add up to the reply', async () => {
  const stream = await ai.models.generateContentStream({ model: 'gemini-mock', contents: 'Hello' });
  let text = '';
  let last: unknown;
  for await (const chunk of stream) {
    text += chunk.text ?? '';
    last = chunk.usageMetadata;
  }
  expect(text).toBe('Plain answer from the scripted model.');
  expect(last).toMatchObject({ promptTokenCount: 10, candidatesTokenCount: 7, totalTokenCount: 17 });
  expect(server.sawCredential(KEY)).toBe(true);
  server.assertNoSecret(KEY);
});

it('countTokens answers in Gemini format', async () => {
  const r = await ai.models.countTokens({ model: 'gemini-mock', contents: 'Count these words please' });
  expect(r.totalTokens).toBeGreaterThan(0);
});
