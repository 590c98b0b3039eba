import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { temporalTarget } from './temporal-target.js';

/** The repository root: where pnpm-workspace.yaml is, walking up from this file. */
export function repoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'pnpm-workspace.yaml'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('cannot find the repository root (pnpm-workspace.yaml)');
    dir = up;
  }
  return dir;
}

/** The Temporal server's address and namespace, as temporalTarget() reads them (envconfig). */
export function temporalAddress(): string {
  return temporalTarget().address;
}

export function temporalNamespace(): string {
  return temporalTarget().namespace;
}
