// Split text into stream pieces of at most `size` characters (code points kept whole).
export function chunkText(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

/** One server-sent event frame. */
export function sseFrame(data: unknown, event?: string): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`;
}

export interface WireContext {
  id: string;
  model: string;
  created: number;
  chunkChars: number;
  /** OpenAI chat: stream_options.include_usage was set. */
  includeUsage: boolean;
}
