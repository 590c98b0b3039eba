// The S3 backend against a real S3-compatible server (versitygw on 127.0.0.1, built from
// the Go module proxy on first use), through the AWS SDK v3 as production would use it.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ensureVersitygw, freePort, startS3Server, type S3Server } from '@assay/infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  casKey,
  createS3ResultsStore,
  openResultsStore,
  readTrialRecords,
  restoreSnapshot,
  resultsStoreProblem,
  snapshotDirectory,
  writeTrialRecord,
  type ResultsStore,
} from '../src/index.js';
import { parseS3Location } from '../src/parse-s3-location.js';
import { makeTrialRecord } from './make-records.js';
import { writeConcurrently } from './make-reviews.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const BUCKET = 'assay-results';
let server: S3Server;
let client: S3Client;
let dataDir: string;
let prefixes = 0;

beforeAll(async () => {
  const binary = await ensureVersitygw({ root: ROOT, log: (l) => console.log(l) });
  const dir = await mkdtemp(path.join(tmpdir(), 'assay-s3-'));
  dataDir = path.join(dir, 'data');
  server = await startS3Server({
    binary,
    dataDir,
    accessKey: `test${randomBytes(6).toString('hex')}`,
    secretKey: randomBytes(24).toString('hex'),
    logFile: path.join(dir, 'versitygw.log'),
  });
  client = new S3Client({
    region: 'us-east-1',
    endpoint: server.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: server.accessKey, secretAccessKey: server.secretKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
  // The first call builds versitygw with Go (CI builds it in `assay setup --s3-server` instead).
}, 30 * 60_000);
afterAll(async () => {
  client?.destroy();
  await server?.stop();
  if (dataDir) await rm(path.dirname(dataDir), { recursive: true, force: true });
});

/** A fresh store under its own prefix of the one bucket, so tests do not see each other's keys. */
function freshStore(): ResultsStore {
  return createS3ResultsStore(`s3://${BUCKET}/runs/r${++prefixes}`, { client });
}

describe('S3 results store', () => {
  it('keeps every review when two reviewers write at once (each its own object)', async () => {
    await writeConcurrently(freshStore());
  });

  it('round-trips JSON and text, answers null/false for what is absent, names unparseable JSON', async () => {
    const store = freshStore();
    await store.putJson('trials/s/t/1/record.json', { a: 1, nested: [true, null] });
    await store.putText('trials/s/t/1/transcript.log', 'hello\n');
    expect(await store.getJson('trials/s/t/1/record.json')).toEqual({ a: 1, nested: [true, null] });
    expect(await store.getText('trials/s/t/1/transcript.log')).toBe('hello\n');
    expect(await store.getJson('trials/s/t/2/record.json')).toBeNull();
    expect(await store.has('trials/s/t/1/record.json')).toBe(true);
    expect(await store.has('trials/s/t/1')).toBe(false);
    await store.putText('job.json', '{"half":');
    await expect(store.getJson('job.json')).rejects.toThrow(/job\.json is not valid JSON/);
    await expect(store.putJson('other.json', undefined)).rejects.toThrow(/not JSON/);
    await expect(store.getText('../escape')).rejects.toThrow(/invalid results key/);
    expect(store.location).toBe(`s3://${BUCKET}/runs/r${prefixes}/`);
  });

  it('copies server-side, repeats a copy whose source is gone, deletes idempotently, keeps bytes', async () => {
    const store = freshStore();
    await store.putJson('trials/s/t/1/record.json', { status: 'agent-failed' });
    await store.putText('trials/s/t/1/transcript.log', 'log\n');
    expect(await store.copy('trials/s/t/1/record.json', 'trials/s/t/1/attempts/1/record.json')).toBe(true);
    await store.delete('trials/s/t/1/record.json');
    await store.delete('trials/s/t/1/record.json');
    expect(await store.copy('trials/s/t/1/record.json', 'trials/s/t/1/attempts/1/record.json')).toBe(true);
    expect(await store.copy('trials/s/t/9/record.json', 'trials/s/t/9/attempts/1/record.json')).toBe(false);
    expect(await store.list('trials/s/t/1')).toEqual([
      'trials/s/t/1/attempts/1/record.json',
      'trials/s/t/1/transcript.log',
    ]);
    expect(await store.getJson('trials/s/t/1/attempts/1/record.json')).toEqual({ status: 'agent-failed' });
    await store.putBinary('pages/ab/page-1.png', new Uint8Array([1, 2, 3]));
    expect([...((await store.getBinary('pages/ab/page-1.png')) ?? [])]).toEqual([1, 2, 3]);
    expect(await store.getBinary('pages/ab/page-2.png')).toBeNull();
  });

  it('lists keys under a prefix recursively and sorted, not a sibling that shares the prefix', async () => {
    const store = freshStore();
    for (const key of ['b/2.json', 'a/z/1.json', 'a/1.json', 'ab/1.json', 'job.json']) await store.putJson(key, {});
    expect(await store.list('')).toEqual(['a/1.json', 'a/z/1.json', 'ab/1.json', 'b/2.json', 'job.json']);
    expect(await store.list('a')).toEqual(['a/1.json', 'a/z/1.json']);
    expect(await store.list('a/')).toEqual(['a/1.json', 'a/z/1.json']);
    expect(await store.list('missing')).toEqual([]);
  });

  it('pages through listings longer than one response', async () => {
    const store = freshStore();
    const keys = Array.from({ length: 1001 }, (_, i) => `many/${String(i).padStart(4, '0')}.json`);
    for (let i = 0; i < keys.length; i += 100)
      await Promise.all(keys.slice(i, i + 100).map((k) => store.putText(k, '')));
    expect(await store.list('many')).toEqual(keys);
  });

  it('stores blobs once under cas/sha256, streams large files, and copies them out verified', async () => {
    const store = freshStore();
    const bytes = Buffer.from('the deliverable\n');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(await store.putBytes(bytes)).toEqual({ sha256, size: bytes.length });
    const onDisk = path.join(dataDir, BUCKET, 'runs', `r${prefixes}`, ...casKey(sha256).split('/'));
    const first = await stat(onDisk);
    const local = path.join(await mkdtemp(path.join(tmpdir(), 'assay-s3-local-')), 'same.txt');
    await writeFile(local, bytes);
    await new Promise((r) => setTimeout(r, 20));
    expect(await store.putBlob(local)).toEqual({ sha256, size: bytes.length });
    // Found by its hash: not uploaded again.
    expect((await stat(onDisk)).mtimeMs).toBe(first.mtimeMs);

    const big = Buffer.alloc(3 * 1024 * 1024 + 7, 9);
    const bigFile = path.join(path.dirname(local), 'big.bin');
    await writeFile(bigFile, big);
    const ref = await store.putBlob(bigFile);
    expect(ref.size).toBe(big.length);
    const out = path.join(path.dirname(local), 'deep', 'er', 'copy.bin');
    await store.copyBlobTo(ref.sha256, out);
    expect((await readFile(out)).equals(big)).toBe(true);
    expect(Buffer.from(await store.readBlob(sha256)).equals(bytes)).toBe(true);
    expect((await readdir(path.dirname(out))).filter((e) => e.includes('.assay-tmp-'))).toEqual([]);

    const absent = 'c'.repeat(64);
    await expect(store.readBlob(absent)).rejects.toThrow(`blob ${absent} is not in the results store`);
    await expect(store.copyBlobTo(absent, path.join(path.dirname(local), 'x'))).rejects.toThrow(/is not in the/);
  });

  it('names the file, the store and the server error when a blob cannot be stored', async () => {
    const store = createS3ResultsStore('s3://no-such-bucket/p', { client });
    const dir = await mkdtemp(path.join(tmpdir(), 'assay-s3-local-'));
    const local = path.join(dir, 'a.txt');
    await writeFile(local, 'unstored');
    const sha256 = createHash('sha256').update('unstored').digest('hex');
    await expect(store.putBlob(local)).rejects.toThrow(
      `${local} was not stored in s3://no-such-bucket/p/: NoSuchBucket: The specified bucket does not exist`,
    );
    await expect(store.putBytes(Buffer.from('unstored'))).rejects.toThrow(/NoSuchBucket|specified bucket/);
    await expect(store.readBlob(sha256)).rejects.toThrow(
      new Error(`blob ${sha256} is not in the results store s3://no-such-bucket/p`),
    );
    await rm(dir, { recursive: true, force: true });
  });

  it('relies on a server that refuses a body whose sha256 is not the one claimed', async () => {
    // putBlob claims the hash it computed; a file changed after hashing must be refused, not stored.
    const claimed = createHash('sha256').update('what was hashed').digest('base64');
    await expect(
      client.send(
        new PutObjectCommand({ Bucket: BUCKET, Key: 'runs/tamper', Body: 'what was sent', ChecksumSHA256: claimed }),
      ),
    ).rejects.toThrow();
  });

  it('refuses to materialize an object whose bytes do not match its hash', async () => {
    const store = freshStore();
    const sha256 = createHash('sha256').update('original').digest('hex');
    await client.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: `runs/r${prefixes}/${casKey(sha256)}`, Body: 'corrupted' }),
    );
    const dir = await mkdtemp(path.join(tmpdir(), 'assay-s3-local-'));
    await expect(store.copyBlobTo(sha256, path.join(dir, 'out.txt'))).rejects.toThrow(/corrupt/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('carries records, scoped judge stores and workspace snapshots', async () => {
    const store = freshStore();
    await writeTrialRecord(store, makeTrialRecord('oracle', 'fin-payroll', 1));
    await writeTrialRecord(store, makeTrialRecord('stale', 'fin-payroll', 2));
    const judge = store.scoped('judges/strict');
    await writeTrialRecord(judge, makeTrialRecord('oracle', 'fin-payroll', 1));
    expect((await readTrialRecords(store, { problems: [] })).map((r) => `${r.system.id}/${r.trial}`)).toEqual([
      'oracle/1',
      'stale/2',
    ]);
    expect(await judge.list('')).toEqual(['trials/oracle/fin-payroll/1/record.json']);

    const ws = await mkdtemp(path.join(tmpdir(), 'assay-s3-ws-'));
    await mkdir(path.join(ws, 'outputs', 'deep'), { recursive: true });
    await writeFile(path.join(ws, 'outputs', 'report.md'), '# report\n');
    await writeFile(path.join(ws, 'outputs', 'deep', 'table.csv'), 'a,b\n1,2\n');
    const snap = await snapshotDirectory(store, ws);
    const dest = await mkdtemp(path.join(tmpdir(), 'assay-s3-restore-'));
    await restoreSnapshot(store, snap.files, dest, 'outputs/');
    expect(await readFile(path.join(dest, 'deep', 'table.csv'), 'utf8')).toBe('a,b\n1,2\n');
    expect(Buffer.from(await store.readBlob(snap.manifestSha256)).toString()).toBe(JSON.stringify(snap.files));
  });

  it('checks a store before a job uses it: each bad configuration is one sentence, a good one leaves nothing', async () => {
    const location = `s3://${BUCKET}/checked/r${++prefixes}`;
    const env = { ASSAY_S3_ENDPOINT: server.endpoint };
    const clientWith = (endpoint: string, secret: string) =>
      new S3Client({
        region: 'us-east-1',
        endpoint,
        forcePathStyle: true,
        maxAttempts: 1,
        credentials: { accessKeyId: server.accessKey, secretAccessKey: secret },
      });
    expect(await resultsStoreProblem(location, { client, env })).toBeNull();
    expect(await createS3ResultsStore(location, { client }).list('')).toEqual([]);
    const closed = `http://127.0.0.1:${await freePort()}`;
    const unreachable = clientWith(closed, server.secretKey);
    expect(await resultsStoreProblem(location, { client: unreachable, env: { ASSAY_S3_ENDPOINT: closed } })).toMatch(
      new RegExp(`^results location ${location}: ${closed} cannot be reached \\(ECONNREFUSED`),
    );
    const wrong = clientWith(server.endpoint, 'not-the-secret');
    expect(await resultsStoreProblem(location, { client: wrong, env })).toMatch(
      new RegExp(`^results location ${location}: ${server.endpoint} refused the credentials`),
    );
    expect(await resultsStoreProblem('s3://no-such-bucket/x', { client, env })).toBe(
      `results location s3://no-such-bucket/x: bucket "no-such-bucket" does not exist at ${server.endpoint} (create it first)`,
    );
    expect(await resultsStoreProblem('s3://Bad_Bucket/x', { client, env })).toMatch(/is not a bucket name/);
    for (const c of [unreachable, wrong]) c.destroy();
  });

  it('is opened from an s3:// location with the endpoint and credentials in the environment only', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      ASSAY_S3_ENDPOINT: server.endpoint,
      AWS_ACCESS_KEY_ID: server.accessKey,
      AWS_SECRET_ACCESS_KEY: server.secretKey,
    });
    try {
      const store = openResultsStore(`s3://${BUCKET}/from-env`);
      await store.putJson('job.json', { id: 'env' });
      expect(await store.getJson('job.json')).toEqual({ id: 'env' });
      process.env.AWS_SECRET_ACCESS_KEY = 'wrong';
      await expect(openResultsStore(`s3://${BUCKET}/from-env`).getJson('job.json')).rejects.toThrow();
    } finally {
      process.env = saved;
    }
  });

  it('feeds `assay report` straight from the bucket', async () => {
    const store = createS3ResultsStore(`s3://${BUCKET}/report`, { client });
    for (const system of ['oracle', 'stale'])
      for (const trial of [1, 2, 3]) await writeTrialRecord(store, makeTrialRecord(system, 'fin-payroll', trial));
    const out = await mkdtemp(path.join(tmpdir(), 'assay-s3-report-'));
    const env = {
      ...process.env,
      ASSAY_S3_ENDPOINT: server.endpoint,
      AWS_ACCESS_KEY_ID: server.accessKey,
      AWS_SECRET_ACCESS_KEY: server.secretKey,
    };
    const r = spawnSync(process.execPath, ['scripts/assay.mjs', 'report', `s3://${BUCKET}/report`, '--out', out], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 300_000,
    });
    expect(r.stderr + r.stdout).not.toMatch(/error/i);
    expect(r.status).toBe(0);
    expect(await readdir(out)).toContain('report.html');
    const html = await readFile(path.join(out, 'report.html'), 'utf8');
    expect(html).toContain('oracle');
    expect(html).toContain('stale');
  }, 300_000);

  it('says what is wrong with an s3:// location', () => {
    expect(parseS3Location('s3://bucket-1/a/b/')).toEqual({ bucket: 'bucket-1', prefix: 'a/b/' });
    expect(parseS3Location('s3://bucket-1')).toEqual({ bucket: 'bucket-1', prefix: '' });
    expect(() => parseS3Location('s3://Bad_Bucket/x')).toThrow(/is not a bucket name/);
    expect(() => parseS3Location('s3://bucket/../x')).toThrow(/plain path segments/);
    expect(openResultsStore('s3://bucket/p').location).toBe('s3://bucket/p/');
  });
});
