/** A value as a stored JSON document: pretty-printed, newline-terminated, refused when it is not JSON. */
export function serializeJson(key: string, value: unknown): string {
  const text = JSON.stringify(value, null, 2) as string | undefined;
  if (text === undefined) throw new Error(`cannot store ${key}: the value is not JSON (${typeof value})`);
  return `${text}\n`;
}
