/** The first line of an error's message: enough for one `file:field: reason` line. */
export function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}
