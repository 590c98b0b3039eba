// Claude Code (npm @anthropic-ai/claude-code): `claude -p` print mode, stream-json
// events on stdout, the final `result` event carries usage, cost and turns.
// Root in a container needs IS_SANDBOX=1 for --dangerously-skip-permissions.
import type { Usage } from '@assay/core';
import type { AdapterContext, HarnessAdapter } from '../harness-adapter.js';
import { INSTALLS } from '../installs.js';
import { jsonLines, num, obj, str } from '../json-lines.js';

export const claudeCode: HarnessAdapter = {
  name: 'claude-code',
  api: 'anthropic',
  install: INSTALLS['claude-code'],
  imageDir: 'claude-code',
  bin: 'claude',
  env: (ctx) => ({
    ANTHROPIC_BASE_URL: ctx.baseUrl,
    ANTHROPIC_API_KEY: ctx.apiKey,
    ANTHROPIC_MODEL: ctx.model,
    // Background calls (titles, summaries) use the small model: keep them on the same name.
    ANTHROPIC_SMALL_FAST_MODEL: String(ctx.settings.smallModel ?? ctx.model),
    ANTHROPIC_DEFAULT_HAIKU_MODEL: String(ctx.settings.smallModel ?? ctx.model),
    CLAUDE_CONFIG_DIR: '/session/.claude',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_BUG_COMMAND: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    IS_SANDBOX: '1',
  }),
  sessionFiles: () => [
    {
      path: '.claude/settings.json',
      content: `${JSON.stringify({ autoUpdates: false, includeCoAuthoredBy: false, env: { DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1' } }, null, 2)}\n`,
    },
  ],
  freshArgs: printArgs,
  // The same command, continuing the session's last conversation.
  resumeArgs: (ctx) => ['--continue', ...printArgs(ctx)],
  resumeTest: 'ls /session/.claude/projects/*/*.jsonl >/dev/null 2>&1',
  parseUsage: ({ logs }) => parseClaudeResult(logs),
  sessionId: ({ logs }) => {
    for (const e of jsonLines(logs)) if (str(e.session_id)) return str(e.session_id) ?? null;
    return null;
  },
};

/** Print mode: stream-json events, permissions bypassed (the container is the sandbox), the step cap as a turn cap. */
function printArgs(ctx: AdapterContext): string[] {
  return [
    '-p',
    '{prompt}',
    '--output-format',
    'stream-json',
    '--verbose',
    '--dangerously-skip-permissions',
    '--model',
    ctx.model,
    '--max-turns',
    String(ctx.maxSteps),
  ];
}

/**
 * Usage of Claude-style stream-json: the last `result` event. Per-model usage covers every
 * model used (background calls too); on a resumed session `modelUsage` and `total_cost_usd`
 * are cumulative over the session, so this run's `model_usage_since_last_result` wins.
 */
function parseClaudeResult(logs: string): Usage | null {
  const result = jsonLines(logs)
    .filter((e) => e.type === 'result')
    .pop();
  if (!result) return null;
  const turns = typeof result.num_turns === 'number' ? result.num_turns : null;
  const sinceLast = obj(result.model_usage_since_last_result);
  const perModel = sinceLast && Object.keys(sinceLast).length > 0 ? sinceLast : obj(result.modelUsage);
  if (perModel && Object.keys(perModel).length > 0) {
    let input = 0;
    let output = 0;
    let cached = 0;
    let cost = 0;
    for (const m of Object.values(perModel)) {
      const u = obj(m) ?? {};
      const read = num(u.cacheReadInputTokens);
      input += num(u.inputTokens) + read + num(u.cacheCreationInputTokens);
      output += num(u.outputTokens);
      cached += read;
      cost += num(u.costUSD);
    }
    return { inputTokens: input, outputTokens: output, cachedInputTokens: cached, costUsd: cost, turns };
  }
  const cost = typeof result.total_cost_usd === 'number' ? result.total_cost_usd : null;
  const u = obj(result.usage);
  if (!u) return null;
  const read = num(u.cache_read_input_tokens);
  return {
    inputTokens: num(u.input_tokens) + read + num(u.cache_creation_input_tokens),
    outputTokens: num(u.output_tokens),
    cachedInputTokens: read,
    costUsd: cost,
    turns,
  };
}
