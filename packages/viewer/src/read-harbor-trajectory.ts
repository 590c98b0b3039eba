// A Harbor trial's agent/trajectory.json (ATIF, harbor.models.trajectories) as the transcript the trial page
// shows: one entry per step, its fields shown as the transcript view shows a JSON line's. The step's shape is
// the ATIF-v1.8 one @assay/harnesses writes (atif-trajectory.ts's AtifStep); only what is shown is named here,
// since the viewer does not depend on the harnesses package.
import { readHarborText } from '@assay/analysis';

interface AtifStepShown {
  step_id: number;
  source: string;
  model_name?: string;
  message: unknown;
  reasoning_content?: string;
  tool_calls?: { function_name: string; arguments: Record<string, unknown> }[];
  observation?: { results: { content?: unknown }[] };
  metrics?: Record<string, unknown>;
}

/** Steps shown at most, as for transcript.log: a long run should not stall the page. */
const MAX_STEPS = 5000;
/** A trajectory larger than this is not parsed (a hostile or runaway file must not be loaded whole). */
const MAX_BYTES = 32 * 1024 * 1024;

/** `file` below `root` (the job folder); `name` as the page names it, e.g. `steps/fix/agent/trajectory.json`. */
export function readHarborTrajectory(file: string | null, root: string, name = 'agent/trajectory.json') {
  const title = `ATIF trajectory (${name})`;
  const none = { present: false, lines: [], omitted: 0, agentResult: null, title };
  if (file === null) return none;
  let steps: AtifStepShown[];
  try {
    const text = readHarborText(root, file, MAX_BYTES);
    if (text.note) return { ...none, note: text.note };
    if (text.omittedBytes > 0) return { ...none, note: `${name} is over ${MAX_BYTES / 2 ** 20} MiB: not shown` };
    const doc = JSON.parse(text.text) as { steps?: unknown };
    if (!Array.isArray(doc.steps)) return { ...none, note: `${name} has no steps` };
    steps = doc.steps as AtifStepShown[];
  } catch (err) {
    return { ...none, note: `${name} cannot be read: ${(err as Error).message.replace(file, '…')}` };
  }
  const lines = steps.slice(0, MAX_STEPS).map((s, i) => ({ n: i + 1, text: '', json: stepFields(s) }));
  return { present: true, lines, omitted: Math.max(0, steps.length - MAX_STEPS), agentResult: null, title };
}

function stepFields(s: AtifStepShown): Record<string, unknown> {
  const fields: Record<string, unknown> = { step: s.step_id, source: s.source };
  if (s.model_name) fields.model = s.model_name;
  fields.message = typeof s.message === 'string' ? s.message : JSON.stringify(s.message);
  if (s.reasoning_content) fields.reasoning = s.reasoning_content;
  const calls = (s.tool_calls ?? []).map((c) => `${c.function_name} ${JSON.stringify(c.arguments)}`);
  if (calls.length > 0) fields.tool_calls = calls.join('\n');
  const results = (s.observation?.results ?? []).map((r) => r.content).filter((c) => c !== undefined);
  if (results.length > 0)
    fields.observation = results.map((c) => (typeof c === 'string' ? c : JSON.stringify(c))).join('\n');
  if (s.metrics) fields.metrics = s.metrics;
  return fields;
}
