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

export function createEvidenceSource(
  view: SubmissionView,
  opts: { pagesDir: string; contextVersion: string },
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
        const out = path.join(opts.pagesDir, f.sha256 ?? f.path.replaceAll('/', '__'));
        mkdirSync(out, { recursive: true });
        pages = renderPageImages(path.join(view.root, f.path), out).then((r) => r.pages);
        rendered.set(f.path, pages);
      }
      const png = (await pages)[page - 1];
      return png && existsSync(png) ? new Uint8Array(readFileSync(png)) : null;
    },
    renderOverview: () => renderSubmissionText(view, { maxCharsPerFile: 2_000 }),
  };
}
