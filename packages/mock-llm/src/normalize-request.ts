// Reduce an OpenAI Chat / Responses, Anthropic Messages or Gemini request body to one
// shape that rules match on. Unknown content parts are kept as their JSON so `any`
// can still see them.
import { createHash } from 'node:crypto';
import type { ApiKind, MockRequest, NormalizedMessage } from './types.js';

type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string =>
  typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v);

/** Text of a content value: a string or an array of typed parts. */
function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? '' : JSON.stringify(content);
  return content
    .map((p) => {
      if (typeof p === 'string') return p;
      if (!isObj(p)) return '';
      if (typeof p.text === 'string') return p.text;
      if (p.type === 'image_url' || p.type === 'image' || p.type === 'input_image') return '[image]';
      return '';
    })
    .filter((s) => s.length > 0)
    .join('\n');
}

interface Parsed {
  system: string[];
  messages: NormalizedMessage[];
  tools: string[];
}

function fromOpenAiChat(body: Json): Parsed {
  const out: Parsed = { system: [], messages: [], tools: [] };
  for (const m of Array.isArray(body.messages) ? body.messages : []) {
    if (!isObj(m)) continue;
    const role = str(m.role);
    if (role === 'system' || role === 'developer') out.system.push(partsText(m.content));
    else if (role === 'tool' || role === 'function')
      out.messages.push({ role: 'tool', text: partsText(m.content), toolCalls: [] });
    else if (role === 'assistant') {
      const calls = Array.isArray(m.tool_calls) ? m.tool_calls : [];
      out.messages.push({
        role: 'assistant',
        text: partsText(m.content),
        toolCalls: calls.filter(isObj).map((c) => {
          const f = isObj(c.function) ? c.function : {};
          return { name: str(f.name), arguments: str(f.arguments) };
        }),
      });
    } else out.messages.push({ role: 'user', text: partsText(m.content), toolCalls: [] });
  }
  for (const t of Array.isArray(body.tools) ? body.tools : []) {
    if (isObj(t) && isObj(t.function)) out.tools.push(str(t.function.name));
    else if (isObj(t) && typeof t.name === 'string') out.tools.push(t.name);
  }
  return out;
}

function fromOpenAiResponses(body: Json): Parsed {
  const out: Parsed = { system: [], messages: [], tools: [] };
  if (typeof body.instructions === 'string') out.system.push(body.instructions);
  const input =
    typeof body.input === 'string'
      ? [{ role: 'user', content: body.input }]
      : Array.isArray(body.input)
        ? body.input
        : [];
  for (const item of input) {
    if (!isObj(item)) continue;
    const type = str(item.type);
    if (type === 'function_call') {
      const last = out.messages.at(-1);
      const call = { name: str(item.name), arguments: str(item.arguments) };
      if (last && last.role === 'assistant') last.toolCalls.push(call);
      else out.messages.push({ role: 'assistant', text: '', toolCalls: [call] });
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      out.messages.push({ role: 'tool', text: partsText(item.output), toolCalls: [] });
    } else if (type === 'reasoning') {
      continue;
    } else {
      const role = str(item.role);
      if (role === 'system' || role === 'developer') out.system.push(partsText(item.content));
      else if (role === 'assistant')
        out.messages.push({ role: 'assistant', text: partsText(item.content), toolCalls: [] });
      else out.messages.push({ role: 'user', text: partsText(item.content), toolCalls: [] });
    }
  }
  for (const t of Array.isArray(body.tools) ? body.tools : [])
    if (isObj(t) && typeof t.name === 'string') out.tools.push(t.name);
  return out;
}

function fromAnthropic(body: Json): Parsed {
  const out: Parsed = { system: [], messages: [], tools: [] };
  if (body.system !== undefined) out.system.push(partsText(body.system));
  for (const m of Array.isArray(body.messages) ? body.messages : []) {
    if (!isObj(m)) continue;
    const blocks =
      typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : [];
    if (m.role === 'assistant') {
      const text: string[] = [];
      const calls: NormalizedMessage['toolCalls'] = [];
      for (const b of blocks) {
        if (!isObj(b)) continue;
        if (b.type === 'text') text.push(str(b.text));
        if (b.type === 'tool_use') calls.push({ name: str(b.name), arguments: JSON.stringify(b.input ?? {}) });
      }
      out.messages.push({ role: 'assistant', text: text.join('\n'), toolCalls: calls });
      continue;
    }
    const text: string[] = [];
    for (const b of blocks) {
      if (!isObj(b)) continue;
      if (b.type === 'tool_result') out.messages.push({ role: 'tool', text: partsText(b.content), toolCalls: [] });
      else if (b.type === 'text') text.push(str(b.text));
      else if (b.type === 'image') text.push('[image]');
    }
    if (text.length > 0) out.messages.push({ role: 'user', text: text.join('\n'), toolCalls: [] });
  }
  for (const t of Array.isArray(body.tools) ? body.tools : [])
    if (isObj(t) && typeof t.name === 'string') out.tools.push(t.name);
  return out;
}

function fromGemini(body: Json): Parsed {
  const out: Parsed = { system: [], messages: [], tools: [] };
  const sys = body.systemInstruction ?? body.system_instruction;
  if (isObj(sys)) out.system.push(partsText(sys.parts));
  else if (typeof sys === 'string') out.system.push(sys);
  for (const c of Array.isArray(body.contents) ? body.contents : []) {
    if (!isObj(c)) continue;
    const parts = Array.isArray(c.parts) ? c.parts.filter(isObj) : [];
    if (c.role === 'model') {
      out.messages.push({
        role: 'assistant',
        text: parts.map((p) => (typeof p.text === 'string' && p.thought !== true ? p.text : '')).join(''),
        toolCalls: parts
          .filter((p) => isObj(p.functionCall))
          .map((p) => {
            const f = p.functionCall as Json;
            return { name: str(f.name), arguments: JSON.stringify(f.args ?? {}) };
          }),
      });
      continue;
    }
    const text: string[] = [];
    for (const p of parts) {
      if (isObj(p.functionResponse))
        out.messages.push({ role: 'tool', text: JSON.stringify(p.functionResponse.response ?? {}), toolCalls: [] });
      else if (typeof p.text === 'string') text.push(p.text);
      else if (isObj(p.inlineData)) text.push('[image]');
    }
    if (text.length > 0) out.messages.push({ role: 'user', text: text.join('\n'), toolCalls: [] });
  }
  for (const t of Array.isArray(body.tools) ? body.tools : []) {
    if (!isObj(t)) continue;
    const decls = t.functionDeclarations ?? t.function_declarations;
    if (Array.isArray(decls)) for (const d of decls) if (isObj(d)) out.tools.push(str(d.name));
  }
  return out;
}

export function normalizeRequest(
  api: ApiKind,
  body: Json,
  model: string,
  stream: boolean,
): Omit<MockRequest, 'call' | 'groups'> {
  const parsed =
    api === 'openai-chat'
      ? fromOpenAiChat(body)
      : api === 'openai-responses'
        ? fromOpenAiResponses(body)
        : api === 'anthropic'
          ? fromAnthropic(body)
          : fromGemini(body);
  const system = parsed.system.filter((s) => s.length > 0).join('\n');
  const msgs = parsed.messages;
  const lastAssistant = msgs.map((m) => m.role).lastIndexOf('assistant');
  const user = [...msgs].reverse().find((m) => m.role === 'user')?.text ?? '';
  const toolResult = msgs
    .slice(lastAssistant + 1)
    .filter((m) => m.role === 'tool')
    .map((m) => m.text)
    .join('\n');
  const all = [
    system,
    ...msgs.map((m) => [m.text, ...m.toolCalls.map((c) => `${c.name} ${c.arguments}`)].join('\n')),
  ].join('\n');
  // A conversation is identified by its opening: model, system and first user message.
  const firstUser = msgs.find((m) => m.role === 'user')?.text ?? '';
  const conversationKey = createHash('sha256')
    .update(`${api}\0${model}\0${system}\0${firstUser}`)
    .digest('hex')
    .slice(0, 16);
  return {
    api,
    model,
    stream,
    system,
    user,
    toolResult,
    all,
    tools: parsed.tools,
    turn: msgs.filter((m) => m.role === 'assistant').length + 1,
    conversationKey,
    messages: msgs,
    body,
  };
}
