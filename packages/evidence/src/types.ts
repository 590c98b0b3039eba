// The evidence view's data model. Everything here is plain JSON: the view is written to disk,
// sent between processes and handed to judges as-is.
import type { Format } from '@assay/core';

/** A spreadsheet cell. For a formula cell, `value` is the cached result the file stores (null if none). */
export interface CellEvidence {
  ref: string;
  row: number;
  col: number;
  kind: 'number' | 'string' | 'boolean' | 'date' | 'error' | 'empty';
  value: number | string | boolean | null;
  /** Formula text without the leading `=`. */
  formula?: string;
  /** Formula cells only: does the file store a result for it? (openpyxl writes none.) */
  cached?: boolean;
  numFmt?: string;
  /** What a spreadsheet program would display (number format applied). */
  text: string;
  /** ISO date for date-formatted numbers. */
  date?: string;
  comment?: string;
}

export interface SheetEvidence {
  name: string;
  state: 'visible' | 'hidden' | 'veryHidden';
  dimension: string | null;
  /** Rows that hold at least one non-empty cell. */
  rowCount: number;
  cellCount: number;
  cells: CellEvidence[];
  merges: string[];
  truncated?: boolean;
}

export interface ChartSeries {
  name: string | null;
  nameRef?: string;
  categoriesRef?: string;
  valuesRef?: string;
  categories: Array<string | number | null>;
  values: Array<number | null>;
}

export interface ChartEvidence {
  part: string;
  /** `Sheet1` or `slide 4`, when the chart's placement could be resolved. */
  location: string | null;
  types: string[];
  title: string | null;
  series: ChartSeries[];
}

export interface XlsxEvidence {
  format: 'xlsx';
  sheets: SheetEvidence[];
  definedNames: Array<{ name: string; refersTo: string; scope?: string }>;
  charts: ChartEvidence[];
  date1904: boolean;
}

export type DocBlock =
  | { type: 'paragraph'; index: number; text: string; style?: string; headingLevel?: number; list?: boolean }
  | { type: 'table'; index: number; rows: string[][] };

export interface DocxEvidence {
  format: 'docx';
  blocks: DocBlock[];
  comments: Array<{ id: string; author: string; text: string }>;
  headers: string[];
  footers: string[];
  footnotes: string[];
}

export interface SlideEvidence {
  index: number;
  title: string | null;
  hidden: boolean;
  /** Text of each shape, in drawing order; paragraphs joined by newlines. */
  texts: string[];
  tables: string[][][];
  notes: string;
  charts: ChartEvidence[];
  images: Array<{ name: string; alt: string }>;
}

export interface PptxEvidence {
  format: 'pptx';
  slides: SlideEvidence[];
}

export interface PdfEvidence {
  format: 'pdf';
  pageCount: number;
  pages: Array<{ page: number; text: string }>;
  info: Record<string, string>;
}

export interface ImageEvidence {
  format: 'png' | 'jpg' | 'svg';
  width: number | null;
  height: number | null;
  detail?: string;
}

export interface CsvEvidence {
  format: 'csv';
  delimiter: string;
  rows: string[][];
}

export interface TextEvidence {
  format: 'md' | 'txt' | 'json' | 'html' | 'code';
  text: string;
  lineCount: number;
  headings: Array<{ level: number; text: string; line: number }>;
}

export type FileEvidence =
  | XlsxEvidence
  | DocxEvidence
  | PptxEvidence
  | PdfEvidence
  | ImageEvidence
  | CsvEvidence
  | TextEvidence;

/** What the content says a file is: a Format, or a finer kind that maps to none (gif, ole2, zip, ...). */
export interface Detection {
  format: Format | null;
  type: string;
  /** Why the content could not be identified further (e.g. a zip over its caps). */
  note?: string;
}

export interface ExtractResult {
  detection: Detection;
  evidence: FileEvidence | null;
  notes: string[];
}

export interface FileView {
  /** POSIX path relative to the submission root. */
  path: string;
  entry: 'file' | 'symlink' | 'other';
  format: Format | null;
  type: string;
  size: number;
  sha256: string | null;
  evidence: FileEvidence | null;
  notes: string[];
  /** Rendered page images (absolute paths), when rendering was asked for. */
  pageImages?: string[];
}

export interface SubmissionView {
  version: 1;
  root: string;
  files: FileView[];
  /** Submission-level notes: caps reached, entries skipped. */
  notes: string[];
}

/** A piece of text with a stable anchor (`Sheet1!B3`, `slide 4`, `page 2`, `paragraph 7`, `line 3`). */
export interface TextUnit {
  anchor: string;
  text: string;
}
