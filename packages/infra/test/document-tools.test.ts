// LibreOffice headless and poppler from Debian: a text file becomes a .docx, a PDF and a PNG page.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureDocumentTools } from '../src/index.js';
import { repoRoot, testLog } from './helpers.js';

const exec = promisify(execFile);

describe('document tools', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-doc-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('converts office files to PDF and PDF pages to PNG', { timeout: 600_000 }, async () => {
    const tools = await ensureDocumentTools({ root: repoRoot, log: testLog });
    expect(await ensureDocumentTools({ root: repoRoot, log: testLog })).toMatchObject({ installed: [] });
    fs.writeFileSync(path.join(dir, 'memo.txt'), 'Quarterly memo\nRevenue rose 12% to $4.2M.\n');
    // A private profile dir keeps parallel soffice runs from fighting over ~/.config.
    const profile = `-env:UserInstallation=file://${path.join(dir, 'lo-profile')}`;
    await exec(
      tools.soffice,
      [profile, '--headless', '--convert-to', 'docx', '--outdir', dir, path.join(dir, 'memo.txt')],
      { timeout: 120_000 },
    );
    await exec(
      tools.soffice,
      [profile, '--headless', '--convert-to', 'pdf', '--outdir', dir, path.join(dir, 'memo.docx')],
      { timeout: 120_000 },
    );
    const text = (await exec(tools.pdftotext, [path.join(dir, 'memo.pdf'), '-'])).stdout;
    expect(text).toContain('Revenue rose 12%');
    await exec(tools.pdftoppm, [
      '-png',
      '-r',
      '50',
      '-f',
      '1',
      '-l',
      '1',
      path.join(dir, 'memo.pdf'),
      path.join(dir, 'page'),
    ]);
    const png = fs.readdirSync(dir).find((f) => f.startsWith('page') && f.endsWith('.png'));
    expect(png).toBeDefined();
    expect(
      fs
        .readFileSync(path.join(dir, png ?? ''))
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });
});
