// Hermes Agent (Nous Research; PyPI hermes-agent): `hermes chat -q` single-query mode,
// `--continue` resumes the most recent session, `--resume ID` a given one. Config
// ~/.hermes/config.yaml: a custom OpenAI-compatible provider pointed at the proxy; the tirith
// scanner (downloaded at run time) off. The image stamps the install as `docker`, which turns
// Hermes' PyPI update check off. Usage: Hermes keeps running totals in state.db (SQLite); the
// image's session-usage.py prints them before and after the run, and this run is the difference.
import type { Usage } from '@assay/core';
import type { AdapterContext, HarnessAdapter } from '../harness-adapter.js';
import { INSTALLS } from '../installs.js';
import { num, obj } from '../json-lines.js';

function hermesConfig(ctx: AdapterContext): string {
  const q = (v: string) => JSON.stringify(v);
  return [
    '# Written by assay for one trial; the proxy adds the real key.',
    'model:',
    `  default: ${q(ctx.model)}`,
    '  provider: custom',
    `  base_url: ${q(ctx.baseUrl)}`,
    `  api_key: ${q(ctx.apiKey)}`,
    'agent:',
    `  max_turns: ${ctx.maxSteps}`,
    'security:',
    '  tirith_enabled: false',
    '',
  ].join('\n');
}

const common = (ctx: AdapterContext) => [
  '-Q',
  '--yolo',
  '--max-turns',
  String(ctx.maxSteps),
  '-m',
  ctx.model,
  '--provider',
  'custom',
];

export const hermes: HarnessAdapter = {
  name: 'hermes',
  api: 'openai-chat',
  install: INSTALLS.hermes,
  imageDir: 'hermes',
  bin: 'hermes',
  env: () => ({ HERMES_HOME: '/session/.hermes', PYTHONUNBUFFERED: '1', HERMES_ACCEPT_HOOKS: '1' }),
  sessionFiles: (ctx) => [{ path: '.hermes/config.yaml', content: hermesConfig(ctx) }],
  freshArgs: (ctx) => ['chat', '-q', '{prompt}', ...common(ctx)],
  // A known session by its id (`--resume`, as Harbor's hermes.py resumes a step), else the most recent one.
  resumeArgs: (ctx) => [
    'chat',
    '-q',
    '{prompt}',
    ...(ctx.resumeSessionId ? ['--resume', ctx.resumeSessionId] : ['--continue']),
    ...common(ctx),
  ],
  resumeTest: 'test -s /session/.hermes/state.db',
  // hermes.py, for a pinned version (assay's is): no id from the previous run, no resume.
  resumeNeedsSessionId:
    'Cannot resume the pinned Hermes version because the previous run did not export a native session ID.',
  prologue: 'python3 /opt/assay/session-usage.py before >&2',
  epilogue: 'python3 /opt/assay/session-usage.py after >&2',
  parseUsage: ({ logs }) => parseHermesTotals(logs),
  sessionId: ({ logs }) => /^session_id: (\S+)/m.exec(logs)?.[1] ?? null,
};

function totalsLine(logs: string, tag: 'before' | 'after'): Record<string, unknown> | null {
  const lines = logs.split('\n').filter((l) => l.startsWith(`[assay-usage ${tag}] `));
  const last = lines.at(-1);
  if (!last) return null;
  try {
    return obj(JSON.parse(last.slice(`[assay-usage ${tag}] `.length))) ?? null;
  } catch {
    return null;
  }
}

/** After-minus-before of Hermes' state.db totals. Its input_tokens exclude cache reads and writes. */
export function parseHermesTotals(logs: string): Usage | null {
  const after = totalsLine(logs, 'after');
  if (!after) return null;
  const before = totalsLine(logs, 'before') ?? {};
  const d = (k: string) => num(after[k]) - num(before[k]);
  const cost = typeof after.cost_usd === 'number' ? after.cost_usd - num(before.cost_usd) : null;
  return {
    inputTokens: d('input') + d('cache_read') + d('cache_write'),
    outputTokens: d('output'),
    cachedInputTokens: d('cache_read'),
    costUsd: cost,
    turns: d('api_calls'),
  };
}
