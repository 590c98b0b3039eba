// Hostile submissions: every file below must yield a clear note, within its limit, without
// crashing or hanging the caller. Big files (the 1 GiB sparse file, zip bombs) are made here, in a
// temp folder, never committed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildSubmissionView, IsolatedExtractor } from '../src/index.js';
import type { EvidenceLimits, FileView, SubmissionView } from '../src/index.js';
import {
  contentTypes,
  deflatedZeros,
  docxWithBody,
  makeZip,
  ROOT_RELS_DOCX,
  xlsxWithSheet,
} from './helpers/zip-writer.js';

const FIX = join(import.meta.dirname, 'fixtures');
const MiB = 1024 * 1024;
const LIMITS: Partial<EvidenceLimits> = {
  maxFileBytes: 32 * MiB,
  maxHashBytes: 64 * MiB,
  maxZipEntries: 5_000,
  maxZipEntryBytes: 16 * MiB,
  maxZipTotalBytes: 48 * MiB,
  maxTextChars: 1_000_000,
  perFileTimeoutMs: 15_000,
  maxDepth: 8,
};

interface Case {
  name: string;
  make: (path: string) => Promise<void>;
  note: RegExp;
}

function pngHeader(width: number, height: number): Buffer {
  const b = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  b[24] = 8;
  b[25] = 6;
  return b;
}

const docxParts = [
  { name: '[Content_Types].xml', data: contentTypes('docx') },
  { name: '_rels/.rels', data: ROOT_RELS_DOCX },
];

let bomb: Awaited<ReturnType<typeof deflatedZeros>>;
let slab: Awaited<ReturnType<typeof deflatedZeros>>;

const CASES: Case[] = [
  {
    name: 'zip-bomb.xlsx',
    make: (p) =>
      writeFile(
        p,
        makeZip([
          { name: '[Content_Types].xml', data: contentTypes('xlsx') },
          { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(0), raw: bomb },
        ]),
      ),
    note: /decompresses to more than 16 MiB: not read \(possible zip bomb\)/,
  },
  {
    name: 'lying-bomb.docx',
    make: (p) =>
      writeFile(
        p,
        makeZip([...docxParts, { name: 'word/document.xml', data: Buffer.alloc(0), raw: bomb, declaredSize: 1000 }]),
      ),
    note: /decompresses to more than its header declares: not read \(possible zip bomb/,
  },
  {
    name: 'many-entries.pptx',
    make: (p) =>
      writeFile(
        p,
        makeZip(
          Array.from({ length: 6_000 }, (_, i) => ({ name: `ppt/x${i}.xml`, data: Buffer.from('<x/>'), store: true })),
        ),
      ),
    note: /zip has 6000 entries, over the cap of 5000/,
  },
  {
    name: 'total-bomb.xlsx',
    make: (p) =>
      writeFile(
        p,
        makeZip([
          { name: '[Content_Types].xml', data: contentTypes('xlsx') },
          ...Array.from({ length: 5 }, (_, i) => ({ name: `xl/media/m${i}.bin`, data: Buffer.alloc(0), raw: slab })),
        ]),
      ),
    note: /decompresses to more than 48 MiB in total/,
  },
  {
    name: 'sparse-1g.pdf',
    make: async (p) => {
      await writeFile(p, '%PDF-1.4\n');
      await truncate(p, 1024 * MiB);
    },
    note: /file is 1\.0 GiB, over the 32 MiB cap: not parsed/,
  },
  {
    name: 'deep-xml.docx',
    make: (p) => writeFile(p, docxWithBody(`${'<w:sdt>'.repeat(100_000)}${'</w:sdt>'.repeat(100_000)}`)),
    note: /nested deeper than 256 levels/,
  },
  {
    name: 'billion-laughs.xlsx',
    make: (p) =>
      writeFile(
        p,
        xlsxWithSheet(
          '',
          `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><workbook>&lol2;</workbook>`,
        ),
      ),
    note: /DOCTYPE declarations are refused/,
  },
  {
    name: 'truncated.docx',
    make: async (p) => {
      const full = await readFile(join(FIX, 'report.docx'));
      await writeFile(p, full.subarray(0, Math.floor(full.length * 0.6)));
    },
    note: /unreadable zip container \(corrupt or truncated\)/,
  },
  {
    name: 'garbage.xlsx',
    make: (p) => writeFile(p, Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(4096)])),
    note: /unreadable zip container/,
  },
  {
    name: 'encrypted.pdf',
    make: (p) => copyFile(join(FIX, 'encrypted.pdf'), p),
    note: /encrypted PDF \(password required\)/,
  },
  {
    name: 'encrypted.docx',
    make: (p) => copyFile(join(FIX, 'encrypted.docx'), p),
    note: /encrypted Office document \(password-protected\)/,
  },
  {
    name: 'corrupt.pdf',
    make: (p) => writeFile(p, Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(20_000)])),
    note: /pdf could not be parsed: Invalid PDF structure/,
  },
  {
    name: 'escape-link.docx',
    make: (p) => symlink('/etc/passwd', p),
    note: /symbolic link to "\/etc\/passwd", which points outside the submission: refused/,
  },
  {
    name: 'escape-dir',
    make: (p) => symlink('../../../..', p),
    note: /points outside the submission: refused, not followed/,
  },
  {
    name: 'fifo.csv',
    make: async (p) => void execFileSync('mkfifo', [p]),
    note: /not a regular file \(named pipe\): skipped without reading/,
  },
  {
    name: 'random.docx',
    make: (p) => writeFile(p, Buffer.concat([Buffer.from([0, 0]), randomBytes(65_536)])),
    note: /not a supported deliverable format \(detected: binary\)/,
  },
  { name: 'empty.xlsx', make: (p) => writeFile(p, ''), note: /empty file \(0 bytes\)/ },
  {
    name: 'pixel-bomb.png',
    make: (p) => writeFile(p, pngHeader(100_000, 100_000)),
    note: /declares 100000x100000 pixels; dimensions recorded, pixels not decoded/,
  },
  {
    name: 'broken.png',
    make: (p) =>
      writeFile(
        p,
        Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('garbage')]),
      ),
    note: /png header is corrupt/,
  },
  { name: 'deep.json', make: (p) => writeFile(p, '['.repeat(200_000)), note: /nested 200000 levels deep/ },
  {
    name: 'long-line.txt',
    make: (p) => writeFile(p, 'a'.repeat(3_000_000)),
    note: /text longer than 1000000 characters: truncated/,
  },
  {
    name: 'unsafe-entry.docx',
    make: (p) =>
      writeFile(
        p,
        makeZip([
          ...docxParts,
          {
            name: 'word/document.xml',
            data: Buffer.from(
              '<w:document xmlns:w="w"><w:body><w:p><w:r><w:t>ok</w:t></w:r></w:p></w:body></w:document>',
            ),
          },
          { name: '../../evil.sh', data: Buffer.from('rm -rf /') },
        ]),
      ),
    note: /zip entry with an unsafe path \(invalid relative path: \.\.\/\.\.\/evil\.sh\): not read/,
  },
  {
    name: 'encrypted-entries.docx',
    make: (p) =>
      writeFile(
        p,
        makeZip([
          ...docxParts.map((e) => ({ ...e, encrypted: true })),
          { name: 'word/document.xml', data: Buffer.from('<x/>'), encrypted: true },
        ]),
      ),
    note: /zip entries are encrypted: not read/,
  },
  {
    name: 'malformed.docx',
    make: (p) => writeFile(p, docxWithBody('<w:p><w:r><w:t>never closed')),
    note: /docx could not be parsed: XML refused: end tag <\/body> does not match <t>/,
  },
  {
    name: 'report.xlsx',
    make: (p) => writeFile(p, gzipSync(Buffer.from('not a workbook'))),
    note: /not a supported deliverable format \(detected: gzip\)/,
  },
  {
    name: 'macro.docx',
    make: (p) =>
      writeFile(
        p,
        makeZip([
          { name: '[Content_Types].xml', data: contentTypes('application/vnd.ms-word.document.macroEnabled.main+xml') },
          { name: 'word/document.xml', data: Buffer.from('<x/>') },
        ]),
      ),
    note: /macro-enabled or template Office file \(docm\)/,
  },
];

let root: string;
let view: SubmissionView;
let buildMs: number;

beforeAll(async () => {
  bomb = await deflatedZeros(200 * MiB);
  slab = await deflatedZeros(12 * MiB);
  root = await mkdtemp(join(tmpdir(), 'assay-hostile-'));
  for (const c of CASES) await c.make(join(root, c.name));
  let deep = root;
  for (let i = 0; i < 12; i++) {
    deep = join(deep, `d${i}`);
    await mkdir(deep);
  }
  await writeFile(join(deep, 'buried.txt'), 'deep');
  const t = Date.now();
  view = await buildSubmissionView(root, { limits: LIMITS });
  buildMs = Date.now() - t;
}, 120_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function fileView(name: string): FileView {
  const f = view.files.find((x) => x.path === name);
  if (!f) throw new Error(`${name} missing from the view`);
  return f;
}

describe('hostile submission', () => {
  it(`holds at least 20 hostile files`, () => {
    expect(CASES.length).toBeGreaterThanOrEqual(20);
    expect(buildMs).toBeLessThan(60_000);
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s yields a clear note', (_name, c) => {
    const f = fileView(c.name);
    expect(f.notes.join('\n')).toMatch(c.note);
  });

  it('keeps the manifest exact for refused files: sizes, no hash for the 1 GiB file, type from its head', () => {
    const sparse = fileView('sparse-1g.pdf');
    expect(sparse).toMatchObject({ size: 1024 * MiB, sha256: null, format: 'pdf', evidence: null });
    expect(sparse.notes.join()).toMatch(/over 64 MiB: not hashed/);
    expect(fileView('escape-link.docx')).toMatchObject({ entry: 'symlink', sha256: null, evidence: null });
    expect(view.notes.join()).toMatch(/nested deeper than 8 levels: not walked/);
    expect(view.files.some((f) => f.path.includes('buried'))).toBe(false);
  });

  it('extracts each regular hostile file within its per-file limit', async () => {
    const ex = new IsolatedExtractor(LIMITS);
    try {
      for (const c of CASES) {
        const f = fileView(c.name);
        if (f.entry !== 'file') continue;
        const t = Date.now();
        const r = await ex.extract(join(root, c.name), c.name);
        const ms = Date.now() - t;
        expect([c.name, ms < 15_000]).toEqual([c.name, true]);
        if (f.size <= (LIMITS.maxFileBytes ?? 0)) expect(r.notes.join('\n')).toMatch(c.note);
      }
    } finally {
      ex.close();
    }
  }, 120_000);
});

describe('isolation', () => {
  const rows = (n: number) =>
    Array.from(
      { length: n },
      (_, i) =>
        `<row r="${i + 1}"><c r="A${i + 1}"><v>${i}</v></c><c r="B${i + 1}" t="inlineStr"><is><t>row ${i}</t></is></c></row>`,
    ).join('');

  it('kills a parse that overruns its time limit, reports it, and carries on with a fresh process', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assay-slow-'));
    try {
      await writeFile(join(dir, 'big.xlsx'), xlsxWithSheet(rows(100_000)));
      const ex = new IsolatedExtractor({ perFileTimeoutMs: 100 });
      try {
        const slow = await ex.extract(join(dir, 'big.xlsx'), 'big.xlsx');
        expect(slow.notes).toEqual(['parsing did not finish within 100 ms: stopped (file left unparsed)']);
        const next = await ex.extract(join(FIX, 'data.csv'), 'data.csv');
        expect(next.evidence?.format).toBe('csv');
      } finally {
        ex.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('survives a parser that runs out of memory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assay-oom-'));
    try {
      await writeFile(join(dir, 'huge.xlsx'), xlsxWithSheet(rows(600_000)));
      const ex = new IsolatedExtractor({
        childMemoryMb: 64,
        maxCells: 10_000_000,
        perFileTimeoutMs: 45_000,
        maxZipEntryBytes: 512 * MiB,
      });
      try {
        const r = await ex.extract(join(dir, 'huge.xlsx'), 'huge.xlsx');
        expect(r.evidence).toBeNull();
        expect(r.notes.join()).toMatch(/parser process died while reading this file \(heap limit reached\)/);
        const next = await ex.extract(join(FIX, 'data.csv'), 'data.csv');
        expect(next.evidence?.format).toBe('csv');
      } finally {
        ex.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
