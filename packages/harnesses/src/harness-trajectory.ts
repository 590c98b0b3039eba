// A finished run's ATIF trajectory, for every output format assay parses: the steps from the CLI's (or scripted
// agent's) output, the totals from the adapter's own usage parser (the same numbers the record keeps), so the
// trajectory never disagrees with agent-result.json. Formats assay cannot read into steps give null.
import fs from 'node:fs';
import path from 'node:path';
import { isModelHarness, isScriptedHarness, type Usage } from '@assay/core';
import { ADAPTERS } from './adapters/index.js';
import { assembleTrajectory, type AtifFinalMetrics, type AtifTrajectory, type DraftStep } from './atif-trajectory.js';
import type { UsageInput } from './harness-adapter.js';
import { INSTALLS } from './installs.js';
import { jsonLines, listFiles } from './json-lines.js';
import { claudeStreamSteps } from './trajectories/claude-stream-steps.js';
import { codexEventSteps } from './trajectories/codex-event-steps.js';
import { geminiStreamSteps } from './trajectories/gemini-stream-steps.js';
import { openAiMessageSteps } from './trajectories/open-ai-message-steps.js';
import { scriptedAgentSteps } from './trajectories/scripted-agent-steps.js';

export interface HarnessTrajectoryInput extends UsageInput {
  /** The system's harness (a model CLI or a scripted agent; others give null). */
  harness: string;
  instruction: string;
  model?: string;
  /** The CLI's version as its image printed it (default: the pinned install); scripted agents: their image. */
  version?: string;
}

/** Steps of each model CLI's output; hermes prints only text, so it has none. */
const CLI_STEPS: Record<keyof typeof ADAPTERS, ((input: UsageInput) => DraftStep[]) | null> = {
  'claude-code': ({ logs }) => claudeStreamSteps(logs, 'anthropic'),
  'qwen-code': ({ logs }) => claudeStreamSteps(logs, 'openai'),
  codex: ({ logs }) => codexEventSteps(logs),
  'gemini-cli': ({ logs }) => geminiStreamSteps(logs),
  'kimi-cli': ({ logs }) => openAiMessageSteps(logs),
  // nanobot prints only its answer; its session file keeps the messages. It rewrites the file (usage in the first
  // line), so this run's part is what follows the last user message (the instruction) in a file the run changed.
  nanobot: ({ sessionDir, before }) =>
    changedFiles(sessionDir, '.nanobot/sessions', before ?? {}).flatMap((text) =>
      openAiMessageSteps(afterLastUser(text)),
    ),
  hermes: null,
};

export function harnessTrajectory(input: HarnessTrajectoryInput): AtifTrajectory | null {
  const { harness } = input;
  const base = { logs: input.logs, instruction: input.instruction, ...(input.model ? { model: input.model } : {}) };
  if (isScriptedHarness(harness))
    return assembleTrajectory(
      { ...base, agent: harness, version: input.version ?? 'unknown' },
      scriptedAgentSteps(input.logs),
    );
  if (!isModelHarness(harness)) return null;
  const steps = CLI_STEPS[harness];
  if (!steps) return null;
  const adapter = ADAPTERS[harness];
  return assembleTrajectory(
    { ...base, agent: harness, version: input.version ?? INSTALLS[harness].version },
    steps(input),
    finalMetricsOf(adapter.parseUsage(input)),
    adapter.sessionId(input),
  );
}

/** Assay's usage as ATIF totals (input tokens include the cached ones in both). */
export function finalMetricsOf(usage: Usage | null): AtifFinalMetrics | null {
  if (!usage) return null;
  return {
    total_prompt_tokens: usage.inputTokens,
    total_completion_tokens: usage.outputTokens,
    total_cached_tokens: usage.cachedInputTokens,
    ...(usage.costUsd === null ? {} : { total_cost_usd: usage.costUsd }),
  };
}

/** The .jsonl files under a session-folder prefix whose size this run changed (sizes before the run in `before`). */
function changedFiles(sessionDir: string, prefix: string, before: Record<string, number>): string[] {
  const out: string[] = [];
  for (const rel of listFiles(path.join(sessionDir, prefix)).filter((f) => f.endsWith('.jsonl'))) {
    const text = fs.readFileSync(path.join(sessionDir, prefix, rel), 'utf8');
    if (before[`${prefix}/${rel}`] !== Buffer.byteLength(text)) out.push(text);
  }
  return out;
}

/** The lines after the last `"role": "user"` message. */
function afterLastUser(text: string): string {
  const lines = text.split('\n');
  let i = lines.length - 1;
  while (i >= 0 && jsonLines(lines[i] ?? '')[0]?.role !== 'user') i -= 1;
  return lines.slice(i + 1).join('\n');
}
