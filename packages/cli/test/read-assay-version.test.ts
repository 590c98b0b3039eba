// The assay a worker names in its records: package.json's version, and the commit of the checkout it runs
// from (with whether it had changes), or null outside one, on real folders and real git.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../src/repo-root.js';
import { readAssayVersion } from '../src/worker/read-assay-version.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'assay-version-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' }).trim();

/** A folder with a package.json of this version (and a git checkout of it when `commit`). */
function folder(name: string, version: string, commit: boolean): string {
  const dir = path.join(tmp, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version }));
  if (commit) {
    git(dir, 'init', '-q');
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'first');
  }
  return dir;
}

describe('the assay version a worker records', () => {
  it("is this checkout's package.json version and HEAD", () => {
    const root = repoRoot();
    const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
    const found = readAssayVersion(root);
    expect(found).toMatchObject({ version, commit: git(root, 'rev-parse', 'HEAD') });
    expect(typeof found.dirty).toBe('boolean');
    // Once per process: the same answer, not read again.
    expect(readAssayVersion(root)).toBe(found);
  });

  it('tells a clean checkout from one with changes, and has no commit outside one', () => {
    const clean = folder('clean', '1.2.3', true);
    expect(readAssayVersion(clean)).toEqual({
      version: '1.2.3',
      commit: git(clean, 'rev-parse', 'HEAD'),
      dirty: false,
    });
    const changed = folder('changed', '1.2.4', true);
    writeFileSync(path.join(changed, 'new.txt'), 'x');
    expect(readAssayVersion(changed)).toMatchObject({ version: '1.2.4', dirty: true });
    expect(readAssayVersion(folder('plain', '2.0.0', false))).toEqual({ version: '2.0.0', commit: null, dirty: null });
    // A copy of assay inside another repository is not at that repository's commit.
    expect(readAssayVersion(folder('changed/vendored', '3.0.0', false))).toEqual({
      version: '3.0.0',
      commit: null,
      dirty: null,
    });
  });
});
