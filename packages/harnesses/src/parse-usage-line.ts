// The usage line agents print last: scripted agents and `command` harness agents end their
// output with a JSON line carrying `usage` (other JSON and text lines are skipped).
import { usageSchema, type Usage } from '@assay/core';

/** The last `{"usage": …}` line of an agent's output. */
export function parseUsageLine(logs: string): Usage | null {
  for (const line of logs.trim().split('\n').reverse()) {
    const text = line.trim();
    if (!text.startsWith('{')) continue;
    try {
      const parsed = usageSchema.safeParse((JSON.parse(text) as { usage?: unknown }).usage);
      if (parsed.success) return parsed.data;
    } catch {
      // not JSON
    }
  }
  return null;
}
