// OpenAI-style chat messages, one JSON object a line (Kimi CLI's stream-json output, nanobot's session file) as
// ATIF steps: each assistant message is one step; a `tool` message is the observation of the step that made
// the call. User messages are the instructions (the run's own is already the first step) and are left out.
import { attachResult, resultText, toolArguments, type AtifToolCall, type DraftStep } from '../atif-trajectory.js';
import { jsonLines, obj, str } from '../json-lines.js';

export function openAiMessageSteps(text: string): DraftStep[] {
  const steps: DraftStep[] = [];
  for (const m of jsonLines(text)) {
    if (m.role === 'assistant') {
      const timestamp = str(m.timestamp);
      const reasoning = str(m.reasoning_content);
      const calls = (Array.isArray(m.tool_calls) ? m.tool_calls : []).flatMap(toolCall);
      steps.push({
        source: 'agent',
        message: resultText(m.content) ?? '',
        ...(timestamp ? { timestamp } : {}),
        ...(reasoning ? { reasoning_content: reasoning } : {}),
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      });
    } else if (m.role === 'tool' && str(m.tool_call_id)) {
      attachResult(steps, str(m.tool_call_id) ?? '', resultText(m.content));
    }
  }
  return steps;
}

function toolCall(raw: unknown): AtifToolCall[] {
  const c = obj(raw);
  const fn = obj(c?.function);
  const id = str(c?.id);
  const name = str(fn?.name);
  return id && name ? [{ tool_call_id: id, function_name: name, arguments: toolArguments(fn?.arguments) }] : [];
}
