// The agent's transcript as the harness recorded it (transcript.log beside the record): each
// line kept, JSON lines parsed so the page can show events, tool calls and usage as fields.
import { agentResultKey, transcriptKey, type ResultsStore } from '@assay/results';

interface TranscriptLine {
  n: number;
  text: string;
  json: Record<string, unknown> | null;
}

/** Lines shown at most; the rest is counted (a long agent log should not stall the page). */
const MAX_LINES = 5000;

export async function readTranscript(store: ResultsStore, dirKey: string) {
  const [log, result] = await Promise.all([
    store.getText(transcriptKey(dirKey)),
    store.getJson(agentResultKey(dirKey)).catch(() => null),
  ]);
  const all = log === null ? [] : log.split('\n');
  if (all.at(-1) === '') all.pop();
  const lines: TranscriptLine[] = all.slice(0, MAX_LINES).map((text, i) => ({ n: i + 1, text, json: parseJson(text) }));
  return { present: log !== null, lines, omitted: Math.max(0, all.length - MAX_LINES), agentResult: result };
}

function parseJson(text: string): Record<string, unknown> | null {
  const t = text.trim();
  if (!t.startsWith('{')) return null;
  try {
    const v = JSON.parse(t) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
