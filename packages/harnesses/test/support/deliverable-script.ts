// A mock-llm script that plays a tiny agent session through whatever tools a CLI
// offers: when the newest user text holds `ASSAY-TASK file=<name> text=<token>`, the
// model calls the CLI's file-writing tool (or its shell tool) to write <token> into
// /workspace/outputs/<name>, then finishes once the tool result comes back.
// Requests without tools (titles, summaries, routing checks) get a short text.
import type { MockReply, MockRequest, MockScript } from '@assay/mock-llm';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface ToolSchema {
  name: string;
  params: Json;
}

/** Fixed usage per reply kind, so a run's total is easy to predict and compare. */
export const USAGE = {
  toolCall: { input: 1200, output: 40, cachedInput: 300 },
  final: { input: 1500, output: 20, cachedInput: 0 },
  auxiliary: { input: 100, output: 5, cachedInput: 0 },
};

export function toolSchemas(req: MockRequest): ToolSchema[] {
  const body = isObj(req.body) ? req.body : {};
  const tools = Array.isArray(body.tools) ? body.tools.filter(isObj) : [];
  const out: ToolSchema[] = [];
  for (const t of tools) {
    if (Array.isArray(t.functionDeclarations)) {
      for (const f of t.functionDeclarations.filter(isObj)) {
        out.push({
          name: String(f.name),
          params: isObj(f.parametersJsonSchema) ? f.parametersJsonSchema : isObj(f.parameters) ? f.parameters : {},
        });
      }
    } else if (isObj(t.function))
      out.push({ name: String(t.function.name), params: isObj(t.function.parameters) ? t.function.parameters : {} });
    else if (typeof t.name === 'string')
      out.push({
        name: t.name,
        params: isObj(t.input_schema) ? t.input_schema : isObj(t.parameters) ? t.parameters : {},
      });
  }
  return out;
}

function props(schema: Json): Json {
  return isObj(schema.properties) ? schema.properties : {};
}

function typeOf(p: unknown): string {
  if (!isObj(p)) return '';
  const t = p.type;
  return (typeof t === 'string' ? t : Array.isArray(t) ? String(t[0]) : '').toLowerCase();
}

/** A call writing `text` to `file` with the CLI's own tools; null when it offers none that fits. */
export function writeFileCall(
  tools: ToolSchema[],
  file: string,
  text: string,
): { name: string; arguments: Json } | null {
  for (const t of tools) {
    if (!/write/i.test(t.name) || /todo|memory/i.test(t.name)) continue;
    const p = props(t.params);
    const pathKey = ['file_path', 'absolute_path', 'path', 'filename', 'file'].find((k) => k in p);
    const contentKey = ['content', 'contents', 'text', 'data'].find((k) => k in p);
    if (pathKey && contentKey) return { name: t.name, arguments: { [pathKey]: file, [contentKey]: `${text}\n` } };
  }
  const script = `mkdir -p "$(dirname '${file}')" && printf '%s\\n' '${text}' > '${file}'`;
  for (const t of tools) {
    if (
      !/^(bash|shell|shell_command|exec|exec_command|run_shell_command|terminal|run_command|execute_command)$/i.test(
        t.name,
      )
    )
      continue;
    const p = props(t.params);
    const key = ['command', 'cmd', 'script'].find((k) => k in p);
    if (!key) continue;
    return { name: t.name, arguments: { [key]: typeOf(p[key]) === 'array' ? ['bash', '-lc', script] : script } };
  }
  return null;
}

const TASK = /ASSAY-TASK file=(\S+) text=(\S+)/;

export function deliverableReply(req: MockRequest): MockReply {
  const tools = toolSchemas(req);
  if (tools.length === 0) return { text: 'ok', usage: USAGE.auxiliary };
  const last = req.messages.at(-1);
  if (last?.role === 'tool' || req.toolResult.length > 0)
    return { text: 'Done: the deliverable is written.', usage: USAGE.final };
  // The task of this user turn: in any message after the last assistant one (some CLIs
  // append system reminders after the user's text).
  const lastAssistant = req.messages.map((m) => m.role).lastIndexOf('assistant');
  const task =
    TASK.exec(
      req.messages
        .slice(lastAssistant + 1)
        .map((m) => m.text)
        .join('\n'),
    ) ?? TASK.exec(req.user);
  if (!task) return { text: 'ok', usage: USAGE.auxiliary };
  const call = writeFileCall(tools, `/workspace/outputs/${task[1]}`, task[2] ?? '');
  if (!call) return { text: `no usable tool among: ${tools.map((t) => t.name).join(', ')}`, usage: USAGE.final };
  return { toolCalls: [call], usage: USAGE.toolCall };
}

export function deliverableScript(): MockScript {
  return { rules: [], default: deliverableReply };
}
