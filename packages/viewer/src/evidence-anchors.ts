// Evidence anchors cited by a check or a judge (`debt_schedule.xlsx Summary!B2: …`, `slide 4`,
// `paragraph 12`, `line 9`), as @assay/evidence writes them, resolved to a file of the submission
// so the page can jump there. Pure.

export interface Anchor {
  /** A submission path, or null when the text names none and no single file fits. */
  file: string | null;
  anchor: string;
  kind: 'cell' | 'slide' | 'page' | 'paragraph' | 'table' | 'line' | 'row';
  /** 1-based page of the rendered file the anchor sits on (slides and PDF pages), when known. */
  page: number | null;
}

const PATTERNS: { kind: Anchor['kind']; re: RegExp }[] = [
  { kind: 'cell', re: /(?:'(?:[^']|'')+'|[A-Za-z0-9_.]+)![A-Z]{1,3}\d+(?::[A-Z]{1,3}\d+)?/g },
  // `slide 4 table 1 row 2` is one place on slide 4.
  { kind: 'slide', re: /\bslide (\d+)(?: (?:table \d+ row \d+|table \d+|chart \d+|notes))?/g },
  { kind: 'table', re: /\btable \d+ row \d+/g },
  { kind: 'page', re: /\bpage (\d+)/g },
  { kind: 'paragraph', re: /\bparagraph (\d+)/g },
  { kind: 'line', re: /\bline (\d+)/g },
  { kind: 'row', re: /\brow (\d+)/g },
];

/**
 * Anchors in the given texts. `files` are the submission's paths; `defaultFile` (the file the
 * check names) is used for a text that names no file.
 */
export function findAnchors(texts: readonly string[], files: readonly string[], defaultFile: string | null): Anchor[] {
  const out = new Map<string, Anchor>();
  for (const text of texts) {
    const file = fileNamedIn(text, files) ?? defaultFile;
    const taken: [number, number][] = [];
    for (const { kind, re } of PATTERNS) {
      for (const m of text.matchAll(re)) {
        const start = m.index ?? 0;
        const end = start + m[0].length;
        // `table 1 row 2` is one anchor, not also a `row 2`.
        if (taken.some(([a, b]) => start < b && end > a)) continue;
        taken.push([start, end]);
        const n = m[1] === undefined ? null : Number(m[1]);
        const page = kind === 'slide' || kind === 'page' ? n : null;
        const anchor: Anchor = { file, anchor: m[0], kind, page };
        out.set(`${file}\u0000${m[0]}`, anchor);
      }
    }
  }
  return [...out.values()];
}

/** The longest submission path (or its base name) that the text mentions. */
function fileNamedIn(text: string, files: readonly string[]): string | null {
  let best: string | null = null;
  for (const f of files) {
    const base = f.split('/').pop() ?? f;
    if ((text.includes(f) || text.includes(base)) && (!best || f.length > best.length)) best = f;
  }
  return best;
}

/** The file a rubric check is about (`file`, `path`, or the first locator's `file`), if any. */
function checkFile(check: unknown): string | null {
  if (!check || typeof check !== 'object') return null;
  const c = check as Record<string, unknown>;
  if (typeof c.file === 'string') return c.file;
  if (typeof c.path === 'string') return c.path;
  const locators = [c.a, c.b, ...(Array.isArray(c.locators) ? c.locators : [])];
  for (const l of locators) {
    if (l && typeof l === 'object' && typeof (l as Record<string, unknown>).file === 'string')
      return (l as Record<string, string>).file ?? null;
  }
  return null;
}

/** Strings a check or judge cited (`judge.evidence`), as recorded. */
export function citedEvidence(judge: Record<string, unknown> | undefined): string[] {
  const e = judge?.evidence;
  return Array.isArray(e) ? e.filter((x): x is string => typeof x === 'string') : [];
}

/** A verdict's anchors: what its judge or check cited and its reason, over the files it was decided on. */
export function verdictAnchors(
  v: { judge?: Record<string, unknown>; reason: string },
  files: readonly string[],
  check: unknown,
): Anchor[] {
  return findAnchors([...citedEvidence(v.judge), v.reason], files, checkFile(check));
}
