// Validation of store keys: relative, forward-slash, no way out of the results root.

export function assertResultsKey(key: string): string {
  const reason = keyProblem(key);
  if (reason) throw new Error(`invalid results key ${JSON.stringify(key)}: ${reason}`);
  return key;
}

/** A prefix is '' (the root) or a key; one trailing slash is tolerated. Returned without it. */
export function normalizePrefix(prefix: string): string {
  const trimmed = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  return trimmed === '' ? '' : assertResultsKey(trimmed);
}

export function joinKey(prefix: string, key: string): string {
  return prefix === '' ? key : `${prefix}/${key}`;
}

/** Name prefix of temporary files of in-flight atomic writes; never a key, never listed. */
export const TEMP_PREFIX = '.assay-tmp-';

function keyProblem(key: string): string | null {
  if (typeof key !== 'string' || key === '') return 'a key must be a non-empty string';
  if (key.includes('\\')) return 'backslashes are not allowed (use forward slashes)';
  if (key.startsWith('/') || /^[A-Za-z]:/.test(key)) return 'a key is relative to the results root, not absolute';
  if (key.includes('\0')) return 'NUL characters are not allowed';
  for (const part of key.split('/')) {
    if (part === '') return 'empty path segment (a leading, trailing or double slash)';
    if (part === '..' || part === '.') return `"${part}" segments are not allowed`;
    if (part.startsWith(TEMP_PREFIX)) return `segments starting with ${TEMP_PREFIX} are reserved`;
  }
  return null;
}
