/** A value as a stored JSON document: pretty-printed, newline-terminated, refused when it is not JSON. */
export function serializeJson(key: string, value: unknown): string {
  const text = JSON.stringify(value, null, 2) as string | undefined;
  if (text === undefined) throw new Error(`cannot store ${key}: the value is not JSON (${typeof value})`);
  return `${text}\n`;
}

/** A stored document parsed back, or null when absent; `where` names it in the error when it is not JSON. */
export function parseStoredJson(text: string | null, where: string): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new Error(`${where} is not valid JSON: ${(err as Error).message}`);
  }
}
