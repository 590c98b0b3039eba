import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: tests share its .assay/ (venv, images) so ensure* calls are no-ops after `assay setup`. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export const testLog = (line: string) => {
  if (process.env.ASSAY_TEST_VERBOSE) console.log(line);
};
