// Where a job's results live. Async and key-based (forward-slash keys relative to the
// results root) so a remote backend is one more implementation; local paths appear only
// where something is read from or materialized to the local disk.

/** A blob in the content-addressed store (`cas/sha256/<aa>/<sha256>`). */
export interface BlobRef {
  sha256: string;
  size: number;
}

export interface ResultsStore {
  /** For messages only (a folder path, or a URL for a remote store); never parse it. */
  readonly location: string;
  /** Atomic: readers see the whole value or the previous one, never a part. Rewriting is harmless. */
  putJson(key: string, value: unknown): Promise<void>;
  /** The parsed value, or null when the key is absent. Throws when the content is not JSON. */
  getJson(key: string): Promise<unknown>;
  putText(key: string, text: string): Promise<void>;
  getText(key: string): Promise<string | null>;
  /** Bytes under a key (page images), atomic like putText. */
  putBinary(key: string, bytes: Uint8Array): Promise<void>;
  getBinary(key: string): Promise<Uint8Array | null>;
  has(key: string): Promise<boolean>;
  /**
   * `from` to `to` (same bytes), atomic at the destination; false when `from` is absent. Safe to
   * repeat: a copy whose source is gone but whose destination is there reports true.
   */
  copy(from: string, to: string): Promise<boolean>;
  /** Remove a key; absent is fine. */
  delete(key: string): Promise<void>;
  /** Every key under `prefix` (a folder-like key; '' for all), recursive, sorted. */
  list(prefix: string): Promise<string[]>;
  /** Store a local file by its sha256; stored once, later calls only hash. */
  putBlob(localFile: string): Promise<BlobRef>;
  putBytes(bytes: Uint8Array): Promise<BlobRef>;
  /** Throws when the blob is not stored. */
  readBlob(sha256: string): Promise<Uint8Array>;
  /** Materialize a blob as a local file (parent folders are created). Throws when it is not stored. */
  copyBlobTo(sha256: string, localFile: string): Promise<void>;
  /**
   * A store whose keys are relative to `prefix` (e.g. `judges/<name>`). Blobs stay in this
   * store's content-addressed area, so records below the prefix resolve the same hashes.
   */
  scoped(prefix: string): ResultsStore;
}
