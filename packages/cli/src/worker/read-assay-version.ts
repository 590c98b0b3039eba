// The assay a worker runs, named in every record's provenance: the repository root's package.json version
// and, when it runs from a git checkout, the commit and whether the checkout had changes.
import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { AssayVersion } from '@assay/core';

const read = new Map<string, AssayVersion>();

/** Read once per process and root (git status walks the whole checkout): every worker started here shares it. */
export function readAssayVersion(root: string): AssayVersion {
  const known = read.get(root);
  if (known) return known;
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version?: unknown };
  const version = typeof pkg.version === 'string' ? pkg.version : 'unknown';
  // Only this root's own checkout: a copy of assay inside another repository is not at that one's commit.
  const top = git(root, ['rev-parse', '--show-toplevel']);
  const commit = top !== null && samePath(top, root) ? git(root, ['rev-parse', 'HEAD']) : null;
  const status = commit === null ? null : git(root, ['status', '--porcelain']);
  const found = { version, commit, dirty: status === null ? null : status.length > 0 };
  read.set(root, found);
  return found;
}

/** git's trimmed output, or null: no git, not a checkout, or any other failure. */
function git(root: string, args: string[]): string | null {
  try {
    return execFileSync('git', ['-C', root, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 30_000,
      maxBuffer: 64 * 1024 ** 2,
      // Never take the index lock for a refresh: someone may be using the checkout meanwhile.
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
    }).trim();
  } catch {
    return null;
  }
}

function samePath(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}
