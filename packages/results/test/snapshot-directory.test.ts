import { createHash } from 'node:crypto';
import { link, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { casKey, createFsResultsStore, restoreSnapshot, snapshotDirectory, storeFile } from '../src/index.js';

const dirs: string[] = [];
async function tmp(): Promise<string> {
  const d = await mkdtemp(path.join(tmpdir(), 'assay-snapshot-'));
  dirs.push(d);
  return d;
}
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A workspace with nested files, a duplicate, symlinks (to a file and a folder outside it) and a hard link that must not be followed. */
async function makeWorkspace(): Promise<string> {
  const outside = await tmp();
  await writeFile(path.join(outside, 'secret.txt'), 'not yours');
  const ws = await tmp();
  await mkdir(path.join(ws, 'outputs', 'deep', 'er'), { recursive: true });
  await mkdir(path.join(ws, 'inputs'));
  await writeFile(path.join(ws, 'outputs', 'report.md'), '# report\n');
  await writeFile(path.join(ws, 'outputs', 'deep', 'er', 'table.csv'), 'a,b\n1,2\n');
  await writeFile(path.join(ws, 'inputs', 'brief.txt'), '# report\n');
  await symlink(path.join(outside, 'secret.txt'), path.join(ws, 'outputs', 'leak.txt'));
  await symlink(outside, path.join(ws, 'outputs', 'leak-dir'));
  // A hard link to a file outside: same inode, so reading it would read the outside file.
  await link(path.join(outside, 'secret.txt'), path.join(ws, 'outputs', 'hard-leak.txt'));
  return ws;
}

describe('snapshotDirectory', () => {
  it('stores every regular file once, never follows symlinks or hard links, and stores the manifest by its hash', async () => {
    const root = await tmp();
    const store = createFsResultsStore(root);
    const snap = await snapshotDirectory(store, await makeWorkspace());
    expect(snap.files).toEqual([
      { path: 'inputs/brief.txt', sha256: sha('# report\n'), size: 9 },
      { path: 'outputs/deep/er/table.csv', sha256: sha('a,b\n1,2\n'), size: 8 },
      { path: 'outputs/report.md', sha256: sha('# report\n'), size: 9 },
    ]);
    // Same bytes and hash as the manifests written before this package: JSON.stringify of the sorted list.
    const manifest = JSON.stringify(snap.files);
    expect(snap.manifestSha256).toBe(sha(manifest));
    expect(Buffer.from(await store.readBlob(snap.manifestSha256)).toString()).toBe(manifest);
    const blobs = (await store.list('cas')).sort();
    expect(blobs).toEqual([casKey(sha('# report\n')), casKey(sha('a,b\n1,2\n')), casKey(snap.manifestSha256)].sort());
    expect(blobs.some((k) => k.endsWith(sha('not yours')))).toBe(false);
  });

  it('snapshots a missing folder as empty', async () => {
    const snap = await snapshotDirectory(createFsResultsStore(await tmp()), path.join(await tmp(), 'absent'));
    expect(snap).toEqual({ manifestSha256: sha('[]'), files: [] });
  });

  it('refuses to store a symlink given directly', async () => {
    const ws = await makeWorkspace();
    await expect(storeFile(createFsResultsStore(await tmp()), path.join(ws, 'outputs', 'leak.txt'))).rejects.toThrow(
      /not a regular file/,
    );
  });
});

describe('restoreSnapshot', () => {
  it('materializes the files under a prefix, without it, into a folder', async () => {
    const store = createFsResultsStore(await tmp());
    const snap = await snapshotDirectory(store, await makeWorkspace());
    const dest = await tmp();
    await restoreSnapshot(store, snap.files, dest, 'outputs/');
    expect((await readdir(dest, { recursive: true })).map(String).sort()).toEqual([
      'deep',
      'deep/er',
      'deep/er/table.csv',
      'report.md',
    ]);
    expect(await readFile(path.join(dest, 'deep', 'er', 'table.csv'), 'utf8')).toBe('a,b\n1,2\n');
    const all = await tmp();
    await restoreSnapshot(store, snap.files, all);
    expect(await readFile(path.join(all, 'inputs', 'brief.txt'), 'utf8')).toBe('# report\n');
  });

  it('refuses a manifest path that would leave the destination', async () => {
    const store = createFsResultsStore(await tmp());
    const { sha256, size } = await store.putBytes(Buffer.from('x'));
    const dest = await tmp();
    for (const bad of ['../escape.txt', '/etc/x', 'a/../../b', 'a\\b'])
      await expect(restoreSnapshot(store, [{ path: bad, sha256, size }], dest)).rejects.toThrow(
        /not a plain relative path/,
      );
    expect(await readdir(dest)).toEqual([]);
  });

  it('fails clearly when a blob of the snapshot is not stored', async () => {
    const store = createFsResultsStore(await tmp());
    const files = [{ path: 'outputs/a.txt', sha256: 'd'.repeat(64), size: 1 }];
    await expect(restoreSnapshot(store, files, await tmp(), 'outputs/')).rejects.toThrow(/is not in the results store/);
  });
});
