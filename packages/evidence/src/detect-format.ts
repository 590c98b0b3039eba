// What a file is, from its content. Binary and container formats are decided by content alone
// (magic bytes; for zips, the OOXML main content type). Among text formats, content decides when it
// carries a signal (valid JSON, an <svg> or <html> root, markdown structure, a consistent delimiter);
// the extension only breaks ties between text formats, and never turns a file into a binary format.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import type { Format } from '@assay/core';
import { listZip, ZipRefused } from './zip/read-zip.js';
import type { ZipCaps } from './zip/read-zip.js';
import { guessDelimiter, jsonDepth } from './extract/extract-text.js';
import { DEFAULT_LIMITS } from './limits.js';
import { msg } from './messages.js';
import type { Detection } from './types.js';

const HEAD_BYTES = 8192;
const MAX_JSON_DEPTH = 512;

const OOXML_MAIN: Array<[RegExp, Format | null, string]> = [
  [/wordprocessingml\.document\.main\+xml/, 'docx', 'docx'],
  [/spreadsheetml\.sheet\.main\+xml/, 'xlsx', 'xlsx'],
  [/presentationml\.presentation\.main\+xml/, 'pptx', 'pptx'],
  [/ms-word\.document\.macroEnabled/, null, 'docm'],
  [/ms-excel\.sheet\.macroEnabled/, null, 'xlsm'],
  [/ms-powerpoint\.presentation\.macroEnabled/, null, 'pptm'],
  [/wordprocessingml\.template/, null, 'dotx'],
  [/spreadsheetml\.template/, null, 'xltx'],
  [/presentationml\.(template|slideshow)/, null, 'potx/ppsx'],
];

const CODE_EXT = new Set([
  '.py',
  '.js',
  '.mjs',
  '.cjs',
  '.ts',
  '.tsx',
  '.jsx',
  '.sh',
  '.bash',
  '.r',
  '.sql',
  '.java',
  '.c',
  '.h',
  '.cpp',
  '.hpp',
  '.cc',
  '.go',
  '.rs',
  '.rb',
  '.php',
  '.cs',
  '.kt',
  '.swift',
  '.scala',
  '.m',
  '.jl',
  '.css',
  '.scss',
  '.yaml',
  '.yml',
  '.toml',
  '.ini',
  '.cfg',
  '.xml',
  '.ipynb',
  '.tex',
  '.lua',
  '.pl',
  '.ps1',
  '.bat',
  '.dockerfile',
  '.makefile',
]);

function startsWith(b: Buffer, sig: number[], at = 0): boolean {
  return sig.every((byte, i) => b[at + i] === byte);
}

/** Magic-byte detection on the first bytes of a file. `zip` means "look inside". */
function detectMagic(head: Buffer): Detection | 'zip' | 'text' {
  if (head.length === 0) return { format: null, type: 'empty' };
  const latin = head.toString('latin1', 0, Math.min(head.length, 1024));
  if (latin.includes('%PDF-')) return { format: 'pdf', type: 'pdf' };
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { format: 'png', type: 'png' };
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { format: 'jpg', type: 'jpg' };
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) return 'zip';
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    const utf16 = (s: string) => Buffer.from(s, 'utf16le');
    const encrypted = head.includes(utf16('EncryptionInfo')) || head.includes(utf16('EncryptedPackage'));
    return { format: null, type: encrypted ? 'ole2-encrypted' : 'ole2' };
  }
  if (latin.startsWith('GIF8')) return { format: null, type: 'gif' };
  if (latin.startsWith('RIFF') && latin.slice(8, 12) === 'WEBP') return { format: null, type: 'webp' };
  if (latin.startsWith('BM')) return { format: null, type: 'bmp' };
  if (startsWith(head, [0x1f, 0x8b])) return { format: null, type: 'gzip' };
  if (startsWith(head, [0xff, 0xfe]) || startsWith(head, [0xfe, 0xff])) return 'text';
  const probe = head.subarray(0, Math.min(head.length, HEAD_BYTES));
  if (probe.includes(0)) return { format: null, type: 'binary' };
  return 'text';
}

/** Classifies text content; `name` (the file name) only breaks ties between text formats. */
function classifyText(text: string, name: string, complete: boolean): Detection {
  const ext = extname(name).toLowerCase();
  const t = text.replace(/^\uFEFF/, '').trimStart();
  let jsonNote: string | undefined;
  if ((t.startsWith('{') || t.startsWith('[')) && complete) {
    const depth = jsonDepth(t);
    if (depth > MAX_JSON_DEPTH)
      jsonNote = msg.jsonInvalid(`nested ${depth} levels deep (cap ${MAX_JSON_DEPTH}); read as plain text`);
    else {
      try {
        JSON.parse(t);
        return { format: 'json', type: 'json' };
      } catch (err) {
        if (ext === '.json') jsonNote = msg.jsonInvalid(err);
      }
    }
  }
  const plain = classifyPlain(t, ext, name);
  return jsonNote ? { ...plain, note: jsonNote } : plain;
}

function classifyPlain(t: string, ext: string, name: string): Detection {
  const head = t.slice(0, 4096);
  const noProlog = head.replace(/^(<\?xml[^>]*\?>\s*|<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*/i, '');
  if (/^<svg[\s>]/i.test(noProlog)) return { format: 'svg', type: 'svg' };
  if (
    /^<!DOCTYPE\s+html/i.test(head) ||
    /^<html[\s>]/i.test(noProlog) ||
    (/<(head|body)[\s>]/i.test(head) && /<\/(head|body|p|div)>/i.test(t))
  ) {
    return { format: 'html', type: 'html' };
  }
  if (/^<\?xml/i.test(head) || /^<[A-Za-z][\w:-]*[\s>]/.test(noProlog)) return { format: 'code', type: 'xml' };
  if (t.startsWith('#!')) return { format: 'code', type: 'code' };
  const lines = t.slice(0, 65_536).split(/\r?\n/);
  const mdStrong = lines.some(
    (l) =>
      /^#{1,6}\s+\S/.test(l) || /^\s*(```|~~~)/.test(l) || /^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)+\|?\s*$/.test(l),
  );
  if (mdStrong && ext !== '.py' && ext !== '.sh' && ext !== '.r') return { format: 'md', type: 'md' };
  const csv = guessDelimiter(t.slice(0, 65_536));
  if (
    csv.consistent &&
    (csv.delimiter !== ',' || ext === '.csv' || ext === '.tsv' || lines.filter((l) => l.trim()).length >= 3)
  ) {
    if (!CODE_EXT.has(ext) && ext !== '.md' && ext !== '.txt')
      return { format: 'csv', type: csv.delimiter === '\t' ? 'tsv' : 'csv' };
  }
  if (ext === '.md' || ext === '.markdown') return { format: 'md', type: 'md' };
  if (ext === '.csv' || ext === '.tsv')
    return csv.consistent ? { format: 'csv', type: 'csv' } : { format: 'txt', type: 'txt' };
  if (CODE_EXT.has(ext) || /^(makefile|dockerfile)$/i.test(name.split('/').pop() ?? ''))
    return { format: 'code', type: 'code' };
  const codeLike = lines
    .slice(0, 200)
    .filter((l) =>
      /^\s*(def |class \w+[:(]|import [\w.]+|from [\w.]+ import |function \w+\(|(const|let|var) \w+ =|#include\s*<|package \w+;?$|public (static )?(class|void))/.test(
        l,
      ),
    ).length;
  if (codeLike >= 2) return { format: 'code', type: 'code' };
  return { format: 'txt', type: 'txt' };
}

async function detectZip(data: Buffer, caps: ZipCaps): Promise<Detection> {
  try {
    const { names, peeked } = await listZip(data, caps, (n) => n === '[Content_Types].xml' || n === 'mimetype');
    const types = peeked.get('[Content_Types].xml')?.toString('utf8');
    if (types) {
      const main =
        /PartName="\/?([^"]+)"\s+ContentType="([^"]+\.main\+xml)"|ContentType="([^"]+\.main\+xml)"\s+PartName="\/?([^"]+)"/.exec(
          types,
        );
      const contentType = main ? (main[2] ?? main[3] ?? '') : types;
      for (const [re, format, type] of OOXML_MAIN) if (re.test(contentType)) return { format, type };
    }
    const mime = peeked.get('mimetype')?.toString('latin1');
    if (mime?.startsWith('application/vnd.oasis.opendocument.'))
      return { format: null, type: `odf (${mime.split('.').pop()})` };
    if (names.includes('word/document.xml')) return { format: 'docx', type: 'docx' };
    if (names.includes('xl/workbook.xml')) return { format: 'xlsx', type: 'xlsx' };
    if (names.includes('ppt/presentation.xml')) return { format: 'pptx', type: 'pptx' };
    return { format: null, type: 'zip' };
  } catch (err) {
    if (err instanceof ZipRefused)
      return { format: null, type: err.reason === 'limit' ? 'zip (over limits)' : 'zip (corrupt)', note: err.message };
    throw err;
  }
}

/** Detection from a whole file's bytes (already read under the size cap). */
export async function detectBuffer(data: Buffer, name: string, caps: ZipCaps = DEFAULT_LIMITS): Promise<Detection> {
  const magic = detectMagic(data.subarray(0, HEAD_BYTES));
  if (magic === 'zip') return detectZip(data, caps);
  if (magic === 'text') return classifyText(decodeLoose(data), name, true);
  return magic;
}

/** Detection from the first bytes only, for files too large to read. */
export function detectHead(head: Buffer, name: string): Detection {
  const magic = detectMagic(head);
  if (magic === 'zip') return { format: null, type: 'zip' };
  if (magic === 'text') return classifyText(decodeLoose(head), name, false);
  return magic;
}

function decodeLoose(data: Buffer): string {
  if (data[0] === 0xff && data[1] === 0xfe) return new TextDecoder('utf-16le').decode(data.subarray(2));
  if (data[0] === 0xfe && data[1] === 0xff) return new TextDecoder('utf-16be').decode(data.subarray(2));
  return new TextDecoder('utf-8').decode(data);
}

/**
 * The deliverable format of the file at `path`, judged from its content (null: none of FORMATS).
 * Reads at most `maxFileBytes`; larger files are judged from their first bytes. A symbolic link
 * (the last component of `path`) or a hard link is never read: its format is null.
 */
export async function detectFormat(
  path: string,
  limits: Partial<ZipCaps & { maxFileBytes: number }> = {},
): Promise<Format | null> {
  return (await detectFile(path, limits)).format;
}

export async function detectFile(
  path: string,
  limits: Partial<ZipCaps & { maxFileBytes: number }> = {},
): Promise<Detection> {
  const caps = { ...DEFAULT_LIMITS, ...limits };
  // Never follows a link (O_NOFOLLOW: a symlink fails with ELOOP), as the walk does; non-blocking: a
  // FIFO must not hang the caller; anything but a regular file with one name is not read.
  const fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW).catch(
    (err: NodeJS.ErrnoException) => {
      if (err.code === 'ELOOP') return null;
      throw err;
    },
  );
  if (fh === null) return { format: null, type: 'symbolic link' };
  try {
    const stat = await fh.stat();
    if (!stat.isFile()) return { format: null, type: 'not a regular file' };
    if (stat.nlink > 1) return { format: null, type: 'hard link' };
    const size = stat.size;
    if (size > caps.maxFileBytes) {
      const head = Buffer.alloc(Math.min(HEAD_BYTES, size));
      await fh.read(head, 0, head.length, 0);
      return detectHead(head, path);
    }
    return await detectBuffer(await fh.readFile(), path, caps);
  } finally {
    await fh.close();
  }
}
