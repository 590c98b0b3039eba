// Each adapter's command line, config and usage parser, on output recorded from the real
// CLIs in their containers (test/fixtures/<harness>/, refreshed by the e2e test with
// ASSAY_RECORD_FIXTURES=1). Every recorded run made two model calls scripted to use
// 1200+1500 input tokens (300 cached) and 40+20 output tokens.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODEL_HARNESSES } from '@assay/core';
import { ADAPTERS, type CliHarness } from '../src/adapters/index.js';
import { codexConfig, parseCodexEvents, parseCodexRollouts } from '../src/adapters/codex.js';
import { parseHermesTotals } from '../src/adapters/hermes.js';
import { parseKimiWire } from '../src/adapters/kimi-cli.js';
import { parseNanobotSession } from '../src/adapters/nanobot.js';
import type { AdapterContext } from '../src/harness-adapter.js';
import { INSTALLS } from '../src/installs.js';
import { harnessCommand, shellWord } from '../src/shell-command.js';

const FIX = path.join(import.meta.dirname, 'fixtures');
const fixture = (h: string, f: string) => fs.readFileSync(path.join(FIX, h, f), 'utf8');
const RUN = { inputTokens: 2700, outputTokens: 60, cachedInputTokens: 300 };
const ctx: AdapterContext = {
  model: 'mock-model',
  baseUrl: 'http://127.0.0.1:47800/r/abc',
  apiKey: 'dummy-key',
  settings: {},
  maxSteps: 17,
  timeLimitSeconds: 900,
};

function sessionWith(rel: string, content: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-adapter-'));
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), content);
  return dir;
}

/** Byte offset just after the first line containing `marker` (the end of subtask 1). */
function offsetAfter(text: string, marker: string): number {
  const i = text.indexOf(marker);
  return Buffer.byteLength(text.slice(0, text.indexOf('\n', i) + 1));
}

describe('every adapter', () => {
  it("covers exactly core's model harnesses, each adapter under its own name and with its pinned install", () => {
    expect(Object.keys(ADAPTERS).sort()).toEqual([...MODEL_HARNESSES].sort());
    expect(Object.keys(INSTALLS).sort()).toEqual([...MODEL_HARNESSES].sort());
    for (const name of MODEL_HARNESSES) {
      expect(ADAPTERS[name].name).toBe(name);
      expect(ADAPTERS[name].install).toEqual(INSTALLS[name]);
    }
  });

  it.each(Object.keys(ADAPTERS) as CliHarness[])(
    '%s: pinned install, prompt as one argv, no secret, fresh and resume paths',
    (name) => {
      const a = ADAPTERS[name];
      expect(a.install.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(a.freshArgs(ctx)).toContain('{prompt}');
      expect(a.resumeArgs(ctx)).toContain('{prompt}');
      const [sh, flag, script] = harnessCommand(a, ctx);
      expect([sh, flag]).toEqual(['/bin/sh', '-c']);
      expect(script).toContain('ASSAY_PROMPT="$(cat "$ASSAY_INSTRUCTION_FILE")"');
      expect(script).toContain(`${a.bin} `);
      expect(script).toContain('"$ASSAY_PROMPT"');
      // Only the dummy key is ever handed to a CLI.
      const env = JSON.stringify(a.env(ctx)) + JSON.stringify(a.sessionFiles(ctx));
      expect(env).not.toMatch(/sk-[A-Za-z0-9]/);
      expect(env).toContain(ctx.baseUrl);
    },
  );

  it('quotes words for sh', () => {
    expect(shellWord('--model')).toBe('--model');
    expect(shellWord("it's")).toBe(`'it'"'"'s'`);
    expect(shellWord('{prompt}')).toBe('"$ASSAY_PROMPT"');
  });
});

describe('claude-code', () => {
  const a = ADAPTERS['claude-code'];
  it('runs print mode with stream-json, bypassed permissions (IS_SANDBOX for root), turn cap, telemetry and updates off', () => {
    expect(a.freshArgs(ctx)).toEqual([
      '-p',
      '{prompt}',
      '--output-format',
      'stream-json',
      '--verbose',
      '--dangerously-skip-permissions',
      '--model',
      'mock-model',
      '--max-turns',
      '17',
    ]);
    expect(a.resumeArgs(ctx)[0]).toBe('--continue');
    expect(a.env(ctx)).toMatchObject({
      ANTHROPIC_BASE_URL: ctx.baseUrl,
      ANTHROPIC_API_KEY: 'dummy-key',
      IS_SANDBOX: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    });
  });
  it('parses usage of a fresh and of a resumed session (this run only, not the session total)', () => {
    for (const f of ['subtask-1.log', 'subtask-2.log']) {
      expect(a.parseUsage({ logs: fixture('claude-code', f), sessionDir: '/nonexistent' })).toMatchObject({
        ...RUN,
        turns: 2,
      });
    }
    const id1 = a.sessionId({ logs: fixture('claude-code', 'subtask-1.log'), sessionDir: '' });
    expect(id1).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.sessionId({ logs: fixture('claude-code', 'subtask-2.log'), sessionDir: '' })).toBe(id1);
  });
});

describe('codex', () => {
  const a = ADAPTERS.codex;
  it('declares the proxy as a Responses provider in config.toml and bypasses its sandbox', () => {
    const toml = codexConfig(ctx);
    expect(toml).toContain(`base_url = "${ctx.baseUrl}"`);
    expect(toml).toContain('wire_api = "responses"');
    expect(toml).toContain('check_for_update_on_startup = false');
    expect(toml).toMatch(/\[analytics\]\nenabled = false/);
    expect(a.freshArgs(ctx).slice(0, 2)).toEqual(['exec', '--json']);
    expect(a.resumeArgs(ctx).slice(0, 3)).toEqual(['exec', 'resume', '--last']);
    expect(a.freshArgs(ctx)).toContain('--dangerously-bypass-approvals-and-sandbox');
  });
  it('parses a fresh run from stdout, and a resumed run from what it appended to the rollout', () => {
    expect(parseCodexEvents(fixture('codex', 'subtask-1.log'))).toMatchObject(RUN);
    // On a resumed thread stdout reports the thread total: that is why rollouts are read.
    expect(parseCodexEvents(fixture('codex', 'subtask-2.log'))).toMatchObject({ inputTokens: 5400 });
    const rollout = fixture('codex', 'rollout.jsonl');
    const rel = '.codex/sessions/2026/11/29/rollout.jsonl';
    const dir = sessionWith(rel, rollout);
    expect(parseCodexRollouts(dir, {})).toMatchObject({ inputTokens: 5400, turns: 4 });
    expect(parseCodexRollouts(dir, { [rel]: offsetAfter(rollout, 'task_complete') })).toMatchObject({
      ...RUN,
      turns: 2,
    });
    expect(a.sessionId({ logs: fixture('codex', 'subtask-2.log'), sessionDir: dir })).toBe(
      a.sessionId({ logs: fixture('codex', 'subtask-1.log'), sessionDir: dir }),
    );
  });
});

describe('gemini-cli', () => {
  const a = ADAPTERS['gemini-cli'];
  it('uses the base-URL env, yolo, skip-trust, and settings with statistics and auto-update off', () => {
    expect(a.env(ctx)).toMatchObject({
      GOOGLE_GEMINI_BASE_URL: ctx.baseUrl,
      GEMINI_API_KEY: 'dummy-key',
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
    });
    const settings = JSON.parse(a.sessionFiles(ctx)[0]?.content ?? '{}') as Record<string, Record<string, unknown>>;
    expect(settings.general).toMatchObject({ enableAutoUpdate: false });
    expect(settings.privacy).toMatchObject({ usageStatisticsEnabled: false });
    expect(settings.telemetry).toMatchObject({ enabled: false });
    expect(a.resumeArgs(ctx).slice(0, 2)).toEqual(['--resume', 'latest']);
  });
  it('parses the result stats of both runs', () => {
    for (const f of ['subtask-1.log', 'subtask-2.log'])
      expect(a.parseUsage({ logs: fixture('gemini-cli', f), sessionDir: '' })).toMatchObject(RUN);
  });
});

describe('qwen-code', () => {
  const a = ADAPTERS['qwen-code'];
  it('speaks OpenAI chat through the proxy with its own turn and wall-clock caps', () => {
    expect(a.env(ctx)).toMatchObject({
      OPENAI_BASE_URL: ctx.baseUrl,
      OPENAI_API_KEY: 'dummy-key',
      OPENAI_MODEL: 'mock-model',
    });
    expect(a.freshArgs(ctx)).toEqual(
      expect.arrayContaining([
        '--yolo',
        '--auth-type',
        'openai',
        '--max-session-turns',
        '17',
        '--max-wall-time',
        '900s',
      ]),
    );
    expect(a.resumeArgs(ctx)[0]).toBe('--continue');
  });
  it("sums this run's assistant messages (the result event is the session total when resumed)", () => {
    for (const f of ['subtask-1.log', 'subtask-2.log'])
      expect(a.parseUsage({ logs: fixture('qwen-code', f), sessionDir: '' })).toMatchObject({ ...RUN, turns: 2 });
  });
});

describe('kimi-cli', () => {
  const a = ADAPTERS['kimi-cli'];
  it('writes an openai_legacy provider with telemetry off and runs print mode in /workspace', () => {
    const toml = a.sessionFiles(ctx)[0]?.content ?? '';
    expect(toml).toContain('type = "openai_legacy"');
    expect(toml).toContain('telemetry = false');
    expect(toml).toContain('max_steps_per_turn = 17');
    expect(a.env(ctx)).toMatchObject({ KIMI_CLI_NO_AUTO_UPDATE: '1' });
    expect(a.resumeArgs(ctx)[0]).toBe('--continue');
  });
  it('sums the StatusUpdate usage this run appended to wire.jsonl', () => {
    const wire = fixture('kimi-cli', 'wire.jsonl');
    const rel = '.kimi/sessions/h/s/wire.jsonl';
    const dir = sessionWith(rel, wire);
    expect(parseKimiWire(dir, { [rel]: offsetAfter(wire, 'TurnEnd') })).toMatchObject({ ...RUN, turns: 2 });
    expect(parseKimiWire(dir, {})).toMatchObject({ inputTokens: 5400, outputTokens: 120 });
  });
});

describe('nanobot', () => {
  it('reads _last_usage only from session files this run changed', () => {
    const text = fixture('nanobot', 'session.jsonl');
    const rel = '.nanobot/sessions/w/Y2xpOmFzc2F5.jsonl';
    const dir = sessionWith(rel, text);
    expect(parseNanobotSession(dir, {})).toMatchObject({ ...RUN, turns: 2 });
    expect(parseNanobotSession(dir, { [rel]: Buffer.byteLength(text) })).toBeNull();
  });
  it('fixes workspace, provider and session id in its config and argv', () => {
    const a = ADAPTERS.nanobot;
    const cfg = JSON.parse(a.sessionFiles(ctx)[0]?.content ?? '{}') as {
      agents: { defaults: Record<string, unknown> };
      providers: { custom: Record<string, unknown> };
    };
    expect(cfg.agents.defaults).toMatchObject({
      workspace: '/workspace',
      model: 'mock-model',
      provider: 'custom',
      maxToolIterations: 17,
    });
    expect(cfg.providers.custom).toEqual({ apiKey: 'dummy-key', apiBase: ctx.baseUrl });
    expect(a.freshArgs(ctx)).toEqual(expect.arrayContaining(['-s', 'cli:assay', '-w', '/workspace']));
  });
});

describe('hermes', () => {
  const a = ADAPTERS.hermes;
  it('wraps the CLI with before/after totals and keeps its exit code', () => {
    const script = harnessCommand(a, ctx)[2] ?? '';
    expect(script).toMatch(
      /session-usage\.py before[\s\S]*hermes chat -q[\s\S]*assay_rc=\$\?[\s\S]*session-usage\.py after[\s\S]*exit \$assay_rc/,
    );
    expect(a.sessionFiles(ctx)[0]?.content).toContain('tirith_enabled: false');
  });
  it('parses after-minus-before of the state.db totals', () => {
    expect(parseHermesTotals(fixture('hermes', 'subtask-1.log'))).toMatchObject({ ...RUN, turns: 2 });
    expect(parseHermesTotals(fixture('hermes', 'subtask-2.log'))).toMatchObject({ ...RUN, turns: 2 });
    const s1 = a.sessionId({ logs: fixture('hermes', 'subtask-1.log'), sessionDir: '' });
    expect(s1).toMatch(/^\d{8}_\d{6}_/);
    expect(a.sessionId({ logs: fixture('hermes', 'subtask-2.log'), sessionDir: '' })).toBe(s1);
  });
});
