// Before a job is submitted: can this machine reach and write the job's results store? For an
// s3:// location that is the endpoint answering, the credentials accepted and the bucket there,
// each as one sentence naming the location and the reason. The probe object is removed again.
import { randomUUID } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import { s3ClientFromEnv } from './create-s3-results-store.js';
import { parseS3Location } from './parse-s3-location.js';
import { isRemoteLocation } from './scratch-root.js';

/** Why the results store at `location` cannot be used from here, or null. Folders are checked elsewhere. */
export async function resultsStoreProblem(
  location: string,
  opts: { client?: S3Client; env?: NodeJS.ProcessEnv } = {},
): Promise<string | null> {
  if (!isRemoteLocation(location)) return null;
  let where;
  try {
    where = parseS3Location(location);
  } catch (err) {
    return (err as Error).message;
  }
  const env = opts.env ?? process.env;
  const client = opts.client ?? (await s3ClientFromEnv(env, { maxAttempts: 1 }));
  const sdk = await import('@aws-sdk/client-s3');
  const probe = `${where.prefix}.assay-write-probe-${process.pid}-${randomUUID()}`;
  try {
    await client.send(new sdk.HeadBucketCommand({ Bucket: where.bucket }));
    await client.send(new sdk.PutObjectCommand({ Bucket: where.bucket, Key: probe, Body: '', ContentLength: 0 }));
    await client.send(new sdk.DeleteObjectCommand({ Bucket: where.bucket, Key: probe }));
    return null;
  } catch (err) {
    return storeErrorSentence(location, err, env);
  } finally {
    if (!opts.client) client.destroy();
  }
}

/** An S3 failure as one sentence: the location, and what to fix. */
export function storeErrorSentence(location: string, err: unknown, env: NodeJS.ProcessEnv = process.env): string {
  const e = err as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  const endpoint = env.ASSAY_S3_ENDPOINT ?? env.AWS_ENDPOINT_URL_S3 ?? 'the AWS S3 endpoint';
  const bucket = parseS3Location(location).bucket;
  const name = e.name ?? e.code ?? '';
  if (name === 'CredentialsProviderError' || /could not load credentials/i.test(e.message ?? ''))
    return `results location ${location}: no AWS credentials found (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE)`;
  if (name === 'NoSuchBucket' || (status === 404 && name !== 'NoSuchKey'))
    return `results location ${location}: bucket "${bucket}" does not exist at ${endpoint} (create it first)`;
  if (status === 403 || ['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied', 'Forbidden'].includes(name))
    return `results location ${location}: ${endpoint} refused the credentials (${name || `HTTP ${status}`}): check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY or AWS_PROFILE, and the bucket's permissions`;
  if (status === undefined)
    return `results location ${location}: ${endpoint} cannot be reached (${e.code ?? name ?? 'error'}: ${oneLine(e.message)})`;
  return `results location ${location}: ${endpoint} answered HTTP ${status} (${name}: ${oneLine(e.message)})`;
}

const oneLine = (s: string | undefined): string => (s ?? '').split('\n')[0] ?? '';
