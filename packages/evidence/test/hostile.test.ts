// Hostile submissions: every file below must yield a clear note, within its limit, without
// crashing or hanging the caller. Big files (the 1 GiB sparse file, zip bombs) are made here, in a
// temp folder, never committed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSubmissionView, IsolatedExtractor } from '../src/index.js';
import type { FileView, SubmissionView } from '../src/index.js';
import { xlsxWithSheet } from './helpers/zip-writer.js';
import { HOSTILE_CASES as CASES, HOSTILE_LIMITS as LIMITS } from './helpers/hostile-cases.js';

const FIX = join(import.meta.dirname, 'fixtures');
const MiB = 1024 * 1024;

let root: string;
let view: SubmissionView;
let buildMs: number;

beforeAll(async () => {
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
      // Big enough that inflating and indexing the sheet, before any budget check, outlasts 100 ms even on an
      // idle machine (at 100,000 rows a warm parser reached its own 50 ms budget first and returned truncated).
      await writeFile(join(dir, 'big.xlsx'), xlsxWithSheet(rows(600_000)));
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
        expect(r.notes.join()).toMatch(
          /parser process died while reading this file \(its heap cap of 64 MiB was reached\); file left unparsed/,
        );
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
