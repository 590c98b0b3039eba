// Adapt @assay/evidence's submission view to the judge's EvidenceSource: text with
// anchors, cell ranges, search, and page images rendered on demand (and kept).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  findFile,
  readCellRange,
  renderFileText,
  renderPageImages,
  renderSubmissionText,
  searchText,
  type SubmissionView,
} from '@assay/evidence';
import type { EvidenceSource } from '@assay/judge';
import type { ResultsStore } from '@assay/results';

export function createEvidenceSource(
  view: SubmissionView,
  opts: { pagesDir: string; contextVersion: string; keepPages?: ResultsStore | null },
): EvidenceSource {
  const rendered = new Map<string, Promise<string[]>>();
  return {
    contextVersion: opts.contextVersion,
    listFiles: () =>
      view.files.map((f) => ({ path: f.path, sha256: f.sha256 ?? '', size: f.size, format: f.format ?? null })),
    readFileEvidence: (p) => {
      const f = findFile(view, p);
      return f ? renderFileText(f) : null;
    },
    readCellRange: (file, range) => {
      const r = readCellRange(view, range, { file });
      return r.ok ? r.text : null;
    },
    searchText: (query) =>
      searchText(view, query).hits.map((h) => ({ file: h.file, anchor: h.anchor, snippet: h.text })),
    viewPageImage: async (file, page) => {
      const f = findFile(view, file);
      if (!f) return null;
      let pages = rendered.get(f.path);
      if (!pages) {
        pages = pageImagesOnce(path.join(view.root, f.path), f.sha256 ?? null, f.path, opts);
        rendered.set(f.path, pages);
      }
      const png = (await pages)[page - 1];
      return png && existsSync(png) ? new Uint8Array(readFileSync(png)) : null;
    },
    renderOverview: () => renderSubmissionText(view, { maxCharsPerFile: 2_000 }),
  };
}

/** Renderings in progress or done in this process, by output folder: one per file content. */
const renders = new Map<string, Promise<string[]>>();
/** Written after a rendering finished: its page list, so a later process reuses the folder. */
const PAGE_LIST = 'pages.json';

/** Page images of a file, rendered once per content (sha256): reused from this process or the folder. */
function pageImagesOnce(
  abs: string,
  sha256: string | null,
  relPath: string,
  opts: { pagesDir: string; keepPages?: ResultsStore | null },
): Promise<string[]> {
  const name = sha256 ?? relPath.replaceAll('/', '__');
  const out = path.join(opts.pagesDir, name);
  // Without a hash the folder is named by path, which another submission may share: never reused.
  const known = sha256 ? renders.get(out) : undefined;
  if (known) return known;
  const pages = renderInto(abs, out, sha256 !== null, async (list) => {
    if (opts.keepPages) await keepPageImages(opts.keepPages, name, list);
  });
  if (sha256) {
    renders.set(out, pages);
    pages.catch(() => renders.delete(out));
  }
  return pages;
}

async function renderInto(
  abs: string,
  out: string,
  reusable: boolean,
  keep: (pages: string[]) => Promise<void>,
): Promise<string[]> {
  const listFile = path.join(out, PAGE_LIST);
  if (reusable && existsSync(listFile)) {
    const names = JSON.parse(readFileSync(listFile, 'utf8')) as string[];
    const pages = names.map((n) => path.join(out, n));
    if (pages.every((p) => existsSync(p))) return pages;
  }
  mkdirSync(out, { recursive: true });
  renderCount++;
  const r = await renderPageImages(abs, out);
  await keep(r.pages);
  if (reusable) writeFileSync(listFile, JSON.stringify(r.pages.map((p) => path.basename(p))));
  return r.pages;
}

let renderCount = 0;
/** Renderings this process started (for tests and benches). */
export const pageRenderCount = (): number => renderCount;

/** Rendered pages into a remote store beside the records (a folder store renders in place). */
async function keepPageImages(store: ResultsStore, name: string, pages: readonly string[]): Promise<void> {
  for (const png of pages)
    if (existsSync(png)) await store.putBinary(`${name}/${path.basename(png)}`, new Uint8Array(readFileSync(png)));
}
