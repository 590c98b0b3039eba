import { usageSchema, type Usage } from '@assay/core';

/** Scripted agents print a final JSON line with `usage`; harness adapters bring their own parsers. */
export function parseAgentUsage(logs: string): Usage | null {
  const lines = logs.trim().split('\n').reverse();
  for (const line of lines) {
    const text = line.trim();
    if (!text.startsWith('{')) continue;
    try {
      const parsed = usageSchema.safeParse((JSON.parse(text) as { usage?: unknown }).usage);
      if (parsed.success) return parsed.data;
    } catch {
      // not JSON: keep looking
    }
  }
  return null;
}
