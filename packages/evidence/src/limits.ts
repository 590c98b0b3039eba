// Caps that keep hostile or huge files from exhausting a worker. All are per file unless noted.

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
  /** Spreadsheet cells kept per workbook; the rest are counted, not kept. */
  maxCells: number;
  /** PDF pages whose text is extracted. */
  maxPages: number;
  /** Characters of text kept per file. */
  maxTextChars: number;
  /** Wall time for detecting and extracting one file in the isolated parser process. */
  perFileTimeoutMs: number;
  /** Heap cap of the isolated parser process. */
  childMemoryMb: number;
  /** Submission-wide: entries listed, and directory depth walked. */
  maxFiles: number;
  maxDepth: number;
}

export const DEFAULT_LIMITS: EvidenceLimits = {
  maxFileBytes: 64 * 1024 * 1024,
  maxHashBytes: 256 * 1024 * 1024,
  maxZipEntries: 10_000,
  maxZipEntryBytes: 128 * 1024 * 1024,
  maxZipTotalBytes: 512 * 1024 * 1024,
  maxXmlDepth: 256,
  maxCells: 1_000_000,
  maxPages: 2_000,
  maxTextChars: 10_000_000,
  perFileTimeoutMs: 60_000,
  childMemoryMb: 1_536,
  maxFiles: 5_000,
  maxDepth: 32,
};

export function resolveLimits(partial?: Partial<EvidenceLimits>): EvidenceLimits {
  return { ...DEFAULT_LIMITS, ...partial };
}
