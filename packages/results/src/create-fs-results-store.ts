// The filesystem backend: a key is a file below the root. Writes go to a temporary file
// in the target's folder and are renamed into place, so a key appears whole or not at all.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { casKey } from './results-layout.js';
import { assertResultsKey, joinKey, normalizePrefix, TEMP_PREFIX } from './results-key.js';
import type { BlobRef, ResultsStore } from './results-store.js';
import { scopeResultsStore } from './scope-results-store.js';
import { parseStoredJson, serializeJson } from './serialize-json.js';
import { hashFile } from './hash-file.js';

export function createFsResultsStore(root: string): ResultsStore {
  const rootDir = path.resolve(root);
  const fileOf = (key: string): string => path.join(rootDir, ...assertResultsKey(key).split('/'));
  const missingBlob = (sha256: string): Error => new Error(`blob ${sha256} is not in the results store ${rootDir}`);

  const store: ResultsStore = {
    location: rootDir,
    async putJson(key, value) {
      await writeAtomic(fileOf(key), serializeJson(key, value));
    },
    async getJson(key) {
      return parseStoredJson(await store.getText(key), path.join(rootDir, key));
    },
    async putText(key, text) {
      await writeAtomic(fileOf(key), text);
    },
    async getText(key) {
      const file = fileOf(key);
      return readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => absentAsNull(err));
    },
    async putBinary(key, bytes) {
      await writeAtomic(fileOf(key), bytes);
    },
    async getBinary(key) {
      return readFile(fileOf(key)).catch((err: NodeJS.ErrnoException) => absentAsNull(err));
    },
    async has(key) {
      return isFile(fileOf(key));
    },
    async copy(from, to) {
      const source = fileOf(from);
      const target = fileOf(to);
      if (!(await isFile(source))) return isFile(target);
      await withTempFile(target, (tmp) => copyFile(source, tmp));
      return true;
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
    async list(prefix) {
      const base = normalizePrefix(prefix);
      const files = await listFiles(base === '' ? rootDir : fileOf(base));
      return files.map((rel) => joinKey(base, rel)).sort();
    },
    async putBlob(localFile) {
      const found = await hashFile(localFile);
      const target = fileOf(casKey(found.sha256));
      if (!(await isFile(target))) await copyVerified(localFile, target, found);
      return found;
    },
    async putBytes(bytes) {
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const target = fileOf(casKey(sha256));
      if (!(await isFile(target))) await writeAtomic(target, bytes);
      return { sha256, size: bytes.byteLength };
    },
    async readBlob(sha256) {
      const bytes = await readFile(fileOf(casKey(sha256))).catch((err: NodeJS.ErrnoException) => absentAsNull(err));
      if (bytes === null) throw missingBlob(sha256);
      return bytes;
    },
    async copyBlobTo(sha256, localFile) {
      const source = fileOf(casKey(sha256));
      if (!(await isFile(source))) throw missingBlob(sha256);
      // Via a temporary file and rename: a symlink already at the destination is replaced, not followed.
      await withTempFile(localFile, (tmp) => copyFile(source, tmp));
    },
    scoped: (prefix) => scopeResultsStore(store, prefix),
  };
  return store;
}

function absentAsNull(err: NodeJS.ErrnoException): null {
  if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return null;
  throw err;
}

async function isFile(file: string): Promise<boolean> {
  const stat = await lstat(file).catch((err: NodeJS.ErrnoException) => absentAsNull(err));
  return stat?.isFile() ?? false;
}

/** Write `file` through a temporary sibling and rename; on any failure the temporary file is removed. */
async function withTempFile(file: string, write: (tmp: string) => Promise<void>): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `${TEMP_PREFIX}${path.basename(file)}-${process.pid}-${randomUUID()}`);
  try {
    await write(tmp);
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

function writeAtomic(file: string, data: string | Uint8Array): Promise<void> {
  return withTempFile(file, (tmp) => writeFile(tmp, data, { flag: 'wx' }));
}

/** Copy into the CAS while hashing again, so a file that changed after hashing is never stored under the old hash. */
async function copyVerified(source: string, target: string, expected: BlobRef): Promise<void> {
  await withTempFile(target, async (tmp) => {
    const hash = createHash('sha256');
    await pipeline(
      createReadStream(source),
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          hash.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(tmp, { flags: 'wx' }),
    );
    if (hash.digest('hex') !== expected.sha256) throw new Error(`${source} changed while it was being stored`);
  });
}

/** Regular files below `dir` as forward-slash relative paths; symlinks and temporary files are skipped. */
async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (abs: string, rel: string): Promise<void> => {
    const entries = await readdir(abs, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) =>
      absentAsNull(err),
    );
    for (const e of entries ?? []) {
      // Temporary files of writes in flight, and names no key can spell.
      if (e.name.startsWith(TEMP_PREFIX) || e.name.includes('\\')) continue;
      const childRel = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) await visit(path.join(abs, e.name), childRel);
      else if (e.isFile()) out.push(childRel);
    }
  };
  await visit(dir, '');
  return out;
}
