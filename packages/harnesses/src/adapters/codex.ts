// OpenAI Codex CLI (npm @openai/codex): `codex exec --json` prints JSONL events; each
// `turn.completed` carries the turn's token usage. The provider is declared in
// $CODEX_HOME/config.toml (Responses API) with the proxy as base_url.
import type { Usage } from '@assay/core';
import type { AdapterContext, HarnessAdapter } from '../harness-adapter.js';
import { INSTALLS } from '../installs.js';
import fs from 'node:fs';
import path from 'node:path';
import { jsonLines, listFiles, num, obj, str } from '../json-lines.js';

const toml = (v: string) => JSON.stringify(v);

export function codexConfig(ctx: AdapterContext): string {
  const wire = ctx.settings.api === 'openai-chat' ? 'chat' : 'responses';
  return [
    '# Written by assay for one trial; the proxy adds the real key.',
    `model = ${toml(ctx.model)}`,
    'model_provider = "assay"',
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    'check_for_update_on_startup = false',
    '',
    '[model_providers.assay]',
    'name = "assay model proxy"',
    `base_url = ${toml(ctx.baseUrl)}`,
    'env_key = "ASSAY_CODEX_API_KEY"',
    `wire_api = "${wire}"`,
    'request_max_retries = 4',
    'stream_max_retries = 4',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[feedback]',
    'enabled = false',
    '',
    '[projects."/workspace"]',
    'trust_level = "trusted"',
    '',
  ].join('\n');
}

const common = (ctx: AdapterContext) => [
  '--json',
  '--skip-git-repo-check',
  '--dangerously-bypass-approvals-and-sandbox',
  '-m',
  ctx.model,
];

export const codex: HarnessAdapter = {
  name: 'codex',
  api: 'openai-responses',
  install: INSTALLS.codex,
  imageDir: 'codex',
  bin: 'codex',
  env: (ctx) => ({ CODEX_HOME: '/session/.codex', ASSAY_CODEX_API_KEY: ctx.apiKey, RUST_LOG: 'error' }),
  sessionFiles: (ctx) => [{ path: '.codex/config.toml', content: codexConfig(ctx) }],
  freshArgs: (ctx) => ['exec', ...common(ctx), '-C', '/workspace', '{prompt}'],
  resumeArgs: (ctx) => ['exec', 'resume', '--last', ...common(ctx), '{prompt}'],
  resumeTest: "find /session/.codex/sessions -name '*.jsonl' 2>/dev/null | grep -q .",
  // codex.py, before `codex exec resume --last`: nothing to resume is an error, not a new thread.
  resumeNeedsSession: 'Cannot resume Codex: no previous session logs found',
  // On a resumed thread `turn.completed` reports the thread's running total, so this
  // run's share is read from the rollout files: what this run appended to them.
  parseUsage: ({ logs, sessionDir, before }) => parseCodexRollouts(sessionDir, before ?? {}) ?? parseCodexEvents(logs),
  sessionId: ({ logs }) => {
    for (const e of jsonLines(logs))
      if (e.type === 'thread.started' && str(e.thread_id)) return str(e.thread_id) ?? null;
    return null;
  },
};

interface Totals {
  input: number;
  cached: number;
  output: number;
}

function lastTotal(text: string): { totals: Totals | null; responses: number } {
  let totals: Totals | null = null;
  let responses = 0;
  for (const e of jsonLines(text)) {
    const p = obj(e.payload);
    if (e.type !== 'event_msg' || p?.type !== 'token_count') continue;
    const t = obj(obj(p.info)?.total_token_usage);
    if (!t) continue;
    responses += 1;
    totals = {
      input: num(t.input_tokens),
      cached: num(t.cached_input_tokens),
      output: num(t.output_tokens) + num(t.reasoning_output_tokens),
    };
  }
  return { totals, responses };
}

/** This run's usage from $CODEX_HOME/sessions rollouts: last running total appended minus the one before the run. */
export function parseCodexRollouts(sessionDir: string, before: Record<string, number>): Usage | null {
  const prefix = '.codex/sessions';
  const files = listFiles(path.join(sessionDir, prefix)).filter((f) => f.endsWith('.jsonl'));
  let seen = false;
  const sum = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, costUsd: null, turns: 0 };
  for (const rel of files) {
    const buf = fs.readFileSync(path.join(sessionDir, prefix, rel));
    const offset = Math.min(before[`${prefix}/${rel}`] ?? 0, buf.length);
    const prior = lastTotal(buf.subarray(0, offset).toString('utf8')).totals ?? { input: 0, cached: 0, output: 0 };
    const now = lastTotal(buf.subarray(offset).toString('utf8'));
    if (!now.totals) continue;
    seen = true;
    sum.inputTokens += now.totals.input - prior.input;
    sum.cachedInputTokens += now.totals.cached - prior.cached;
    sum.outputTokens += now.totals.output - prior.output;
    sum.turns += now.responses;
  }
  return seen ? sum : null;
}

/** Sum of `turn.completed` usage (right for a fresh thread; cumulative on a resumed one); turns = model responses seen (agent steps). */
export function parseCodexEvents(logs: string): Usage | null {
  let seen = false;
  let input = 0;
  let cached = 0;
  let output = 0;
  let steps = 0;
  for (const e of jsonLines(logs)) {
    if (
      e.type === 'item.completed' &&
      ['agent_message', 'command_execution', 'file_change', 'mcp_tool_call', 'reasoning'].includes(
        String(obj(e.item)?.type),
      )
    )
      steps += 1;
    if (e.type !== 'turn.completed') continue;
    const u = obj(e.usage);
    if (!u) continue;
    seen = true;
    input += num(u.input_tokens);
    cached += num(u.cached_input_tokens);
    output += num(u.output_tokens);
  }
  return seen
    ? { inputTokens: input, outputTokens: output, cachedInputTokens: cached, costUsd: null, turns: steps }
    : null;
}
