// Qwen Code (npm @qwen-code/qwen-code): headless with the prompt as positional argument,
// stream-json events (Claude-style: system/assistant/user/result) on stdout. It speaks
// OpenAI Chat Completions here (--auth-type openai, OPENAI_BASE_URL to the proxy).
import type { HarnessAdapter, AdapterContext } from '../harness-adapter.js';
import { INSTALLS } from '../installs.js';
import type { Usage } from '@assay/core';
import { jsonLines, num, obj, str, type JsonObject } from '../json-lines.js';

const common = (ctx: AdapterContext) => [
  '--output-format',
  'stream-json',
  '--yolo',
  '--auth-type',
  ctx.settings.api === 'openai-responses' ? 'openai-responses' : 'openai',
  '-m',
  ctx.model,
  '--max-session-turns',
  String(ctx.maxSteps),
  '--max-wall-time',
  `${Math.max(1, Math.floor(ctx.timeLimitSeconds))}s`,
];

export const qwenCode: HarnessAdapter = {
  name: 'qwen-code',
  api: 'openai-chat',
  install: INSTALLS['qwen-code'],
  imageDir: 'qwen-code',
  bin: 'qwen',
  env: (ctx) => ({
    OPENAI_API_KEY: ctx.apiKey,
    OPENAI_BASE_URL: ctx.baseUrl,
    OPENAI_MODEL: ctx.model,
    QWEN_CODE_NO_RELAUNCH: 'true',
    GEMINI_CLI_NO_RELAUNCH: 'true',
  }),
  sessionFiles: (ctx) => [
    {
      path: '.qwen/settings.json',
      content: `${JSON.stringify(
        {
          general: { enableAutoUpdate: false, disableAutoUpdate: true, disableUpdateNag: true },
          privacy: { usageStatisticsEnabled: false },
          telemetry: { enabled: false },
          security: { auth: { selectedType: 'openai' }, folderTrust: { enabled: false } },
          model: { name: ctx.model },
        },
        null,
        2,
      )}\n`,
    },
  ],
  freshArgs: (ctx) => ['{prompt}', ...common(ctx)],
  resumeArgs: (ctx) => ['--continue', '{prompt}', ...common(ctx)],
  resumeTest: "find /session/.qwen/projects /session/.qwen/tmp -name '*.jsonl' 2>/dev/null | grep -q .",
  parseUsage: ({ logs }) => parseQwenResult(logs),
  sessionId: ({ logs }) => {
    for (const e of jsonLines(logs)) if (str(e.session_id)) return str(e.session_id) ?? null;
    return null;
  },
};

/**
 * Claude-shaped stream-json, but input_tokens already includes the cached part (OpenAI
 * semantics), and on a resumed session the `result` usage is the session's running total:
 * this run's usage is the sum over its own assistant messages (one per model response).
 */
function parseQwenResult(logs: string): Usage | null {
  const events = jsonLines(logs);
  const result = events.filter((e) => e.type === 'result').pop();
  const perMessage = new Map<string, JsonObject>();
  for (const e of events) {
    const m = obj(e.message);
    const u = obj(m?.usage);
    if (e.type === 'assistant' && m && u) perMessage.set(str(m.id) ?? String(perMessage.size), u);
  }
  const usages =
    perMessage.size > 0 ? [...perMessage.values()] : [obj(result?.usage)].filter((u): u is JsonObject => !!u);
  if (usages.length === 0) return null;
  return {
    inputTokens: usages.reduce((a, u) => a + num(u.input_tokens), 0),
    outputTokens: usages.reduce((a, u) => a + num(u.output_tokens), 0),
    cachedInputTokens: usages.reduce((a, u) => a + num(u.cache_read_input_tokens), 0),
    costUsd: null,
    turns: perMessage.size > 0 ? perMessage.size : typeof result?.num_turns === 'number' ? result.num_turns : null,
  };
}
