// Caps that keep hostile or huge files from exhausting a worker: what is read (file, zip and XML
// sizes), what extraction produces (cells, characters, slides, pages, images, serialized bytes),
// and the parser process's time and memory. All are per file unless noted. Every cap has a
// documented maximum (LIMIT_MAXIMA): resolveLimits clamps a larger value to it, so no setting can
// lift a budget past what one worker can hold.

export interface EvidenceLimits {
  /** Files larger than this are listed but not parsed. */
  maxFileBytes: number;
  /** Files larger than this are not hashed either (sha256 null). */
  maxHashBytes: number;
  maxZipEntries: number;
  /** Decompressed size of one zip entry (declared and actual). */
  maxZipEntryBytes: number;
  /** Decompressed size of all entries of one zip together. */
  maxZipTotalBytes: number;
  maxXmlDepth: number;
  /** Elements and text nodes of the XML trees of one file, all parts together (docx body, slides, charts). */
  maxXmlNodes: number;
  /** Decoded size of the PDF's streams other than images (each stream and all together). */
  maxPdfStreamBytes: number;
  /** Spreadsheet cells kept per workbook (csv: fields); the rest are counted, not kept. */
  maxCells: number;
  /** PDF pages whose text is extracted. */
  maxPages: number;
  /** Slides kept per deck. */
  maxSlides: number;
  /** Pictures listed per deck. */
  maxImages: number;
  /** Cached chart points kept per file (a series declares its count; it is not trusted). */
  maxChartPoints: number;
  /** Characters of text kept per file (every string of the evidence counts). */
  maxTextChars: number;
  /** Serialized size of one file's evidence (JSON, UTF-8): what the parser sends and the caller holds. */
  maxEvidenceBytes: number;
  /** Submission-wide: serialized evidence of all files together. */
  maxViewBytes: number;
  /** Extraction time after which nothing more is kept (what was read is kept, with a note). */
  maxExtractMs: number;
  /** Wall time for detecting and extracting one file in the isolated parser process (then it is killed). */
  perFileTimeoutMs: number;
  /** Heap cap of the isolated parser process (V8 old space). */
  childMemoryMb: number;
  /** Address space the parser process may add after start-up (RLIMIT_AS, set with prlimit). */
  childAddressSpaceMb: number;
  /** Submission-wide: entries listed, and directory depth walked. */
  maxFiles: number;
  maxDepth: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_LIMITS: EvidenceLimits = {
  maxFileBytes: 64 * MiB,
  maxHashBytes: 256 * MiB,
  maxZipEntries: 10_000,
  maxZipEntryBytes: 128 * MiB,
  maxZipTotalBytes: 512 * MiB,
  maxXmlDepth: 256,
  maxXmlNodes: 1_000_000,
  maxPdfStreamBytes: 128 * MiB,
  maxCells: 1_000_000,
  maxPages: 2_000,
  maxSlides: 2_000,
  maxImages: 10_000,
  maxChartPoints: 1_000_000,
  maxTextChars: 10_000_000,
  maxEvidenceBytes: 32 * MiB,
  maxViewBytes: 96 * MiB,
  maxExtractMs: 6_000,
  perFileTimeoutMs: 60_000,
  childMemoryMb: 1_536,
  childAddressSpaceMb: 2_560,
  maxFiles: 5_000,
  maxDepth: 32,
};

/** The largest value each limit accepts (larger settings are clamped to it). */
export const LIMIT_MAXIMA: EvidenceLimits = {
  maxFileBytes: 1024 * MiB,
  maxHashBytes: 16 * 1024 * MiB,
  maxZipEntries: 100_000,
  maxZipEntryBytes: 1024 * MiB,
  maxZipTotalBytes: 2048 * MiB,
  maxXmlDepth: 4_096,
  maxXmlNodes: 20_000_000,
  maxPdfStreamBytes: 1024 * MiB,
  maxCells: 10_000_000,
  maxPages: 100_000,
  maxSlides: 100_000,
  maxImages: 1_000_000,
  maxChartPoints: 10_000_000,
  maxTextChars: 200_000_000,
  maxEvidenceBytes: 512 * MiB,
  maxViewBytes: 2048 * MiB,
  maxExtractMs: 3_600_000,
  perFileTimeoutMs: 3_600_000,
  childMemoryMb: 16_384,
  childAddressSpaceMb: 32_768,
  maxFiles: 1_000_000,
  maxDepth: 1_024,
};

export function resolveLimits(partial?: Partial<EvidenceLimits>): EvidenceLimits {
  const out = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as Array<keyof EvidenceLimits>) {
    const v = partial?.[key];
    if (typeof v === 'number' && Number.isFinite(v)) out[key] = Math.max(0, Math.min(v, LIMIT_MAXIMA[key]));
  }
  return out;
}
