import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** Regular files under dir, relative and sorted, never following symlinks. */
export function listRegularFiles(dir: string): string[] {
  const out: string[] = [];
  if (!existsSync(dir)) return out;
  const visit = (abs: string): void => {
    for (const e of readdirSync(abs, { withFileTypes: true })) {
      const child = path.join(abs, e.name);
      if (e.isDirectory()) visit(child);
      else if (e.isFile()) out.push(path.relative(dir, child));
    }
  };
  visit(dir);
  return out.sort();
}
