// JSON-lines helpers for CLI output (other lines — progress text, warnings — are skipped).
import fs from 'node:fs';

export type JsonObject = Record<string, unknown>;

export function jsonLines(text: string): JsonObject[] {
  const out: JsonObject[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line.startsWith('{')) continue;
    try {
      const v: unknown = JSON.parse(line);
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) out.push(v as JsonObject);
    } catch {
      // a line that only looks like JSON
    }
  }
  return out;
}

export const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
export const obj = (v: unknown): JsonObject | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : undefined;
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** All regular files under dir (relative paths), for "what did this run add" comparisons. */
export function listFiles(dir: string, prefix = ''): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(prefix ? `${dir}/${prefix}` : dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...listFiles(dir, rel));
    else if (e.isFile()) out.push(rel);
  }
  return out;
}

/** Sizes of every file under dir, keyed by relative path. */
export function fileSizes(dir: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const rel of listFiles(dir)) {
    try {
      out[rel] = fs.statSync(`${dir}/${rel}`).size;
    } catch {
      // removed meanwhile
    }
  }
  return out;
}
