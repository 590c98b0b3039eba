// Gemini CLI (npm @google/gemini-cli): `gemini -p` headless, stream-json events on
// stdout; the final `result` event carries the session's token stats. The base URL
// goes through GOOGLE_GEMINI_BASE_URL (the @google/genai client's override).
import type { Usage } from '@assay/core';
import type { HarnessAdapter } from '../harness-adapter.js';
import { INSTALLS } from '../installs.js';
import { jsonLines, num, obj, str } from '../json-lines.js';

export const geminiCli: HarnessAdapter = {
  name: 'gemini-cli',
  api: 'gemini',
  install: INSTALLS['gemini-cli'],
  imageDir: 'gemini-cli',
  bin: 'gemini',
  env: (ctx) => ({
    GEMINI_API_KEY: ctx.apiKey,
    GOOGLE_GEMINI_BASE_URL: ctx.baseUrl,
    GEMINI_MODEL: ctx.model,
    GEMINI_CLI_NO_RELAUNCH: 'true',
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    GEMINI_TELEMETRY_ENABLED: 'false',
  }),
  sessionFiles: (ctx) => [
    {
      path: '.gemini/settings.json',
      content: `${JSON.stringify(
        {
          general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
          privacy: { usageStatisticsEnabled: false },
          telemetry: { enabled: false },
          security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
          model: { name: ctx.model, maxSessionTurns: ctx.maxSteps },
        },
        null,
        2,
      )}\n`,
    },
  ],
  freshArgs: (ctx) => ['-p', '{prompt}', '--output-format', 'stream-json', '--yolo', '--skip-trust', '-m', ctx.model],
  resumeArgs: (ctx) => [
    '--resume',
    'latest',
    '-p',
    '{prompt}',
    '--output-format',
    'stream-json',
    '--yolo',
    '--skip-trust',
    '-m',
    ctx.model,
  ],
  resumeTest: "find /session/.gemini/tmp -path '*chats*' -name '*.json*' 2>/dev/null | grep -q .",
  parseUsage: ({ logs }) => parseGeminiResult(logs),
  sessionId: ({ logs }) => {
    for (const e of jsonLines(logs)) if (e.type === 'init') return str(e.session_id) ?? str(e.sessionId) ?? null;
    return null;
  },
};

/** The `result` event's stats: per-model token counts when present, else the totals. */
function parseGeminiResult(logs: string): Usage | null {
  const result = jsonLines(logs)
    .filter((e) => e.type === 'result')
    .pop();
  const stats = obj(result?.stats);
  if (!stats) return null;
  const models = obj(stats.models);
  if (models && Object.keys(models).length > 0) {
    let input = 0;
    let output = 0;
    let cached = 0;
    let requests = 0;
    for (const m of Object.values(models)) {
      const mm = obj(m) ?? {};
      const t = obj(mm.tokens) ?? mm;
      input += num(t.prompt ?? t.input_tokens ?? t.input);
      output += num(t.candidates ?? t.output_tokens) + num(t.thoughts);
      cached += num(t.cached);
      requests += num(obj(mm.api)?.totalRequests);
    }
    return {
      inputTokens: input,
      outputTokens: output,
      cachedInputTokens: cached,
      costUsd: null,
      turns: requests || null,
    };
  }
  return {
    inputTokens: num(stats.input_tokens),
    outputTokens: num(stats.output_tokens),
    cachedInputTokens: num(stats.cached),
    costUsd: null,
    turns: null,
  };
}
