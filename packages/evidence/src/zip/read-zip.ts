// Reads a zip (OOXML package) into memory under caps: entry count, declared and actual decompressed
// size per entry and in total. Every entry is decompressed once here, so a size that lies in the
// header is caught while streaming, before any other reader sees the bytes.
import yauzl from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';
import { msg } from '../messages.js';

export interface ZipCaps {
  maxZipEntries: number;
  maxZipEntryBytes: number;
  maxZipTotalBytes: number;
}

/** A zip that must not be read further: a cap was reached, or it is encrypted or corrupt. */
export class ZipRefused extends Error {
  constructor(
    readonly reason: 'limit' | 'encrypted' | 'corrupt',
    message: string,
  ) {
    super(message);
  }
}

export interface ZipContents {
  /** Entries kept, by name (directories and unsafe names left out). */
  files: Map<string, Buffer>;
  notes: string[];
}

function unsafeName(name: string): boolean {
  return name.startsWith('/') || name.includes('\\') || /^[a-zA-Z]:/.test(name) || name.split('/').includes('..');
}

async function openZip(buf: Buffer): Promise<ZipFile> {
  try {
    return await yauzl.fromBufferPromise(buf, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false });
  } catch (err) {
    throw new ZipRefused('corrupt', msg.zipCorrupt(err));
  }
}

/**
 * Lists entry names only (for format detection): reads the central directory, decompresses nothing
 * except entries `peek` asks for, up to `peekBytes` each.
 */
export async function listZip(
  buf: Buffer,
  caps: ZipCaps,
  peek: (name: string) => boolean = () => false,
  peekBytes = 1024 * 1024,
): Promise<{ names: string[]; peeked: Map<string, Buffer> }> {
  const zip = await openZip(buf);
  try {
    if (zip.entryCount > caps.maxZipEntries)
      throw new ZipRefused('limit', msg.zipTooManyEntries(zip.entryCount, caps.maxZipEntries));
    const names: string[] = [];
    const peeked = new Map<string, Buffer>();
    for await (const entry of zip.eachEntry()) {
      names.push(entry.fileName);
      if (peek(entry.fileName) && !entry.isEncrypted() && entry.uncompressedSize <= peekBytes) {
        peeked.set(entry.fileName, await readEntry(zip, entry, peekBytes, { total: 0, max: peekBytes }));
      }
    }
    return { names, peeked };
  } catch (err) {
    throw refusal(err);
  } finally {
    zip.close();
  }
}

function refusal(err: unknown): ZipRefused {
  if (err instanceof ZipRefused) return err;
  const text = err instanceof Error ? err.message : String(err);
  if (/too many bytes in the stream/.test(text)) return new ZipRefused('limit', msg.zipSizeLie(text));
  if (/invalid relative path|absolute path|invalid characters in fileName/.test(text))
    return new ZipRefused('limit', msg.zipUnsafeName(text));
  return new ZipRefused('corrupt', msg.zipCorrupt(err));
}

async function readEntry(
  zip: ZipFile,
  entry: Entry,
  maxEntry: number,
  budget: { total: number; max: number },
): Promise<Buffer> {
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      budget.total += chunk.length;
      if (size > maxEntry) throw new ZipRefused('limit', msg.zipEntryTooLarge(entry.fileName, maxEntry));
      if (budget.total > budget.max) throw new ZipRefused('limit', msg.zipTotalTooLarge(budget.max));
      chunks.push(chunk);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks, size);
}

/** Reads every entry under the caps; `keep` chooses which decompressed entries are returned. */
export async function readZip(
  buf: Buffer,
  caps: ZipCaps,
  keep: (name: string) => boolean = () => true,
): Promise<ZipContents> {
  const zip = await openZip(buf);
  const files = new Map<string, Buffer>();
  const notes: string[] = [];
  try {
    if (zip.entryCount > caps.maxZipEntries)
      throw new ZipRefused('limit', msg.zipTooManyEntries(zip.entryCount, caps.maxZipEntries));
    const budget = { total: 0, max: caps.maxZipTotalBytes };
    let declared = 0;
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName;
      if (name.endsWith('/')) continue;
      if (entry.isEncrypted()) throw new ZipRefused('encrypted', msg.zipEncrypted);
      if (entry.uncompressedSize > caps.maxZipEntryBytes)
        throw new ZipRefused('limit', msg.zipEntryTooLarge(name, caps.maxZipEntryBytes));
      declared += entry.uncompressedSize;
      if (declared > caps.maxZipTotalBytes) throw new ZipRefused('limit', msg.zipTotalTooLarge(caps.maxZipTotalBytes));
      if (unsafeName(name)) throw new ZipRefused('limit', msg.zipUnsafeName(name));
      const data = await readEntry(zip, entry, caps.maxZipEntryBytes, budget);
      if (keep(name)) files.set(name, data);
    }
    return { files, notes };
  } catch (err) {
    throw refusal(err);
  } finally {
    zip.close();
  }
}
