// `s3://bucket/optional/prefix` as a bucket and a key prefix ('' or ending in '/').

export interface S3Location {
  bucket: string;
  prefix: string;
}

// S3's bucket naming rules, the subset every S3-compatible server accepts.
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export function parseS3Location(location: string): S3Location {
  const m = /^s3:\/\/([^/]*)(?:\/(.*))?$/i.exec(location.trim());
  if (!m) throw new Error(`results location ${location}: not an s3:// URL (s3://bucket/prefix)`);
  const bucket = m[1] ?? '';
  if (!BUCKET.test(bucket) || bucket.includes('..')) {
    throw new Error(
      `results location ${location}: "${bucket}" is not a bucket name (3–63 lowercase letters, digits, dots, hyphens)`,
    );
  }
  const rest = (m[2] ?? '').replace(/\/+$/, '');
  if (rest.split('/').some((part) => part === '..' || part === '.') || rest.includes('//') || rest.includes('\\')) {
    throw new Error(`results location ${location}: the prefix must be plain path segments`);
  }
  return { bucket, prefix: rest === '' ? '' : `${rest}/` };
}
