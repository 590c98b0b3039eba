// Claude-shaped stream-json (Claude Code, and Qwen Code's copy of it) as ATIF steps: one agent step per model
// message (a message split over several `assistant` events is one step), its tool results from the `user` events
// that answer its tool calls. A subagent's events (parent_tool_use_id set) are left out: ATIF keeps them apart.
import {
  attachResult,
  joinText as join,
  metricsOf,
  resultText,
  toolArguments,
  type AtifMetrics,
  type DraftStep,
} from '../atif-trajectory.js';
import { jsonLines, num, obj, str, type JsonObject } from '../json-lines.js';

/** How a CLI counts a message's input: Anthropic's input_tokens leave cache reads and writes out; Qwen's include them. */
export type InputCounting = 'anthropic' | 'openai';

export function claudeStreamSteps(logs: string, counting: InputCounting): DraftStep[] {
  const steps: DraftStep[] = [];
  let lastMessageId: string | undefined;
  for (const e of jsonLines(logs)) {
    if (e.parent_tool_use_id !== null && e.parent_tool_use_id !== undefined) continue;
    const message = obj(e.message);
    if (!message) continue;
    if (e.type === 'assistant') {
      const id = str(message.id);
      const prev = steps.at(-1);
      const step = prev && id && id === lastMessageId ? prev : newStep(steps, message, e);
      lastMessageId = id;
      addContent(step, message.content);
      const metrics = usageMetrics(obj(message.usage), counting);
      if (metrics) step.metrics = metrics;
    } else if (e.type === 'user') {
      lastMessageId = undefined;
      for (const part of Array.isArray(message.content) ? message.content : []) addResult(steps, obj(part));
    }
  }
  return steps;
}

function newStep(steps: DraftStep[], message: JsonObject, e: JsonObject): DraftStep {
  const model = str(message.model);
  const timestamp = str(e.timestamp);
  const step: DraftStep = {
    source: 'agent',
    message: '',
    ...(timestamp ? { timestamp } : {}),
    ...(model ? { model_name: model } : {}),
  };
  steps.push(step);
  return step;
}

function addContent(step: DraftStep, content: unknown): void {
  if (typeof content === 'string') step.message = join(step.message, content);
  for (const raw of Array.isArray(content) ? content : []) {
    const part = obj(raw);
    if (part?.type === 'text' && str(part.text)) step.message = join(step.message, str(part.text));
    else if (part?.type === 'thinking' && str(part.thinking))
      step.reasoning_content = join(step.reasoning_content, str(part.thinking));
    else if (part?.type === 'tool_use' && str(part.id) && str(part.name))
      (step.tool_calls ??= []).push({
        tool_call_id: str(part.id) ?? '',
        function_name: str(part.name) ?? '',
        arguments: toolArguments(part.input),
      });
  }
}

/** A tool result goes to the step that made the call (ATIF: source_call_id names a call of its own step). */
function addResult(steps: DraftStep[], part: JsonObject | undefined): void {
  const id = str(part?.tool_use_id);
  if (part?.type !== 'tool_result' || !id) return;
  attachResult(steps, id, resultText(part.content));
}

function usageMetrics(u: JsonObject | undefined, counting: InputCounting): AtifMetrics | undefined {
  if (!u) return undefined;
  const read = num(u.cache_read_input_tokens);
  const written = num(u.cache_creation_input_tokens);
  return metricsOf({
    prompt_tokens: counting === 'anthropic' ? num(u.input_tokens) + read + written : num(u.input_tokens),
    completion_tokens: num(u.output_tokens),
    cached_tokens: read,
  });
}
