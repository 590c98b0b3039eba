// Deliverables as the judge saw them: the stored blobs materialized from the CAS into a scratch
// folder and read by @assay/evidence's buildSubmissionView (the judge's own parser, with its
// budgets), and page images rendered by its renderPageImages. Nothing here parses a document.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSubmissionView, renderPageImages, type SubmissionView } from '@assay/evidence';
import { PAGES_PREFIX } from '@assay/results';
import { isUrl } from './resolve-sources.js';
import type { ViewerSource } from './viewer-source.js';

export interface StoredFile {
  path: string;
  sha256: string;
}

const views = new Map<string, Promise<SubmissionView>>();
const pages = new Map<string, Promise<string[]>>();

/** Scratch space of this viewer process (materialized submissions, pages it rendered). */
export function scratchDir(): string {
  const dir = path.join(os.tmpdir(), `assay-view-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The evidence view of exactly these files (by content), built once per set. */
export function submissionView(source: ViewerSource, files: readonly StoredFile[]): Promise<SubmissionView> {
  const id = createHash('sha256')
    .update(JSON.stringify(files.map((f) => [f.path, f.sha256])))
    .digest('hex')
    .slice(0, 24);
  let view = views.get(id);
  if (!view) {
    view = materialize(source, files, path.join(scratchDir(), 'submissions', id)).then((dir) =>
      buildSubmissionView(dir),
    );
    view.catch(() => views.delete(id));
    views.set(id, view);
  }
  return view;
}

async function materialize(source: ViewerSource, files: readonly StoredFile[], dir: string): Promise<string> {
  const ready = path.join(dir, '.ready');
  const root = path.join(dir, 'files');
  if (existsSync(ready)) return root;
  for (const f of files) {
    const dest = path.join(root, ...f.path.split('/'));
    // Record paths are relative and already validated by the writer; refuse anything else anyway.
    if (!dest.startsWith(root + path.sep)) continue;
    await source.store.copyBlobTo(f.sha256, dest);
  }
  mkdirSync(ready, { recursive: true });
  return root;
}

/**
 * PNG paths of a file's pages: those the judge rendered under `<results>/pages/<sha256>/` when
 * present, else rendered now (LibreOffice + pdftoppm, same budgets) into the viewer's scratch.
 */
export function pageImages(source: ViewerSource, sha256: string, name: string): Promise<string[]> {
  // The judge writes page images beside a local store only (not through the store's interface).
  const existing = isUrl(source.dir) ? [] : pngsIn(path.join(source.dir, PAGES_PREFIX, sha256));
  if (existing.length > 0) return Promise.resolve(existing);
  let list = pages.get(sha256);
  if (!list) {
    list = renderFromStore(source, sha256, name);
    list.catch(() => pages.delete(sha256));
    pages.set(sha256, list);
  }
  return list;
}

async function renderFromStore(source: ViewerSource, sha256: string, name: string): Promise<string[]> {
  const base = path.join(scratchDir(), 'pages', sha256);
  const file = path.join(base, 'in', path.basename(name) || 'file');
  await source.store.copyBlobTo(sha256, file);
  const result = await renderPageImages(file, path.join(base, 'out'));
  return result.pages;
}

function pngsIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((n) => ({ n, m: /^page-(\d+)\.png$/.exec(n) }))
    .filter((x) => x.m)
    .sort((a, b) => Number(a.m?.[1]) - Number(b.m?.[1]))
    .map((x) => path.join(dir, x.n));
}

export function readPng(file: string): Uint8Array {
  return new Uint8Array(readFileSync(file));
}
