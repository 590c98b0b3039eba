// The hostile-file suite's cases: each writes one entry into a submission folder and names the note
// it must yield under HOSTILE_LIMITS. Big files (the 1 GiB sparse file, zip bombs) are made at run
// time, never committed. Used by test/hostile.test.ts and bench/hostile.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, readFile, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { EvidenceLimits } from '../../src/index.js';
import {
  contentTypes,
  deflatedZeros,
  docxWithBody,
  makeZip,
  ROOT_RELS_DOCX,
  xlsxWithSheet,
  type DeflatedData,
} from './zip-writer.js';

const FIX = join(import.meta.dirname, '..', 'fixtures');
const MiB = 1024 * 1024;
export const HOSTILE_LIMITS: Partial<EvidenceLimits> = {
  maxFileBytes: 32 * MiB,
  maxHashBytes: 64 * MiB,
  maxZipEntries: 5_000,
  maxZipEntryBytes: 16 * MiB,
  maxZipTotalBytes: 48 * MiB,
  maxTextChars: 1_000_000,
  perFileTimeoutMs: 15_000,
  maxDepth: 8,
};

export interface HostileCase {
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

let bombs: Promise<{ bomb: DeflatedData; slab: DeflatedData }> | null = null;

/** The deflated zeros the zip bombs share, made once: 200 MiB for one entry, 12 MiB per entry of five. */
function zeros(): Promise<{ bomb: DeflatedData; slab: DeflatedData }> {
  bombs ??= Promise.all([deflatedZeros(200 * MiB), deflatedZeros(12 * MiB)]).then(([bomb, slab]) => ({ bomb, slab }));
  return bombs;
}

export const HOSTILE_CASES: HostileCase[] = [
  {
    name: 'zip-bomb.xlsx',
    make: async (p) =>
      writeFile(
        p,
        makeZip([
          { name: '[Content_Types].xml', data: contentTypes('xlsx') },
          { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(0), raw: (await zeros()).bomb },
        ]),
      ),
    note: /decompresses to more than 16 MiB: not read \(possible zip bomb\)/,
  },
  {
    name: 'lying-bomb.docx',
    make: async (p) =>
      writeFile(
        p,
        makeZip([
          ...docxParts,
          { name: 'word/document.xml', data: Buffer.alloc(0), raw: (await zeros()).bomb, declaredSize: 1000 },
        ]),
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
    make: async (p) => {
      const { slab } = await zeros();
      await writeFile(
        p,
        makeZip([
          { name: '[Content_Types].xml', data: contentTypes('xlsx') },
          ...Array.from({ length: 5 }, (_, i) => ({ name: `xl/media/m${i}.bin`, data: Buffer.alloc(0), raw: slab })),
        ]),
      );
    },
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
    note: /^encrypted PDF \(an \/Encrypt dictionary, even with an empty password\)/,
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
    note: /evidence truncated at the text budget \(1,000,000 characters per file\): kept 1,000,000 of 3,000,000 characters/,
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
