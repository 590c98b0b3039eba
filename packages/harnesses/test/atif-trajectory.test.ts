// Every output format assay reads into steps, converted to ATIF and checked against the schema Harbor 0.25.0's own
// model generates (fixtures/atif/trajectory.schema.json), plus the rule the schema cannot say (step_id from 1).
// Inputs are the recorded CLI outputs in fixtures/<harness>/: each run was scripted to write one file with one
// tool call, then answer "Done: the deliverable is written." (1200+1500 input tokens, 300 cached, 40+20 output).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { AtifTrajectory } from '../src/atif-trajectory.js';
import { harnessTrajectory, type HarnessTrajectoryInput } from '../src/harness-trajectory.js';
import { INSTALLS } from '../src/installs.js';

const FIX = path.join(import.meta.dirname, 'fixtures');
const fixture = (h: string, f: string) => fs.readFileSync(path.join(FIX, h, f), 'utf8');
const schema = JSON.parse(fixture('atif', 'trajectory.schema.json')) as object;
const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
const INSTRUCTION = 'Write the first deliverable.\nASSAY-TASK file=first.md text=ALPHA-7431';
const ANSWER = 'Done: the deliverable is written.';
const EMPTY_SESSION = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-atif-'));

function convert(harness: string, logs: string, extra: Partial<HarnessTrajectoryInput> = {}): AtifTrajectory {
  const t = harnessTrajectory({
    harness,
    logs,
    sessionDir: EMPTY_SESSION,
    instruction: INSTRUCTION,
    model: 'mock-model',
    ...extra,
  });
  if (!t) throw new Error(`${harness}: no trajectory`);
  expectValid(t);
  return t;
}

/** Schema-valid, plus the model's validators: step ids 1..n, agent-only fields on agent steps, results name their step's calls. */
function expectValid(t: AtifTrajectory): void {
  const ok = validate(t);
  expect(ok ? [] : validate.errors).toEqual([]);
  expect(t.steps.map((s) => s.step_id)).toEqual(t.steps.map((_, i) => i + 1));
  for (const s of t.steps) {
    if (s.source !== 'agent')
      for (const f of ['model_name', 'tool_calls', 'metrics', 'reasoning_content'] as const)
        expect(s[f]).toBeUndefined();
    const ids = new Set((s.tool_calls ?? []).map((c) => c.tool_call_id));
    for (const r of s.observation?.results ?? [])
      if (r.source_call_id !== undefined) expect(ids.has(r.source_call_id)).toBe(true);
  }
  expect(t.final_metrics?.total_steps).toBe(t.steps.length);
}

describe('the ATIF schema check', () => {
  it("rejects what Harbor's model rejects (so passing it means something)", () => {
    const t = convert('claude-code', fixture('claude-code', 'subtask-1.log'));
    expect(validate({ ...t, steps: [{ ...t.steps[0], source: 'bot' }] })).toBe(false);
    expect(validate({ ...t, steps: [{ ...t.steps[1], tool_calls: [{ id: 'x' }] }] })).toBe(false);
    expect(validate({ ...t, agent: { ...t.agent, colour: 'red' } })).toBe(false);
    expect(validate({ ...t, steps: [] })).toBe(false);
  });
});

const toolCalls = (t: AtifTrajectory) => t.steps.flatMap((s) => s.tool_calls ?? []);
const lastMessage = (t: AtifTrajectory) => t.steps.at(-1)?.message;

describe('ATIF trajectories of the recorded CLI outputs', () => {
  it('claude-code: one step per model message, the Write call answered in its own step, per-step tokens', () => {
    const t = convert('claude-code', fixture('claude-code', 'subtask-1.log'));
    expect(t.agent).toEqual({
      name: 'claude-code',
      version: INSTALLS['claude-code'].version,
      model_name: 'mock-model',
    });
    expect(t.session_id).toBe('ccec15ac-4c5f-46e2-9d76-371e5badbf99');
    expect(t.steps.map((s) => s.source)).toEqual(['user', 'agent', 'agent']);
    expect(t.steps[0]?.message).toBe(INSTRUCTION);
    expect(toolCalls(t)).toEqual([
      {
        tool_call_id: 'toolu_172c0396eab25343effd9a58',
        function_name: 'Write',
        arguments: { file_path: '/workspace/outputs/first.md', content: 'ALPHA-7431\n' },
      },
    ]);
    expect(t.steps[1]?.observation?.results[0]?.content).toMatch(/^File created successfully/);
    // Claude's input_tokens leave the cache reads out: prompt_tokens puts them back.
    expect(t.steps[1]?.metrics).toEqual({ prompt_tokens: 1200, completion_tokens: 1, cached_tokens: 300 });
    expect(lastMessage(t)).toBe(ANSWER);
    expect(t.final_metrics).toMatchObject({
      total_prompt_tokens: 2700,
      total_completion_tokens: 60,
      total_cached_tokens: 300,
    });
    expect(t.final_metrics?.total_cost_usd).toBeCloseTo(0.01086);
    expectValid(convert('claude-code', fixture('claude-code', 'subtask-2.log')));
  });

  it('codex: the command as a tool call with its exit code, the answer as a message, totals from turn.completed', () => {
    const t = convert('codex', fixture('codex', 'subtask-1.log'));
    expect(t.session_id).toBe('01a2274b-8881-7e23-bb39-98ff6b3233d3');
    expect(t.steps.map((s) => s.source)).toEqual(['user', 'agent', 'agent']);
    const calls = toolCalls(t);
    expect(calls.map((c) => [c.tool_call_id, c.function_name])).toEqual([['item_1', 'command_execution']]);
    expect(String(calls[0]?.arguments.command)).toContain('ALPHA-7431');
    expect(t.steps[1]?.observation?.results).toEqual([
      { source_call_id: 'item_1', content: '', extra: { exit_code: 0 } },
    ]);
    // The CLI's own warning (an `error` item) is not the model's: left out.
    expect(t.steps.some((s) => s.message.includes('Model metadata'))).toBe(false);
    expect(lastMessage(t)).toBe(ANSWER);
    expect(t.final_metrics).toMatchObject({
      total_prompt_tokens: 2700,
      total_completion_tokens: 60,
      total_cached_tokens: 300,
    });
    expectValid(convert('codex', fixture('codex', 'subtask-2.log')));
  });

  it('qwen-code: Claude-shaped events, input tokens already include the cached ones', () => {
    const t = convert('qwen-code', fixture('qwen-code', 'subtask-1.log'));
    expect(toolCalls(t).map((c) => c.function_name)).toEqual(['write_file']);
    expect(t.steps[1]?.metrics).toEqual({ prompt_tokens: 1200, completion_tokens: 40, cached_tokens: 300 });
    expect(t.steps[1]?.observation?.results[0]?.content).toMatch(/^Successfully created/);
    expect(lastMessage(t)).toBe(ANSWER);
    expect(t.final_metrics).toMatchObject({
      total_prompt_tokens: 2700,
      total_completion_tokens: 60,
      total_cached_tokens: 300,
    });
    expectValid(convert('qwen-code', fixture('qwen-code', 'subtask-2.log')));
  });

  it('gemini-cli: text deltas joined into one message, the tool call answered by its status', () => {
    const t = convert('gemini-cli', fixture('gemini-cli', 'subtask-1.log'));
    expect(t.steps.map((s) => s.source)).toEqual(['user', 'agent', 'agent']);
    expect(toolCalls(t).map((c) => c.function_name)).toEqual(['write_file']);
    expect(t.steps[1]?.observation?.results[0]).toEqual({
      source_call_id: 'write_file__write_file_1795955602329_0',
      content: 'success',
    });
    expect(lastMessage(t)).toBe(ANSWER);
    expect(t.final_metrics).toMatchObject({
      total_prompt_tokens: 2700,
      total_completion_tokens: 60,
      total_cached_tokens: 300,
    });
    expectValid(convert('gemini-cli', fixture('gemini-cli', 'subtask-2.log')));
  });

  it('kimi-cli: OpenAI-style messages, JSON-encoded arguments decoded', () => {
    const t = convert('kimi-cli', fixture('kimi-cli', 'subtask-1.log'));
    expect(toolCalls(t)).toEqual([
      {
        tool_call_id: 'call_2f970b4b98dd76e4bddf90de',
        function_name: 'WriteFile',
        arguments: { path: '/workspace/outputs/first.md', content: 'ALPHA-7431\n' },
      },
    ]);
    expect(t.steps[1]?.observation?.results[0]?.content).toMatch(/File successfully overwritten/);
    expect(lastMessage(t)).toBe(ANSWER);
    expectValid(convert('kimi-cli', fixture('kimi-cli', 'subtask-2.log')));
  });

  it("nanobot: this run's messages from its session file (after the last user message), totals from its usage", () => {
    const rel = '.nanobot/sessions/w/Y2xpOmFzc2F5.jsonl';
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-atif-nanobot-'));
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), fixture('nanobot', 'session.jsonl'));
    const t = convert('nanobot', fixture('nanobot', 'subtask-2.log'), { sessionDir: dir });
    expect(t.steps.map((s) => s.source)).toEqual(['user', 'agent', 'agent']);
    expect(toolCalls(t).map((c) => [c.function_name, c.arguments.path])).toEqual([
      ['write_file', '/workspace/outputs/second.md'],
    ]);
    expect(lastMessage(t)).toBe(ANSWER);
    expect(t.final_metrics).toMatchObject({
      total_prompt_tokens: 2700,
      total_completion_tokens: 60,
      total_cached_tokens: 300,
    });
    // A session file this run left unchanged holds none of its messages.
    const size = fs.statSync(path.join(dir, rel)).size;
    expect(
      harnessTrajectory({
        harness: 'nanobot',
        logs: '',
        sessionDir: dir,
        before: { [rel]: size },
        instruction: INSTRUCTION,
      }),
    ).toBeNull();
  });

  it('hermes prints only text, and a `command` agent any format: no trajectory rather than an invented one', () => {
    const base = { sessionDir: EMPTY_SESSION, instruction: INSTRUCTION };
    expect(harnessTrajectory({ ...base, harness: 'hermes', logs: fixture('hermes', 'subtask-1.log') })).toBeNull();
    expect(
      harnessTrajectory({ ...base, harness: 'command', logs: '{"usage":{"inputTokens":1,"outputTokens":1}}' }),
    ).toBeNull();
    expect(harnessTrajectory({ ...base, harness: 'claude-code', logs: 'not json\n{"type":"system"}' })).toBeNull();
  });
});

describe("ATIF trajectories of assay's scripted agents", () => {
  // What packages/agents/scripted/assay_agent.py prints: its log lines, then the summary with the usage line.
  const ORACLE = [
    '[assay-agent] agent=oracle task=fin-1 subtask=- trial=1',
    '{"agent": "oracle", "files": ["outputs/model.xlsx", "outputs/memo.md"], "usage": {"inputTokens": 0, "outputTokens": 0}}',
  ].join('\n');

  it('one deterministic agent step (no model call, so no metrics) naming the files written', () => {
    const t = convert('oracle', ORACLE, { version: 'assay-scripted-agent:abc123' });
    expect(t.agent).toEqual({ name: 'oracle', version: 'assay-scripted-agent:abc123', model_name: 'mock-model' });
    expect(t.steps[1]).toEqual({
      step_id: 2,
      source: 'agent',
      message: 'agent=oracle task=fin-1 subtask=- trial=1',
      llm_call_count: 0,
      extra: { files: ['outputs/model.xlsx', 'outputs/memo.md'] },
    });
    expect(t.final_metrics).toEqual({ total_steps: 2 });
  });

  it('a failed run keeps what the script said; no output at all gives none', () => {
    const t = convert('scripted', "assay-agent: ASSAY_AGENT must be one of oracle, nop; got 'x'");
    expect(t.steps[1]?.message).toMatch(/^assay-agent: ASSAY_AGENT must be/);
    expect(
      harnessTrajectory({ harness: 'nop', logs: '', sessionDir: EMPTY_SESSION, instruction: INSTRUCTION }),
    ).toBeNull();
  });
});
