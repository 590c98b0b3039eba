// The ustar archive a step's workdir/ is uploaded as (Docker's putArchive): read back by GNU tar, every
// entry root-owned with the host's mode, long paths split into ustar's prefix, the folder itself left out.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tarFolderContents } from '../src/harbor/folder-tar.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'assay-folder-tar-'));
  dirs.push(d);
  return d;
};

describe('tarFolderContents', () => {
  it('archives files, folders and symlinks as root with their modes, and tar extracts them as they were', () => {
    const src = tmp();
    const deep = `${'d'.repeat(60)}/${'e'.repeat(60)}`;
    mkdirSync(path.join(src, 'data', deep), { recursive: true });
    writeFileSync(path.join(src, 'setup.sh'), '#!/bin/bash\necho hi\n');
    chmodSync(path.join(src, 'setup.sh'), 0o750);
    writeFileSync(path.join(src, 'data', 'numbers.txt'), '3\n4\n');
    writeFileSync(path.join(src, 'data', deep, `${'f'.repeat(90)}.txt`), 'deep');
    writeFileSync(path.join(src, 'empty'), '');
    symlinkSync('data/numbers.txt', path.join(src, 'link'));
    const archive = path.join(tmp(), 'a.tar');
    writeFileSync(archive, tarFolderContents(src));

    const listing = execFileSync('tar', ['-tvf', archive, '--numeric-owner'], { encoding: 'utf8' });
    const lines = listing.trim().split('\n');
    expect(lines.every((l) => l.split(/\s+/)[1] === '0/0')).toBe(true);
    expect(lines.map((l) => l.split(/\s+/)[0])).toContain('-rwxr-x---');
    expect(lines.some((l) => l.endsWith(' ./') || l.endsWith(' .'))).toBe(false);

    const out = tmp();
    execFileSync('tar', ['-xf', archive, '-C', out]);
    expect(readFileSync(path.join(out, 'setup.sh'), 'utf8')).toBe('#!/bin/bash\necho hi\n');
    expect(readFileSync(path.join(out, 'data', 'numbers.txt'), 'utf8')).toBe('3\n4\n');
    expect(readFileSync(path.join(out, 'data', deep, `${'f'.repeat(90)}.txt`), 'utf8')).toBe('deep');
    expect(readFileSync(path.join(out, 'empty'), 'utf8')).toBe('');
    expect(readFileSync(path.join(out, 'link'), 'utf8')).toBe('3\n4\n');
  });

  it('names a path ustar cannot hold', () => {
    const src = tmp();
    writeFileSync(path.join(src, 'x'.repeat(120)), '');
    expect(() => tarFolderContents(src)).toThrow(/a path too long to upload/);
  });
});
