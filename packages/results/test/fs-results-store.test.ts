import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { casKey, createFsResultsStore, openResultsStore, type ResultsStore } from '../src/index.js';

const dirs: string[] = [];
async function tmp(): Promise<string> {
  const d = await mkdtemp(path.join(tmpdir(), 'assay-results-'));
  dirs.push(d);
  return d;
}
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/** Every entry under dir, temporary files included (the store's own listing hides them). */
async function allEntries(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String).sort();
}

describe('filesystem results store', () => {
  it('round-trips JSON and text at forward-slash keys, as files below the root', async () => {
    const root = await tmp();
    const store = createFsResultsStore(root);
    await store.putJson('trials/s/t/1/record.json', { a: 1, nested: [true, null] });
    await store.putText('trials/s/t/1/transcript.log', 'hello\n');
    expect(await store.getJson('trials/s/t/1/record.json')).toEqual({ a: 1, nested: [true, null] });
    expect(await store.getText('trials/s/t/1/transcript.log')).toBe('hello\n');
    expect(await readFile(path.join(root, 'trials', 's', 't', '1', 'record.json'), 'utf8')).toBe(
      `${JSON.stringify({ a: 1, nested: [true, null] }, null, 2)}\n`,
    );
    expect(await store.getJson('trials/s/t/2/record.json')).toBeNull();
    expect(await store.getText('job.json/under-a-file')).toBeNull();
    expect(await store.has('trials/s/t/1/record.json')).toBe(true);
    expect(await store.has('trials/s/t/1')).toBe(false);
    expect(store.location).toBe(root);
  });

  it('lists keys recursively and sorted, under a prefix, without symlinks', async () => {
    const root = await tmp();
    const store = createFsResultsStore(root);
    for (const key of ['b/2.json', 'a/z/1.json', 'a/1.json', 'job.json']) await store.putJson(key, {});
    await symlink(path.join(root, 'job.json'), path.join(root, 'a', 'link.json'));
    expect(await store.list('')).toEqual(['a/1.json', 'a/z/1.json', 'b/2.json', 'job.json']);
    expect(await store.list('a')).toEqual(['a/1.json', 'a/z/1.json']);
    expect(await store.list('a/')).toEqual(['a/1.json', 'a/z/1.json']);
    expect(await store.list('missing')).toEqual([]);
    expect(await createFsResultsStore(path.join(root, 'nope')).list('')).toEqual([]);
  });

  it('reports JSON that does not parse, naming the file', async () => {
    const root = await tmp();
    await writeFile(path.join(root, 'job.json'), '{"half":');
    await expect(createFsResultsStore(root).getJson('job.json')).rejects.toThrow(/job\.json is not valid JSON/);
  });
});

describe('copies, deletes and bytes (archive-for-retry, page images)', () => {
  it('copies a key whole, repeats safely after the source is gone, deletes idempotently', async () => {
    const root = await tmp();
    const store = createFsResultsStore(root);
    await store.putJson('trials/s/t/1/record.json', { status: 'agent-failed' });
    expect(await store.copy('trials/s/t/1/record.json', 'trials/s/t/1/attempts/1/record.json')).toBe(true);
    await store.delete('trials/s/t/1/record.json');
    await store.delete('trials/s/t/1/record.json');
    // A repeated archive step: the source is gone, the copy is there.
    expect(await store.copy('trials/s/t/1/record.json', 'trials/s/t/1/attempts/1/record.json')).toBe(true);
    expect(await store.copy('trials/s/t/2/record.json', 'trials/s/t/2/attempts/1/record.json')).toBe(false);
    expect(await store.list('trials')).toEqual(['s/t/1/attempts/1/record.json'].map((k) => `trials/${k}`));
    expect(await readFile(path.join(root, 'trials/s/t/1/attempts/1/record.json'), 'utf8')).toBe(
      '{\n  "status": "agent-failed"\n}\n',
    );
    await store.putBinary('pages/ab/page-1.png', new Uint8Array([1, 2, 3]));
    expect([...((await store.getBinary('pages/ab/page-1.png')) ?? [])]).toEqual([1, 2, 3]);
    expect(await store.getBinary('pages/ab/page-2.png')).toBeNull();
  });
});

describe('atomic writes', () => {
  it('leaves the previous value and no file behind when the value cannot be serialized', async () => {
    const root = await tmp();
    const store = createFsResultsStore(root);
    await store.putJson('job.json', { v: 1 });
    const before = await allEntries(root);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(store.putJson('job.json', circular)).rejects.toThrow(/circular/i);
    await expect(store.putJson('job.json', { n: 1n })).rejects.toThrow(/BigInt/);
    await expect(store.putJson('other.json', undefined)).rejects.toThrow(/not JSON/);
    expect(await store.getJson('job.json')).toEqual({ v: 1 });
    expect(await allEntries(root)).toEqual(before);
  });

  it('removes its temporary file when the final rename fails', async () => {
    const root = await tmp();
    const store = createFsResultsStore(root);
    await mkdir(path.join(root, 'trials', 'record.json', 'occupied'), { recursive: true });
    const before = await allEntries(root);
    await expect(store.putJson('trials/record.json', { v: 1 })).rejects.toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(await allEntries(root)).toEqual(before);
  });

  // Root ignores permission bits, so this case only means something for other users.
  it.skipIf(process.getuid?.() === 0)('writes nothing into a folder it may not write', async () => {
    const root = await tmp();
    const store = createFsResultsStore(root);
    await mkdir(path.join(root, 'ro'));
    await chmod(path.join(root, 'ro'), 0o555);
    await expect(store.putJson('ro/x.json', { v: 1 })).rejects.toThrow(/EACCES/);
    expect(await readdir(path.join(root, 'ro'))).toEqual([]);
  });

  it('hides temporary files of writes in flight from listings', async () => {
    const root = await tmp();
    const store = createFsResultsStore(root);
    await store.putJson('trials/a.json', {});
    await writeFile(path.join(root, 'trials', '.assay-tmp-b.json-1-x'), '{"par');
    expect(await store.list('trials')).toEqual(['trials/a.json']);
  });
});

describe('content-addressed blobs', () => {
  it('stores bytes and files under cas/sha256/<aa>/<sha> once, and reads them back', async () => {
    const root = await tmp();
    const store = createFsResultsStore(root);
    const bytes = Buffer.from('the deliverable\n');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const ref = await store.putBytes(bytes);
    expect(ref).toEqual({ sha256, size: bytes.length });
    const stored = path.join(root, 'cas', 'sha256', sha256.slice(0, 2), sha256);
    expect(casKey(sha256)).toBe(`cas/sha256/${sha256.slice(0, 2)}/${sha256}`);
    const first = await stat(stored);

    const local = path.join(await tmp(), 'same.txt');
    await writeFile(local, bytes);
    await new Promise((r) => setTimeout(r, 20));
    expect(await store.putBlob(local)).toEqual(ref);
    expect(await store.putBytes(bytes)).toEqual(ref);
    const again = await stat(stored);
    // Written once: the second and third call found it and did not rewrite it.
    expect([again.ino, again.mtimeMs]).toEqual([first.ino, first.mtimeMs]);

    expect(Buffer.from(await store.readBlob(sha256)).equals(bytes)).toBe(true);
    const out = path.join(await tmp(), 'deep', 'er', 'copy.txt');
    await store.copyBlobTo(sha256, out);
    expect(await readFile(out, 'utf8')).toBe('the deliverable\n');
    expect((await allEntries(root)).filter((e) => e.includes('.assay-tmp-'))).toEqual([]);
  });

  it('streams a file that is new to the store and sizes it', async () => {
    const root = await tmp();
    const store = createFsResultsStore(root);
    const local = path.join(await tmp(), 'big.bin');
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 7, 9);
    await writeFile(local, bytes);
    const ref = await store.putBlob(local);
    expect(ref).toEqual({ sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length });
    expect((await lstat(path.join(root, ...casKey(ref.sha256).split('/')))).size).toBe(bytes.length);
  });

  it('says clearly when a blob is missing or a hash is malformed', async () => {
    const store = createFsResultsStore(await tmp());
    const absent = 'c'.repeat(64);
    await expect(store.readBlob(absent)).rejects.toThrow(`blob ${absent} is not in the results store`);
    await expect(store.copyBlobTo(absent, path.join(await tmp(), 'x'))).rejects.toThrow(/is not in the results store/);
    await expect(store.readBlob('../../etc/passwd')).rejects.toThrow(/is not a sha256/);
  });

  it('replaces a symlink at the copy destination instead of writing through it', async () => {
    const store = createFsResultsStore(await tmp());
    const { sha256 } = await store.putBytes(Buffer.from('new'));
    const dir = await tmp();
    await writeFile(path.join(dir, 'victim.txt'), 'keep');
    await symlink(path.join(dir, 'victim.txt'), path.join(dir, 'dest.txt'));
    await store.copyBlobTo(sha256, path.join(dir, 'dest.txt'));
    expect(await readFile(path.join(dir, 'victim.txt'), 'utf8')).toBe('keep');
    expect((await lstat(path.join(dir, 'dest.txt'))).isFile()).toBe(true);
  });
});

describe('keys', () => {
  const bad: [string, RegExp][] = [
    ['../outside.json', /"\.\." segments are not allowed/],
    ['trials/../../x', /"\.\." segments are not allowed/],
    ['/etc/passwd', /not absolute/],
    ['C:/x', /not absolute/],
    ['trials\\s\\record.json', /backslashes are not allowed/],
    ['a//b', /empty path segment/],
    ['a/', /empty path segment/],
    ['', /non-empty/],
    ['./a', /"\." segments/],
  ];
  it.each(bad)('rejects %j with a clear error, on every operation', async (key, why) => {
    const store = createFsResultsStore(await tmp());
    await expect(store.putJson(key, {})).rejects.toThrow(why);
    await expect(store.getJson(key)).rejects.toThrow(/invalid results key/);
    await expect(store.putText(key, '')).rejects.toThrow(/invalid results key/);
    await expect(store.has(key)).rejects.toThrow(/invalid results key/);
  });

  it('rejects an escaping prefix in list and scoped', async () => {
    const store = createFsResultsStore(await tmp());
    await expect(store.list('..')).rejects.toThrow(/invalid results key/);
    expect(() => store.scoped('/abs')).toThrow(/invalid results key/);
  });
});

describe('scoped stores', () => {
  it('roots keys at a prefix and shares the content-addressed area of the root', async () => {
    const root = await tmp();
    const store = createFsResultsStore(root);
    const judge: ResultsStore = store.scoped('judges/holistic');
    await judge.putJson('trials/s/t/1/record.json', { v: 2 });
    expect(await store.getJson('judges/holistic/trials/s/t/1/record.json')).toEqual({ v: 2 });
    expect(await judge.list('trials')).toEqual(['trials/s/t/1/record.json']);
    expect(await judge.list('')).toEqual(['trials/s/t/1/record.json']);
    expect(await judge.has('trials/s/t/1/record.json')).toBe(true);
    expect(judge.location).toBe(`${root}/judges/holistic`);
    const nested = judge.scoped('trials/s');
    expect(await nested.list('')).toEqual(['t/1/record.json']);

    const { sha256 } = await judge.putBytes(Buffer.from('shared'));
    expect(await store.has(casKey(sha256))).toBe(true);
    expect(Buffer.from(await store.readBlob(sha256)).toString()).toBe('shared');
    await expect(judge.getJson('../x')).rejects.toThrow(/invalid results key/);
  });
});

describe('openResultsStore', () => {
  it('opens a folder path (relative ones against the working directory) or a file: URL', async () => {
    const root = await tmp();
    await createFsResultsStore(root).putJson('job.json', { id: 'j' });
    expect(await openResultsStore(root).getJson('job.json')).toEqual({ id: 'j' });
    expect(await openResultsStore(pathToFileURL(root).href).getJson('job.json')).toEqual({ id: 'j' });
    expect(openResultsStore(path.relative(process.cwd(), root)).location).toBe(root);
  });

  it('refuses unknown schemes, a malformed s3:// location and an empty location', () => {
    expect(() => openResultsStore('s3://Not_A_Bucket/results')).toThrow(/is not a bucket name/);
    expect(() => openResultsStore('gs://bucket/results')).toThrow(/unsupported scheme/);
    expect(() => openResultsStore(' ')).toThrow(/empty/);
  });
});
