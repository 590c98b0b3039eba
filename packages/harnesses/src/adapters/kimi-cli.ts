// Kimi CLI (PyPI kimi-cli, Python >= 3.12): `kimi --print -p` non-interactive,
// `--continue` resumes the previous session of the working directory. Config
// ~/.kimi/config.toml: an OpenAI-compatible provider (`openai_legacy`, Chat Completions)
// pointed at the proxy, telemetry off; KIMI_CLI_NO_AUTO_UPDATE=1. Usage: every step's
// StatusUpdate.token_usage in the session's wire.jsonl, the part this run appended.
import fs from 'node:fs';
import path from 'node:path';
import type { Usage } from '@assay/core';
import type { AdapterContext, HarnessAdapter } from '../harness-adapter.js';
import { INSTALLS } from '../installs.js';
import { jsonLines, listFiles, num, obj, type JsonObject } from '../json-lines.js';

const toml = (v: string) => JSON.stringify(v);

function kimiConfig(ctx: AdapterContext): string {
  const type =
    ctx.settings.api === 'openai-responses'
      ? 'openai_responses'
      : ctx.settings.api === 'anthropic'
        ? 'anthropic'
        : 'openai_legacy';
  return [
    '# Written by assay for one trial; the proxy adds the real key.',
    'default_model = "assay"',
    'default_yolo = true',
    'telemetry = false',
    '',
    '[providers.assay]',
    `type = "${type}"`,
    `base_url = ${toml(ctx.baseUrl)}`,
    `api_key = ${toml(ctx.apiKey)}`,
    '',
    '[models.assay]',
    'provider = "assay"',
    `model = ${toml(ctx.model)}`,
    `max_context_size = ${Number(ctx.settings.maxContextTokens ?? 262_144)}`,
    '',
    '[loop_control]',
    `max_steps_per_turn = ${ctx.maxSteps}`,
    '',
  ].join('\n');
}

const common = (ctx: AdapterContext) => [
  '--print',
  '--output-format',
  'stream-json',
  '-w',
  '/workspace',
  '--yolo',
  '--max-steps-per-turn',
  String(ctx.maxSteps),
  '-p',
  '{prompt}',
];

export const kimiCli: HarnessAdapter = {
  name: 'kimi-cli',
  api: 'openai-chat',
  install: INSTALLS['kimi-cli'],
  imageDir: 'kimi-cli',
  bin: 'kimi',
  env: () => ({
    KIMI_SHARE_DIR: '/session/.kimi',
    KIMI_CLI_NO_AUTO_UPDATE: '1',
    KIMI_DISABLE_TELEMETRY: '1',
    PYTHONUNBUFFERED: '1',
  }),
  sessionFiles: (ctx) => [{ path: '.kimi/config.toml', content: kimiConfig(ctx) }],
  freshArgs: (ctx) => common(ctx),
  resumeArgs: (ctx) => ['--continue', ...common(ctx)],
  resumeTest: "find /session/.kimi/sessions -name 'context.jsonl' -size +0 2>/dev/null | grep -q .",
  parseUsage: ({ sessionDir, before }) => parseKimiWire(sessionDir, before ?? {}),
  sessionId: ({ sessionDir }) => {
    const files = listFiles(path.join(sessionDir, '.kimi/sessions')).filter(
      (f) => f.endsWith('/context.jsonl') && !f.includes('/subagents/'),
    );
    return files.length === 1 ? (files[0]?.split('/').at(-2) ?? null) : null;
  },
};

/** Sum of token_usage over the StatusUpdate events this run appended to wire.jsonl files. */
export function parseKimiWire(sessionDir: string, before: Record<string, number>): Usage | null {
  const prefix = '.kimi/sessions';
  let seen = false;
  const sum = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, costUsd: null, turns: 0 };
  for (const rel of listFiles(path.join(sessionDir, prefix)).filter((f) => f.endsWith('wire.jsonl'))) {
    const buf = fs.readFileSync(path.join(sessionDir, prefix, rel));
    const appended = buf.subarray(Math.min(before[`${prefix}/${rel}`] ?? 0, buf.length)).toString('utf8');
    for (const e of jsonLines(appended)) {
      const u = findTokenUsage(e);
      if (!u) continue;
      seen = true;
      const cacheRead = num(u.input_cache_read);
      sum.inputTokens += num(u.input_other) + cacheRead + num(u.input_cache_creation);
      sum.outputTokens += num(u.output);
      sum.cachedInputTokens += cacheRead;
      sum.turns += 1;
    }
  }
  return seen ? sum : null;
}

/** The token_usage of a StatusUpdate, wherever the wire envelope nests it. */
function findTokenUsage(e: JsonObject, depth = 0): JsonObject | undefined {
  const direct = obj(e.token_usage);
  if (direct) return direct;
  if (depth > 3) return undefined;
  for (const v of Object.values(e)) {
    const o = obj(v);
    if (o) {
      const found = findTokenUsage(o, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}
