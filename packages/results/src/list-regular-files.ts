import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Regular files under a local folder, forward-slash relative and sorted; symlinks are never followed. */
export async function listRegularFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (abs: string, rel: string): Promise<void> => {
    const entries = await readdir(abs, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' && rel === '') return [];
      throw err;
    });
    for (const e of entries) {
      const childRel = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) await visit(path.join(abs, e.name), childRel);
      else if (e.isFile()) out.push(childRel);
    }
  };
  await visit(dir, '');
  return out.sort();
}
