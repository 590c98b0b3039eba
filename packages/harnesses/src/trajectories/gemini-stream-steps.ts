// Gemini CLI's stream-json events as ATIF steps: the assistant's text deltas and tool calls up to the tool results
// that answer them are one step; the results are its observation. The echoed user message is the instruction,
// already the first step. Token counts come only as totals (the `result` event), so steps carry no metrics.
import { attachResult, resultText, toolArguments, type DraftStep } from '../atif-trajectory.js';
import { jsonLines, str } from '../json-lines.js';

export function geminiStreamSteps(logs: string): DraftStep[] {
  const steps: DraftStep[] = [];
  // The step being filled: closed by a user message, or by new text or calls once its results are in.
  const state: { open: DraftStep | null } = { open: null };
  const current = (timestamp: string | undefined): DraftStep => {
    if (state.open) return state.open;
    const step: DraftStep = { source: 'agent', message: '', ...(timestamp ? { timestamp } : {}) };
    steps.push(step);
    state.open = step;
    return step;
  };
  for (const e of jsonLines(logs)) {
    const timestamp = str(e.timestamp);
    if (state.open?.observation && (e.type === 'message' || e.type === 'tool_use')) state.open = null;
    if (e.type === 'message' && e.role === 'assistant') {
      const step = current(timestamp);
      // Deltas are pieces of one text; whole messages are separate paragraphs.
      step.message =
        e.delta === true || !step.message
          ? step.message + (str(e.content) ?? '')
          : `${step.message}\n${str(e.content) ?? ''}`;
    } else if (e.type === 'message') {
      state.open = null;
    } else if (e.type === 'tool_use' && str(e.tool_id) && str(e.tool_name)) {
      (current(timestamp).tool_calls ??= []).push({
        tool_call_id: str(e.tool_id) ?? '',
        function_name: str(e.tool_name) ?? '',
        arguments: toolArguments(e.parameters),
      });
    } else if (e.type === 'tool_result' && str(e.tool_id)) {
      attachResult(steps, str(e.tool_id) ?? '', resultText(e.output) ?? str(e.status));
    }
  }
  return steps;
}
