// `codex exec --json` events as ATIF steps: each completed item is one step (the events do not say which items
// one model response produced). A tool item (command, file change, MCP call, web search) is a tool call with its
// outcome as the observation; reasoning goes with the step after it. Usage is per turn only, so steps carry no
// metrics (the totals are the adapter's). The CLI's own `error` items are not the model's and are left out.
import { joinText as join, resultText, toolArguments, type AtifToolCall, type DraftStep } from '../atif-trajectory.js';
import { jsonLines, obj, str, type JsonObject } from '../json-lines.js';

export function codexEventSteps(logs: string): DraftStep[] {
  const steps: DraftStep[] = [];
  let reasoning: string | undefined;
  for (const e of jsonLines(logs)) {
    const item = obj(e.item);
    if (e.type !== 'item.completed' || !item) continue;
    if (item.type === 'reasoning') {
      reasoning = join(reasoning, str(item.text));
      continue;
    }
    const step = itemStep(item);
    if (!step) continue;
    if (reasoning) step.reasoning_content = reasoning;
    reasoning = undefined;
    steps.push(step);
  }
  if (reasoning) steps.push({ source: 'agent', message: '', reasoning_content: reasoning });
  return steps;
}

function itemStep(item: JsonObject): DraftStep | null {
  if (item.type === 'agent_message') return { source: 'agent', message: str(item.text) ?? '' };
  const call = toolCall(item);
  if (!call) return null;
  const content = toolOutcome(item);
  const extra = typeof item.exit_code === 'number' ? { exit_code: item.exit_code } : undefined;
  return {
    source: 'agent',
    message: '',
    tool_calls: [call],
    observation: {
      results: [
        {
          source_call_id: call.tool_call_id,
          ...(content !== undefined ? { content } : {}),
          ...(extra ? { extra } : {}),
        },
      ],
    },
  };
}

function toolCall(item: JsonObject): AtifToolCall | null {
  const id = str(item.id);
  if (!id) return null;
  const call = (function_name: string, args: unknown) => ({
    tool_call_id: id,
    function_name,
    arguments: toolArguments(args),
  });
  switch (item.type) {
    case 'command_execution':
      return call('command_execution', { command: item.command });
    case 'file_change':
      return call('file_change', { changes: item.changes });
    case 'mcp_tool_call':
      return call(`${str(item.server) ?? 'mcp'}.${str(item.tool) ?? 'tool'}`, item.arguments);
    case 'web_search':
      return call('web_search', { query: item.query });
    default:
      return null;
  }
}

function toolOutcome(item: JsonObject): string | undefined {
  if (item.type === 'command_execution') return str(item.aggregated_output);
  if (item.type === 'mcp_tool_call') {
    const result = obj(item.result);
    return resultText(result?.content) ?? str(obj(item.error)?.message);
  }
  return str(item.status);
}
