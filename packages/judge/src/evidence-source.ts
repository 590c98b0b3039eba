// What the judge needs from a submission's evidence view. The lead adapts packages/evidence
// to this interface; `createMemoryEvidence` is a small in-memory implementation for tests
// and for submissions that are plain text.
import { createHash } from 'node:crypto';

export interface EvidenceFile {
  /** Path inside the submission (output folder), e.g. `report.docx`. */
  path: string;
  sha256: string;
  size: number;
  format: string | null;
  /** Pages (pdf/docx rendered) or slides, when known. */
  pages?: number;
}

export interface SearchHit {
  file: string;
  /** Where in the file: an anchor such as `p12`, `Sheet1!B3`, `slide 4`, `page 2`, `line 17`. */
  anchor: string;
  snippet: string;
}

export interface EvidenceSource {
  /** Version of the evidence renderer; part of the verdict-reuse key when the caller gives none. */
  contextVersion?: string;
  listFiles(): EvidenceFile[] | Promise<EvidenceFile[]>;
  /** The file's evidence text with anchors; null when the file does not exist. */
  readFileEvidence(path: string): string | null | Promise<string | null>;
  /** A spreadsheet range such as `Sheet1!A1:D20`, rendered as text; null when the file or sheet does not exist. */
  readCellRange(file: string, range: string): string | null | Promise<string | null>;
  searchText(query: string): SearchHit[] | Promise<SearchHit[]>;
  /** PNG bytes of a rendered page (1-based), or null when there is no such page or no renderer. */
  viewPageImage(file: string, page: number): Uint8Array | null | Promise<Uint8Array | null>;
  /** A short overview of the submission (files, formats, outline) given to the judge up front. */
  renderOverview(): string | Promise<string>;
}

export interface MemoryFile {
  path: string;
  text: string;
  format?: string;
  /** Cells for readCellRange: `{ 'Sheet1!B3': 42 }`. */
  cells?: Record<string, string | number | boolean | null>;
  /** PNG bytes per page number. */
  pages?: Record<number, Uint8Array>;
}

function colNumber(col: string): number {
  return [...col].reduce((n, ch) => n * 26 + (ch.charCodeAt(0) - 64), 0);
}

function parseRef(ref: string): { col: number; row: number } | null {
  const m = /^([A-Z]{1,3})([0-9]+)$/.exec(ref);
  return m ? { col: colNumber(m[1] ?? ''), row: Number(m[2]) } : null;
}

/** An EvidenceSource over text held in memory; anchors are `line N`. */
export function createMemoryEvidence(files: MemoryFile[]): EvidenceSource {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const format = (f: MemoryFile) => f.format ?? (f.path.includes('.') ? (f.path.split('.').pop() ?? null) : null);
  return {
    contextVersion: 'memory-evidence/1',
    listFiles: () =>
      files.map((f) => ({
        path: f.path,
        sha256: createHash('sha256')
          .update(f.text)
          .update(JSON.stringify(f.cells ?? {}))
          .digest('hex'),
        size: Buffer.byteLength(f.text),
        format: format(f),
        ...(f.pages ? { pages: Object.keys(f.pages).length } : {}),
      })),
    readFileEvidence: (path) => {
      const f = byPath.get(path);
      if (!f) return null;
      return f.text
        .split('\n')
        .map((line, i) => `[line ${i + 1}] ${line}`)
        .join('\n');
    },
    readCellRange: (file, range) => {
      const f = byPath.get(file);
      const m = /^([^!]+)!([A-Z]{1,3}[0-9]+)(?::([A-Z]{1,3}[0-9]+))?$/.exec(range);
      if (!f?.cells || !m) return null;
      const [, sheet, a, b] = m;
      const from = parseRef(a ?? '');
      const to = parseRef(b ?? a ?? '');
      if (!from || !to) return null;
      const rows = Object.entries(f.cells)
        .filter(([ref]) => {
          const [s, cell] = ref.split('!');
          const p = parseRef(cell ?? '');
          return (
            s === sheet && p !== null && p.col >= from.col && p.col <= to.col && p.row >= from.row && p.row <= to.row
          );
        })
        .map(([ref, v]) => `${ref} = ${v === null ? '(empty)' : JSON.stringify(v)}`);
      return rows.length > 0 ? rows.join('\n') : `${range}: no values`;
    },
    searchText: (query) => {
      const q = query.toLowerCase();
      const hits: SearchHit[] = [];
      for (const f of files) {
        f.text.split('\n').forEach((line, i) => {
          if (line.toLowerCase().includes(q))
            hits.push({ file: f.path, anchor: `line ${i + 1}`, snippet: line.slice(0, 200) });
        });
      }
      return hits;
    },
    viewPageImage: (file, page) => byPath.get(file)?.pages?.[page] ?? null,
    renderOverview: () =>
      files
        .map((f) => {
          const lines = f.text.split('\n');
          const headings = lines.filter((l) => /^#{1,3} /.test(l)).slice(0, 12);
          return [
            `- ${f.path} (${format(f) ?? 'unknown'}, ${lines.length} lines)`,
            ...headings.map((h) => `    ${h}`),
          ].join('\n');
        })
        .join('\n'),
  };
}
