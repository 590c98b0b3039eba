// The S3 backend: a key is an object below `s3://bucket/prefix/`. S3 writes are atomic per
// object (a reader sees the whole old or new value), so no temporary objects are needed;
// blobs are uploaded with their sha256 as the request checksum, so the server refuses a
// file that changed after it was hashed instead of storing it under the old hash.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PutObjectCommandInput, S3Client } from '@aws-sdk/client-s3';
import { hashFile } from './hash-file.js';
import { casKey } from './results-layout.js';
import { assertResultsKey, normalizePrefix, TEMP_PREFIX } from './results-key.js';
import type { BlobRef, ResultsStore } from './results-store.js';
import { parseS3Location, type S3Location } from './parse-s3-location.js';
import { scopeResultsStore } from './scope-results-store.js';
import { parseStoredJson, serializeJson } from './serialize-json.js';

export interface S3ResultsStoreOptions {
  /** A client to use; by default one from the environment (see `s3ClientFromEnv`). */
  client?: S3Client;
}

/**
 * Credentials come only from the AWS SDK's default chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY,
 * profiles, instance roles), never from a job file. ASSAY_S3_ENDPOINT (or AWS_ENDPOINT_URL_S3) points at an
 * S3-compatible server, addressed path-style.
 */
export async function s3ClientFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  overrides: { maxAttempts?: number } = {},
): Promise<S3Client> {
  const endpoint = env.ASSAY_S3_ENDPOINT ?? env.AWS_ENDPOINT_URL_S3;
  const { S3Client } = await loadSdk();
  return new S3Client({
    ...overrides,
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    // Checksums only where S3 requires them: S3-compatible servers differ on the default trailers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export function createS3ResultsStore(location: string, opts: S3ResultsStoreOptions = {}): ResultsStore {
  const bucket = openBucket(parseS3Location(location), opts);
  const blobBody = async (sha256: string): Promise<Body> => {
    const body = await bucket.get(casKey(sha256));
    if (body === null) throw new Error(`blob ${sha256} is not in the results store ${location}`);
    return body;
  };

  const store: ResultsStore = {
    location: `s3://${bucket.where.bucket}/${bucket.where.prefix}`,
    async putJson(key, value) {
      await bucket.put(key, textBody(serializeJson(key, value), 'application/json'));
    },
    async getJson(key) {
      return parseStoredJson(await store.getText(key), `${store.location}${key}`);
    },
    async putText(key, text) {
      await bucket.put(key, textBody(text, 'text/plain; charset=utf-8'));
    },
    async getText(key) {
      const body = await bucket.get(key);
      return body === null ? null : body.transformToString('utf8');
    },
    async putBinary(key, bytes) {
      await bucket.put(key, { Body: bytes, ContentLength: bytes.byteLength, ContentType: 'application/octet-stream' });
    },
    async getBinary(key) {
      const body = await bucket.get(key);
      return body === null ? null : body.transformToByteArray();
    },
    has: (key) => bucket.has(key),
    copy: (from, to) => bucket.copy(from, to),
    delete: (key) => bucket.delete(key),
    list: (prefix) => bucket.list(prefix),
    putBlob: (localFile) => putFileBlob(store, bucket, localFile),
    putBytes: (bytes) => putBytesBlob(store, bucket, bytes),
    async readBlob(sha256) {
      return (await blobBody(sha256)).transformToByteArray();
    },
    async copyBlobTo(sha256, localFile) {
      await downloadVerified((await blobBody(sha256)).transformToWebStream(), localFile, sha256);
    },
    scoped: (prefix) => scopeResultsStore(store, prefix),
  };
  return store;
}

type PutInput = Omit<PutObjectCommandInput, 'Bucket' | 'Key'>;

/** Results keys as objects below the location's prefix. */
interface Bucket {
  where: S3Location;
  get(key: string): Promise<Body | null>;
  put(key: string, input: PutInput): Promise<void>;
  has(key: string): Promise<boolean>;
  copy(from: string, to: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  list(prefix: string): Promise<string[]>;
}

function openBucket(where: S3Location, opts: S3ResultsStoreOptions): Bucket {
  // The SDK is loaded on first use: commands that never touch S3 do not pay for it.
  let clientPromise: Promise<S3Client> | null = null;
  const s3 = async (): Promise<Connected> => {
    clientPromise ??= opts.client ? Promise.resolve(opts.client) : s3ClientFromEnv();
    return { ...(await loadSdk()), client: await clientPromise };
  };
  const objectKey = (key: string): string => where.prefix + assertResultsKey(key);
  return {
    where,
    get: async (key) => getObject(await s3(), where, objectKey(key)),
    async put(key, input) {
      const { client, PutObjectCommand } = await s3();
      await client.send(new PutObjectCommand({ Bucket: where.bucket, Key: objectKey(key), ...input }));
    },
    has: async (key) => headObject(await s3(), where, objectKey(key)),
    copy: async (from, to) => copyObject(await s3(), where, objectKey(from), objectKey(to)),
    async delete(key) {
      const { client, DeleteObjectCommand } = await s3();
      await client.send(new DeleteObjectCommand({ Bucket: where.bucket, Key: objectKey(key) }));
    },
    async list(prefix) {
      const base = normalizePrefix(prefix);
      const keys = await listKeys(await s3(), where, base === '' ? where.prefix : `${where.prefix}${base}/`);
      return keys
        .map((k) => k.slice(where.prefix.length))
        .filter(isListableKey)
        .sort();
    },
  };
}

async function putFileBlob(store: ResultsStore, bucket: Bucket, localFile: string): Promise<BlobRef> {
  const found = await hashFile(localFile);
  const key = casKey(found.sha256);
  if (await store.has(key)) return found;
  // Closed whatever the SDK did with it: an open descriptor would keep a trial's work volume busy.
  const body = createReadStream(localFile);
  try {
    await bucket.put(key, { Body: body, ContentLength: found.size, ChecksumSHA256: base64Sha256(found.sha256) });
  } catch (err) {
    throw new Error(
      `${localFile} was not stored in ${store.location}: ${(err as Error).name}: ${(err as Error).message}`,
    );
  } finally {
    body.destroy();
  }
  return found;
}

async function putBytesBlob(store: ResultsStore, bucket: Bucket, bytes: Uint8Array): Promise<BlobRef> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const key = casKey(sha256);
  if (!(await store.has(key))) {
    await bucket.put(key, { Body: bytes, ContentLength: bytes.byteLength, ChecksumSHA256: base64Sha256(sha256) });
  }
  return { sha256, size: bytes.byteLength };
}

/** The form S3's ChecksumSHA256 takes. */
function base64Sha256(hex: string): string {
  return Buffer.from(hex, 'hex').toString('base64');
}

/** A string body with its length stated (the SDK cannot size an empty string by itself). */
function textBody(text: string, contentType: string): PutInput {
  const bytes = Buffer.from(text, 'utf8');
  return { Body: bytes, ContentLength: bytes.byteLength, ContentType: contentType };
}

/** The part of the SDK's response body this store uses. */
interface Body {
  transformToString(encoding?: string): Promise<string>;
  transformToByteArray(): Promise<Uint8Array>;
  transformToWebStream(): ReadableStream;
}

type Sdk = typeof import('@aws-sdk/client-s3');
type Connected = Sdk & { client: S3Client };
let sdk: Promise<Sdk> | null = null;
function loadSdk(): Promise<Sdk> {
  sdk ??= import('@aws-sdk/client-s3');
  return sdk;
}

async function getObject(s3: Connected, where: S3Location, key: string): Promise<Body | null> {
  const { client, GetObjectCommand } = s3;
  try {
    const out = await client.send(new GetObjectCommand({ Bucket: where.bucket, Key: key }));
    return (out.Body as Body | undefined) ?? null;
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

async function headObject(s3: Connected, where: S3Location, key: string): Promise<boolean> {
  const { client, HeadObjectCommand } = s3;
  try {
    await client.send(new HeadObjectCommand({ Bucket: where.bucket, Key: key }));
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

async function copyObject(s3: Connected, where: S3Location, from: string, to: string): Promise<boolean> {
  const { client, CopyObjectCommand } = s3;
  // Server-side copy: atomic at the destination like any put.
  const source = `${where.bucket}/${from}`.split('/').map(encodeURIComponent).join('/');
  try {
    await client.send(new CopyObjectCommand({ Bucket: where.bucket, Key: to, CopySource: source }));
    return true;
  } catch (err) {
    if (isNotFound(err)) return headObject(s3, where, to);
    throw err;
  }
}

async function listKeys(s3: Connected, where: S3Location, prefix: string): Promise<string[]> {
  const { client, ListObjectsV2Command } = s3;
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: where.bucket, Prefix: prefix, ContinuationToken: token }),
    );
    for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys;
}

/** Objects written by other tools may carry names no key can spell; they are not listed. */
function isListableKey(key: string): boolean {
  try {
    assertResultsKey(key);
    return !key.split('/').some((part) => part.startsWith(TEMP_PREFIX));
  } catch {
    return false;
  }
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

/** Download through a temporary sibling, checking the hash before the rename: a bad object never lands. */
async function downloadVerified(body: ReadableStream, localFile: string, sha256: string): Promise<void> {
  const dir = path.dirname(localFile);
  await mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `${TEMP_PREFIX}${path.basename(localFile)}-${process.pid}-${randomUUID()}`);
  const hash = createHash('sha256');
  try {
    await pipeline(
      Readable.fromWeb(body as import('node:stream/web').ReadableStream),
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          hash.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(tmp, { flags: 'wx' }),
    );
    const got = hash.digest('hex');
    if (got !== sha256) throw new Error(`blob ${sha256} read back with sha256 ${got}: the stored object is corrupt`);
    await rename(tmp, localFile);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
