// Every user-facing note and reason this package produces, in one place.

function errText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

const count = (n: number) => n.toLocaleString('en-US');

const UNIT_LABEL: Record<string, string> = {
  cells: 'cells',
  merges: 'merged ranges',
  sheets: 'sheets',
  names: 'defined names',
  charts: 'charts',
  series: 'chart series',
  points: 'chart points',
  slides: 'slides',
  images: 'pictures',
  blocks: 'paragraphs and tables',
  comments: 'comments',
  parts: 'headers, footers and notes',
  pages: 'pages',
  rows: 'rows',
  text: 'texts',
  characters: 'characters',
};

const COUNT_BUDGET: Record<string, [string, string]> = {
  maxCells: ['cell budget', 'cells per workbook'],
  maxSlides: ['slide budget', 'slides per deck'],
  maxPages: ['page budget', 'pages per PDF'],
  maxImages: ['picture budget', 'pictures per deck'],
  maxChartPoints: ['chart-point budget', 'chart points per file'],
};

export const msg = {
  // zip containers
  zipCorrupt: (err: unknown) => `unreadable zip container (corrupt or truncated): ${errText(err)}`,
  zipTooManyEntries: (n: number, max: number) =>
    `zip has ${n} entries, over the cap of ${max}: not read (possible zip bomb)`,
  zipEntryTooLarge: (name: string, max: number) =>
    `zip entry ${JSON.stringify(name)} decompresses to more than ${formatBytes(max)}: not read (possible zip bomb)`,
  zipTotalTooLarge: (max: number) =>
    `zip decompresses to more than ${formatBytes(max)} in total: not read (possible zip bomb)`,
  zipEncrypted: 'zip entries are encrypted: not read',
  zipSizeLie: (detail: string) =>
    `zip entry decompresses to more than its header declares: not read (possible zip bomb; ${detail})`,
  zipUnsafeName: (detail: string) => `zip entry with an unsafe path (${detail}): not read`,

  // detection and file-level refusals
  empty: 'empty file (0 bytes)',
  unknownBinary: (type: string) => `content is not a supported deliverable format (detected: ${type})`,
  ole2Encrypted: 'encrypted Office document (password-protected): contents not readable',
  ole2Legacy: 'legacy binary Office file (OLE2: .doc/.xls/.ppt), not an OOXML format: contents not extracted',
  macroEnabled: (type: string) => `macro-enabled or template Office file (${type}): not one of the deliverable formats`,
  tooLarge: (size: number, max: number) => `file is ${formatBytes(size)}, over the ${formatBytes(max)} cap: not parsed`,
  notHashed: (max: number) => `file over ${formatBytes(max)}: not hashed`,
  symlink: (target: string, escapes: boolean) =>
    `symbolic link to ${JSON.stringify(target)}${escapes ? ', which points outside the submission' : ''}: refused, not followed`,
  special: (kind: string) => `not a regular file (${kind}): skipped without reading`,
  unreadable: (err: unknown) => `could not read file: ${errText(err)}`,
  tooManyFiles: (max: number) => `submission has more than ${max} entries: only the first ${max} are listed`,
  tooDeep: (dir: string, max: number) =>
    `directory ${JSON.stringify(dir)} is nested deeper than ${max} levels: not walked`,
  rootMissing: (root: string, err: unknown) =>
    `submission folder ${JSON.stringify(root)} cannot be read: ${errText(err)}`,

  hardLink: (links: number) =>
    `hard link (this file has ${links} names, and may be a file from outside the submission): refused, not read`,

  // isolation
  timedOut: (ms: number) => `parsing did not finish within ${ms} ms: stopped (file left unparsed)`,
  crashed: (detail: string) => `parser process died while reading this file (${detail}); file left unparsed`,
  heapCap: (mb: number) => `its heap cap of ${count(mb)} MiB was reached`,
  addressCap: (mb: number, died: string) =>
    `${died} under its memory cap of ${count(mb)} MiB beyond start-up: the cap was most likely reached`,
  childFailed: (err: unknown) => `parser process failed: ${errText(err)}`,
  memoryCap: (format: string, mb: number) =>
    `${format} needs more memory than the parser's cap of ${count(mb)} MiB allows: not parsed`,
  replyTooLarge: (max: number) =>
    `the parser's reply exceeded the evidence size budget of ${formatBytes(max)}: evidence dropped`,
  evidenceDropped: (bytes: number, max: number) =>
    `evidence serialized to ${formatBytes(bytes)}, over its size budget of ${formatBytes(max)} even after cutting: dropped`,
  viewBudgetSpent: (max: number) =>
    `the submission's evidence size budget (${formatBytes(max)} for all files) is spent: this file was not parsed`,

  // output budgets
  keptOf: (kept: number, total: number, unit: string, atLeast: boolean) =>
    `${count(kept)} of ${atLeast ? 'at least ' : ''}${count(total)} ${UNIT_LABEL[unit] ?? unit}`,
  keptPartial: (kept: number) => `the first ${count(kept)} characters of a text not read to its end`,
  budgetCut: (budget: string, parts: string[]) => `evidence truncated at the ${budget}: kept ${parts.join(', ')}`,
  textBudget: (max: number) => `text budget (${count(max)} characters per file)`,
  sizeBudget: (max: number, scope: 'file' | 'submission') =>
    scope === 'file'
      ? `size budget (${formatBytes(max)} of serialized evidence per file)`
      : `submission's size budget (${formatBytes(max)} of serialized evidence left for this file)`,
  countBudget: (cap: string, max: number) => {
    const [name, unit] = COUNT_BUDGET[cap] ?? [cap, ''];
    return `${name} (${count(max)} ${unit})`;
  },
  timeBudget: (ms: number) => `time budget (${count(ms)} ms of extraction per file)`,
  moreNotes: (n: number) => `… and ${count(n)} more notes like these`,
  duplicateSlides: (n: number, part: string) =>
    `${count(n)} slide entries reuse a slide part already listed (such as ${part}): each is kept as a copy, within the budget`,
  duplicatePart: (what: string, part: string, first: string) =>
    `${what} uses part ${part} already read for ${first}: not read again`,
  xmlTooManyNodes: (max: number) => `the file's XML parts hold more than ${count(max)} nodes (XML node budget)`,
  pdfStreamsTooLarge: (max: number) =>
    `PDF streams decode to more than ${formatBytes(max)} (images aside): text not extracted (possible flate bomb)`,

  // parsing
  parseFailed: (format: string, err: unknown) => `${format} could not be parsed: ${errText(err)}`,
  xmlRefused: (part: string, err: unknown) => `XML part ${part} refused: ${errText(err)}`,
  missingPart: (part: string) => `package part ${part} is missing`,
  pdfEncrypted: 'encrypted PDF (password required): text not readable',
  pdfEncryptedUnmeasured: (what: string) =>
    `encrypted PDF (an /Encrypt dictionary, even with an empty password): its streams cannot be measured before they are decrypted, so ${what}`,
  pdfPageFailed: (page: number, err: unknown) => `page ${page}: text could not be extracted: ${errText(err)}`,
  invalidUtf8: 'text is not valid UTF-8; undecodable bytes replaced',
  jsonInvalid: (err: unknown) => `not valid JSON: ${errText(err)}`,
  imageHuge: (w: number, h: number) => `image declares ${w}x${h} pixels; dimensions recorded, pixels not decoded`,
  imageCorrupt: (format: string) => `${format} header is corrupt: dimensions unknown`,

  // rendering
  sofficeMissing:
    'LibreOffice (soffice) is not installed: page images cannot be rendered (apt-get install libreoffice-*-nogui)',
  pdftoppmMissing: 'pdftoppm is not installed: page images cannot be rendered (apt-get install poppler-utils)',
  renderTimedOut: (tool: string, ms: number) => `${tool} did not finish within ${ms} ms: stopped`,
  renderFailed: (tool: string, detail: string) => `${tool} failed: ${detail}`,
  renderNoOutput: (tool: string, expected: string) => `${tool} reported success but produced no ${expected}`,
  renderUnsupported: (format: string | null) =>
    `page images are rendered for docx, xlsx, pptx and pdf only (this file: ${format ?? 'unknown'})`,
  renderSlidesTrimmed: (kept: number, slides: number) =>
    `the deck lists ${count(slides)} slides: only the first ${count(kept)} were converted to page images (page budget)`,
  renderPagesCapped: (kept: number) => `rendered the first ${kept} pages only (later pages, if any, have no image)`,
  renderPageScaled: (page: number, pixels: number, max: number, dpi: number) =>
    `page ${page} would be ${count(pixels)} pixels, over the page budget of ${count(max)}: rendered at ${dpi} dpi instead`,
  renderPixelBudget: (max: number, kept: number) =>
    `page images truncated at the pixel budget (${count(max)} pixels per file): rendered the first ${kept} pages`,
  renderTimeSpent: (tool: string, ms: number) =>
    `the time budget for page images (${count(ms)} ms per file) ran out during ${tool}: stopped`,
  renderTimeBudget: (ms: number, kept: number) =>
    `page images truncated at the time budget (${count(ms)} ms per file): rendered the first ${kept} pages`,
  renderMemoryCap: (tool: string, mb: number) =>
    `${tool} ran out of memory under its cap of ${count(mb)} MiB: page images not rendered`,
  renderPdfStreams: (max: number) =>
    `PDF streams decode to more than ${formatBytes(max)} (images aside): page images not rendered (possible flate bomb)`,
} as const;

/** Reasons attached to check outcomes. */
export const reason = {
  fileMissing: (file: string) => `${file} is not in the submission`,
  fileNotRegular: (file: string) => `${file} is not a regular file (symbolic link, hard link or special file)`,
  fileUnreadable: (file: string, notes: string[]) =>
    `${file} could not be read${notes.length ? `: ${notes.join('; ')}` : ''}`,
  fileEmpty: (file: string) => `${file} is empty`,
  present: (file: string, type: string) => `${file} is present (${type})`,
  wrongFormat: (file: string, want: string, got: string) => `${file} is ${got} by content, not ${want}`,
  rightFormat: (file: string, format: string) => `${file} is present and is ${format} by content`,
  similarNames: (names: string[]) => `similar paths in the submission: ${names.join(', ')}`,
  needsSpreadsheet: (file: string, format: string | null) =>
    `${file} is ${format ?? 'of unknown type'} by content, not a spreadsheet (xlsx or csv): it has no cells to read`,
  noText: (file: string, format: string | null) => `${file} (${format ?? 'unknown type'}) has no extractable text`,
  noTextLayer: (file: string) =>
    `${file} has no text layer (scanned pages?): its words can only be read from the page images`,
  absenceUnsure: (why: string, file: string) => `${why}, but ${file} was cut at a size cap, so the rest may hold it`,
  sheetMissing: (file: string, sheet: string, sheets: string[]) =>
    `${file} has no sheet ${JSON.stringify(sheet)} (sheets: ${sheets.join(', ')})`,
  cellEmpty: (anchor: string) => `${anchor} is empty`,
  cellsCut: (anchor: string) => `${anchor} is not among the cells kept (the workbook was cut at an evidence budget)`,
  formulaNoCache: (anchor: string, formula: string) =>
    `${anchor} has formula =${formula} but the file stores no cached value`,
  cellValue: (anchor: string, shown: string) => `${anchor} = ${shown}`,
  notNumber: (anchor: string, shown: string) => `${anchor} holds ${shown}, not a number`,
  outOfRange: (anchor: string, v: number, min?: number, max?: number) =>
    `${anchor} = ${v}, outside [${min ?? '-∞'}, ${max ?? '∞'}]`,
  notEqual: (anchor: string, shown: string, want: string) => `${anchor} = ${shown}, expected ${want}`,
  noMatch: (anchor: string, shown: string, pattern: string) => `${anchor} = ${shown} does not match /${pattern}/`,
  cellOk: (anchor: string, shown: string) => `${anchor} = ${shown} satisfies the check`,
  badPattern: (pattern: string, err: unknown) =>
    `pattern /${pattern}/ is not a valid regular expression: ${errText(err)}`,
  patternTimeout: (pattern: string) => `pattern /${pattern}/ took too long to evaluate (catastrophic backtracking?)`,
  noCondition: 'the check states no condition to test',
  badRange: (range: string) => `${range} is not a valid cell range`,
  rangeEmpty: (range: string) => `${range} holds no values`,
  notFormula: (anchor: string, shown: string) => `${anchor} holds a typed value (${shown}), not a formula`,
  cachedError: (anchor: string, formula: string, err: string) => `${anchor} =${formula} caches an error value ${err}`,
  formulasCached: (n: number, range: string) => `all ${n} cells in ${range} are formulas with cached values`,
  textFound: (text: string, anchors: string[]) => `${JSON.stringify(text)} found at ${anchors.join(', ')}`,
  textNotFound: (text: string, file: string) => `${JSON.stringify(text)} not found in ${file}`,
  textAbsent: (text: string, file: string) => `${JSON.stringify(text)} does not appear in ${file}`,
  patternFound: (pattern: string, anchors: string[]) => `/${pattern}/ matches at ${anchors.join(', ')}`,
  patternNotFound: (pattern: string, file: string) => `/${pattern}/ matches nothing in ${file}`,
  locatorNotFound: (file: string, pattern: string) => `/${pattern}/ locates no value in ${file}`,
  agree: (a: string, b: string) => `values agree: ${a} and ${b}`,
  disagree: (a: string, b: string) => `values differ: ${a} vs ${b}`,
  rowCount: (file: string, sheet: string, n: number, min?: number, max?: number) =>
    `${file} ${sheet} has ${n} non-empty rows (wanted ${min ?? 0}..${max ?? '∞'})`,
  sectionFound: (what: string) => `${what} present`,
  sectionMissing: (what: string) => `${what} not found`,
  headingNoStructure: (file: string, heading: string) =>
    `${file} carries no heading structure and no line matches ${JSON.stringify(heading)}`,
  slideCheckNeedsDeck: (file: string, format: string | null) =>
    `${file} is ${format ?? 'of unknown type'} by content, which has no slides (slide checks need a pptx)`,
  sheetCheckNeedsBook: (file: string, format: string | null) =>
    `${file} is ${format ?? 'of unknown type'} by content, which has no named sheets (sheet checks need an xlsx)`,
} as const;
