// nanobot (PyPI nanobot-ai): `nanobot agent -m` sends one message non-interactively.
// Config ~/.nanobot/config.json: a `custom` OpenAI-compatible provider pointed at the
// proxy, the workspace fixed to /workspace, Dream consolidation and heartbeat off.
// A fixed session id (-s) makes every subtask continue the same conversation.
import fs from 'node:fs';
import path from 'node:path';
import type { Usage } from '@assay/core';
import type { AdapterContext, HarnessAdapter } from '../harness-adapter.js';
import { INSTALLS } from '../installs.js';
import { jsonLines, listFiles, num, obj } from '../json-lines.js';

const NANOBOT_SESSION = 'cli:assay';

function nanobotConfig(ctx: AdapterContext): unknown {
  return {
    agents: {
      defaults: {
        workspace: '/workspace',
        model: ctx.model,
        provider: 'custom',
        maxToolIterations: ctx.maxSteps,
        dream: { enabled: false },
      },
    },
    providers: {
      custom: { apiKey: ctx.apiKey, apiBase: ctx.baseUrl },
    },
    gateway: { heartbeat: { enabled: false } },
  };
}

const args = () => [
  'agent',
  '-m',
  '{prompt}',
  '-s',
  NANOBOT_SESSION,
  '-w',
  '/workspace',
  '-c',
  '/session/.nanobot/config.json',
  '--no-markdown',
  '--logs',
];

export const nanobot: HarnessAdapter = {
  name: 'nanobot',
  api: 'openai-chat',
  install: INSTALLS.nanobot,
  imageDir: 'nanobot',
  bin: 'nanobot',
  env: () => ({ PYTHONUNBUFFERED: '1', NO_COLOR: '1' }),
  sessionFiles: (ctx) => [
    { path: '.nanobot/config.json', content: `${JSON.stringify(nanobotConfig(ctx), null, 2)}\n` },
  ],
  freshArgs: args,
  resumeArgs: args,
  // The fixed session id continues the conversation by itself: no separate resume argv.
  resumeTest: 'false',
  parseUsage: ({ sessionDir, before }) => parseNanobotSession(sessionDir, before ?? {}),
  sessionId: () => NANOBOT_SESSION,
};

/**
 * nanobot rewrites its session file after each message; the metadata line's `_last_usage`
 * is the usage of the last message turn (all its model requests). Only files this run
 * changed count, so a run that died early does not report the previous subtask's usage.
 */
export function parseNanobotSession(sessionDir: string, before: Record<string, number>): Usage | null {
  const prefix = '.nanobot/sessions';
  let found: Usage | null = null;
  for (const rel of listFiles(path.join(sessionDir, prefix)).filter((f) => f.endsWith('.jsonl'))) {
    const file = path.join(sessionDir, prefix, rel);
    if (before[`${prefix}/${rel}`] === fs.statSync(file).size) continue;
    const meta = jsonLines(fs.readFileSync(file, 'utf8')).find((e) => e._type === 'metadata');
    const u = obj(obj(meta?.metadata)?._last_usage);
    if (!u) continue;
    found = {
      inputTokens: num(u.input_tokens),
      outputTokens: num(u.output_tokens),
      cachedInputTokens: num(u.cache_read_tokens),
      costUsd: null,
      turns: typeof u.request_count === 'number' ? u.request_count : null,
    };
  }
  return found;
}
