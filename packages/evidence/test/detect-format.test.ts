// Format detection is by content: misnamed files get their real format, extensions only break ties
// between text formats.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { copyFile, link, mkdtemp, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectFile, detectFormat } from '../src/detect-format.js';
import { contentTypes, makeZip, ROOT_RELS_DOCX } from './helpers/zip-writer.js';

const FIX = join(import.meta.dirname, 'fixtures');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'assay-detect-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function put(name: string, data: string | Buffer): Promise<string> {
  const p = join(dir, name);
  await writeFile(p, data);
  return p;
}

describe('detectFormat', () => {
  it('identifies every fixture by content', async () => {
    const expected: Record<string, string | null> = {
      'payroll-openpyxl.xlsx': 'xlsx',
      'payroll-libreoffice.xlsx': 'xlsx',
      'exceljs-report.xlsx': 'xlsx',
      'capex-flawed.xlsx': 'xlsx',
      'report.docx': 'docx',
      'memo-libreoffice.docx': 'docx',
      'deck.pptx': 'pptx',
      'report.pdf': 'pdf',
      'encrypted.pdf': 'pdf',
      'encrypted.docx': null,
      'page.png': 'png',
      'photo.jpg': 'jpg',
      'logo.svg': 'svg',
      'data.csv': 'csv',
      'notes.md': 'md',
      'readme.txt': 'txt',
      'data.json': 'json',
      'page.html': 'html',
      'analysis.py': 'code',
    };
    for (const [name, format] of Object.entries(expected))
      expect([name, await detectFormat(join(FIX, name))]).toEqual([name, format]);
    expect((await detectFile(join(FIX, 'encrypted.docx'))).type).toBe('ole2-encrypted');
  });

  it('ignores misleading extensions', async () => {
    await copyFile(join(FIX, 'report.docx'), join(dir, 'report.pdf'));
    await copyFile(join(FIX, 'report.pdf'), join(dir, 'report.docx'));
    await copyFile(join(FIX, 'page.png'), join(dir, 'chart.jpg'));
    expect(await detectFormat(join(dir, 'report.pdf'))).toBe('docx');
    expect(await detectFormat(join(dir, 'report.docx'))).toBe('pdf');
    expect(await detectFormat(join(dir, 'chart.jpg'))).toBe('png');
    // The wrong-type scripted agent: CSV text saved as .xlsx.
    expect(await detectFormat(await put('table.xlsx', 'name,amount\nA,1\nB,2\nC,3\n'))).toBe('csv');
    expect(await detectFormat(await put('page.txt', '<!DOCTYPE html><html><body><p>x</p></body></html>'))).toBe('html');
    expect(await detectFormat(await put('notes.txt', '# Title\n\nSome text.\n'))).toBe('md');
    expect(await detectFormat(await put('data.json', '{"a": 1,'))).toBe('txt');
  });

  it('lets the extension break ties between text formats only', async () => {
    expect(await detectFormat(await put('plain.md', 'Just prose without markup.\n'))).toBe('md');
    expect(await detectFormat(await put('plain.txt', 'Just prose without markup.\n'))).toBe('txt');
    expect(await detectFormat(await put('script.sh', 'echo hi\n'))).toBe('code');
    expect(await detectFormat(await put('fake.docx', 'Just prose saved as docx.\n'))).toBe('txt');
    expect(await detectFormat(await put('noext', '#!/usr/bin/env python3\nprint(1)\n'))).toBe('code');
  });

  it('separates OOXML look-alikes that are not deliverable formats', async () => {
    const docm = makeZip([
      { name: '[Content_Types].xml', data: contentTypes('application/vnd.ms-word.document.macroEnabled.main+xml') },
      { name: '_rels/.rels', data: ROOT_RELS_DOCX },
      { name: 'word/document.xml', data: Buffer.from('<w:document xmlns:w="x"><w:body/></w:document>') },
    ]);
    expect(await detectFile(await put('macro.docx', docm))).toEqual({ format: null, type: 'docm' });
    expect(
      await detectFile(await put('plain.zip.docx', makeZip([{ name: 'a.txt', data: Buffer.from('hi') }]))),
    ).toEqual({ format: null, type: 'zip' });
    expect((await detectFile(await put('empty.docx', ''))).type).toBe('empty');
    expect((await detectFile(await put('bin.xlsx', Buffer.from([1, 2, 0, 3, 0, 255])))).type).toBe('binary');
  });

  it('reads only the head of a file over the size cap, and never blocks on a FIFO', async () => {
    const big = await put('big.bin', '%PDF-1.7\n');
    await truncate(big, 8 * 1024 * 1024);
    expect(await detectFile(big, { maxFileBytes: 1024 * 1024 })).toEqual({ format: 'pdf', type: 'pdf' });
    const fifo = join(dir, 'pipe.csv');
    execFileSync('mkfifo', [fifo]);
    expect(await detectFile(fifo)).toEqual({ format: null, type: 'not a regular file' });
    expect((await readFile(join(FIX, 'data.csv'))).length).toBeGreaterThan(0);
  });

  it('never follows a symbolic link nor reads a hard link (a host file named from the submission)', async () => {
    const host = await mkdtemp(join(tmpdir(), 'assay-detect-host-'));
    try {
      await copyFile(join(FIX, 'report.docx'), join(host, 'secret.docx'));
      await symlink(join(host, 'secret.docx'), join(dir, 'linked.docx'));
      expect(await detectFile(join(dir, 'linked.docx'))).toEqual({ format: null, type: 'symbolic link' });
      expect(await detectFormat(join(dir, 'linked.docx'))).toBeNull();
      await link(join(host, 'secret.docx'), join(dir, 'hard.docx'));
      expect(await detectFile(join(dir, 'hard.docx'))).toEqual({ format: null, type: 'hard link' });
      // The same content under its own single name is read.
      await copyFile(join(host, 'secret.docx'), join(dir, 'own.docx'));
      expect(await detectFormat(join(dir, 'own.docx'))).toBe('docx');
    } finally {
      await rm(host, { recursive: true, force: true });
    }
  });
});
