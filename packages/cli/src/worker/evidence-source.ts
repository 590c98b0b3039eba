// Adapt @assay/evidence's submission view to the judge's EvidenceSource: text with
// anchors, cell ranges, search, and page images rendered on demand (and kept).
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
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

/** Page images of a results location: `pages/<sha256>/<page>.png`. */
export const PAGES_PREFIX = 'pages';

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
        const name = f.sha256 ?? f.path.replaceAll('/', '__');
        const out = path.join(opts.pagesDir, name);
        mkdirSync(out, { recursive: true });
        pages = renderPageImages(path.join(view.root, f.path), out).then(async (r) => {
          if (opts.keepPages) await keepPageImages(opts.keepPages, name, r.pages);
          return r.pages;
        });
        rendered.set(f.path, pages);
      }
      const png = (await pages)[page - 1];
      return png && existsSync(png) ? new Uint8Array(readFileSync(png)) : null;
    },
    renderOverview: () => renderSubmissionText(view, { maxCharsPerFile: 2_000 }),
  };
}

/** Rendered pages into a remote store beside the records (a folder store renders in place). */
async function keepPageImages(store: ResultsStore, name: string, pages: readonly string[]): Promise<void> {
  for (const png of pages)
    if (existsSync(png)) await store.putBinary(`${name}/${path.basename(png)}`, new Uint8Array(readFileSync(png)));
}
