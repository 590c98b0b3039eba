// A job with `results: s3://bucket/prefix` end to end: a real versitygw, a real Temporal dev server,
// real containers and the scripted judge. The same job run into a folder is the reference: records,
// verdicts, checkpoint manifests, scores, `status` and `report` must say the same of both; bad
// store configuration is refused before anything is submitted, in one sentence.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureVersitygw, freePort, startS3Server, type S3Server } from '@assay/infra';
import { loadScriptFile, startMockLlm, type MockLlmServer } from '@assay/mock-llm';
import { checkpointKey, openResultsStore, type ResultsStore } from '@assay/results';
import type { ProjectRecord, TrialRecord } from '@assay/core';
import { ROOT, collectOutput, ensureAgentImage, spawnCli, startTestServer, waitFor, writeJob } from './support/e2e.js';
import type { TestServer } from './support/e2e.js';
import { listRegularFiles, readProjects, readTrials } from './support/records.js';
import { parseCsv } from '../analysis/src/parse-csv.js';

const BUCKET = 'assay-e2e';
const KEY = 'sk-test-judge-3c9e1a7f5d';
let server: TestServer;
let llm: MockLlmServer;
let s3: S3Server;
let scratch: string;
let env: Record<string, string>;

beforeAll(async () => {
  await ensureAgentImage();
  scratch = mkdtempSync(path.join(os.tmpdir(), 'assay-s3-e2e-'));
  const binary = await ensureVersitygw({ root: ROOT, log: (l) => console.log(l) });
  // versitygw's posix backend: a bucket is a folder of its data root.
  mkdirSync(path.join(scratch, 's3', BUCKET), { recursive: true });
  s3 = await startS3Server({
    binary,
    dataDir: path.join(scratch, 's3'),
    accessKey: `e2e${randomBytes(6).toString('hex')}`,
    secretKey: randomBytes(24).toString('hex'),
    logFile: path.join(scratch, 'versitygw.log'),
  });
  env = {
    ASSAY_S3_ENDPOINT: s3.endpoint,
    AWS_ACCESS_KEY_ID: s3.accessKey,
    AWS_SECRET_ACCESS_KEY: s3.secretKey,
    AWS_REGION: 'us-east-1',
    ASSAY_WORK_ROOT: path.join(scratch, 'work-root'),
    ASSAY_TEST_JUDGE_KEY: KEY,
  };
  // This process reads the bucket through the same store the CLI uses.
  Object.assign(process.env, env);
  server = await startTestServer();
  llm = await startMockLlm({
    script: await loadScriptFile(path.join(ROOT, 'packages/mock-llm/examples/judge-approves-all.yaml')),
  });
}, 1_800_000);

afterAll(async () => {
  for (const k of Object.keys(env ?? {})) delete process.env[k];
  await llm?.close();
  await server?.stop();
  await s3?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function jobOf(id: string, results?: string): string {
  return writeJob({
    id,
    trials: 1,
    concurrency: 4,
    tasks: ['legal-nda-review', 'fin-term-loan-schedule'],
    projects: ['fdd-hengtai'],
    systems: [
      { id: 'oracle', harness: 'oracle' },
      { id: 'nop', harness: 'nop' },
    ],
    judge: {
      mode: 'per-item',
      provider: 'openai',
      model: 'judge-1',
      baseUrl: `${llm.url}/v1`,
      apiKeyEnv: 'ASSAY_TEST_JUDGE_KEY',
    },
    ...(results ? { results } : {}),
  });
}

async function cli(args: string[], extra: Record<string, string> = {}): Promise<{ code: number | null; text: string }> {
  const child = collectOutput(spawnCli(args, server.address, { ...env, ...extra }));
  const code = await child.exit;
  return { code, text: child.text() };
}

/**
 * What two runs of one job must share: everything but times, durations and the job's own id, and
 * the judge's input token counts (a project's judge prompt carries the local evaluation folder).
 */
function semantic(value: unknown, jobId: string, where = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => semantic(v, jobId, where));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (/(At|Seconds|seconds|Ms)$/.test(k) || k === 'jobId') continue;
      // A judge's input tokens, and what of them the scripted server's prompt cache served, depend on the prompts
      // the server saw before (both jobs share it), not on where the results went.
      if (/^(inputTokens|cachedInputTokens|cacheWriteInputTokens)$/.test(k) && where.includes('/judge/')) continue;
      out[k] = semantic(v, jobId, `${where}/${k}`);
    }
    return out;
  }
  return typeof value === 'string' ? value.replaceAll(jobId, '<job>') : value;
}

/** A report's CSV tables without the columns that measure time, tokens or cost (they differ run to run). */
function tablesOf(dir: string, jobId: string): Record<string, string[][]> {
  const files = readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.csv'));
  return Object.fromEntries(
    files.sort().map((f) => {
      const [header = [], ...rows] = parseCsv(readFileSync(path.join(dir, f), 'utf8').replaceAll(jobId, '<job>'));
      const keep = header.flatMap((h, i) => (/second|minute|hour|token|cost|usd/i.test(h) ? [] : [i]));
      return [f, [header, ...rows].map((row) => keep.map((i) => row[i] ?? ''))];
    }),
  );
}

const byUnit = <T extends TrialRecord | ProjectRecord>(rs: T[]): T[] =>
  [...rs].sort((a, b) => JSON.stringify([a.system.id, a.trial]).localeCompare(JSON.stringify([b.system.id, b.trial])));
const sortTrials = (rs: TrialRecord[]) =>
  [...rs].sort((a, b) => `${a.system.id}/${a.task.id}`.localeCompare(`${b.system.id}/${b.task.id}`));

const LOCATION = `s3://${BUCKET}/runs/one`;

describe('results in an S3 bucket', () => {
  let fsDir: string;
  let fsJob: string;
  let s3Job: string;
  let store: ResultsStore;

  beforeAll(async () => {
    fsJob = jobOf('s3e2e-fs');
    s3Job = jobOf('s3e2e-s3', LOCATION);
    fsDir = path.join(path.dirname(fsJob), 'results');
    store = openResultsStore(LOCATION);
    // One after the other: both CLIs' embedded workers would poll the same task queue.
    for (const job of [fsJob, s3Job]) {
      const run = await cli(['run', job, '--json']);
      expect(run.code, run.text).toBe(0);
    }
  }, 1_200_000);

  it('records, verdicts, checkpoint manifests and scores equal those of the same job run into a folder', async () => {
    const [fsTrials, s3Trials] = [await readTrials(fsDir), await readTrials(LOCATION)];
    expect(s3Trials).toHaveLength(4);
    expect(s3Trials.every((r) => r.verdicts.some((v) => v.source === 'judge'))).toBe(true);
    expect(semantic(sortTrials(s3Trials), 's3e2e-s3')).toEqual(semantic(sortTrials(fsTrials), 's3e2e-fs'));
    const [fsProjects, s3Projects] = [byUnit(await readProjects(fsDir)), byUnit(await readProjects(LOCATION))];
    expect(s3Projects).toHaveLength(2);
    expect(semantic(s3Projects, 's3e2e-s3')).toEqual(semantic(fsProjects, 's3e2e-fs'));
    const fsStore = openResultsStore(fsDir);
    for (const r of s3Projects)
      for (const c of r.checkpoints) {
        const key = checkpointKey(r.system.id, r.project.id, r.trial, c.subtaskId);
        expect(await store.getJson(key), key).toEqual(await fsStore.getJson(key));
      }
  });

  it('keeps transcripts, agent results, the verdict cache and job.json in the bucket, no key anywhere', async () => {
    const keys = (await store.list('')).filter((k) => !k.startsWith('pages/'));
    const fsKeys = (await listRegularFiles(fsDir)).filter((k) => !k.startsWith('work/') && !k.startsWith('pages/'));
    // The same layout in both (the folder also holds the harness's session state beside its records).
    expect(keys).toEqual(fsKeys.filter((k) => !k.endsWith('/session-state.json')));
    expect(keys.filter((k) => k.startsWith('judge-cache/')).length).toBeGreaterThan(0);
    expect(keys).toContain('trials/oracle/legal-nda-review/1/transcript.log');
    expect(keys).toContain('trials/oracle/legal-nda-review/1/agent-result.json');
    // The agent's run as an ATIF trajectory too (checked for its secrets with every other key below).
    expect(keys).toContain('trials/oracle/legal-nda-review/1/atif-trajectory.json');
    for (const key of keys.filter((k) => !k.startsWith('cas/'))) {
      const text = (await store.getText(key)) ?? '';
      expect(text, key).not.toContain(s3.secretKey);
      expect(text, key).not.toContain(KEY);
    }
    // The worker's local scratch holds work volumes and session state, never a result.
    const local = readdirSync(env.ASSAY_WORK_ROOT ?? '', { recursive: true }).map(String);
    expect(local.filter((f) => /(record|agent-result|checkpoint)\.json$|transcript\.log$/.test(f))).toEqual([]);
  });

  it('gives the same status and report tables from the bucket as from the folder', async () => {
    const status = async (job: string) => {
      const out = await cli(['status', job, '--json']);
      expect(out.code, out.text).toBe(0);
      const parsed = JSON.parse(out.text.slice(out.text.indexOf('{\n'))) as Record<string, unknown>;
      return { summary: parsed.summary, projects: parsed.projects };
    };
    expect(await status(s3Job)).toEqual(await status(fsJob));
    const tables = async (job: string, jobId: string) => {
      const out = path.join(scratch, `report-${jobId}`);
      const run = await cli(['report', job, '--out', out]);
      expect(run.code, run.text).toBe(0);
      return tablesOf(out, jobId);
    };
    const [fromS3, fromFs] = [await tables(s3Job, 's3e2e-s3'), await tables(fsJob, 's3e2e-fs')];
    expect(Object.keys(fromS3).length).toBeGreaterThan(0);
    expect(Object.keys(fromS3)).toEqual(Object.keys(fromFs));
    for (const [file, table] of Object.entries(fromFs)) expect(fromS3[file], file).toEqual(table);
  }, 300_000);

  it('serves the bucket in the viewer as it serves the folder', async () => {
    const overview = async (job: string): Promise<string> => {
      const proc = spawnCli(['view', job, '--json'], server.address, env);
      const child = collectOutput(proc);
      try {
        const line = await waitFor(() => /\{"url":"[^"]+"/.exec(child.text())?.[0], 'the viewer to listen', 60_000);
        const url = (JSON.parse(`${line}}`) as { url: string }).url;
        return JSON.stringify(await (await fetch(new URL('api/overview', url))).json());
      } finally {
        proc.kill('SIGTERM');
        await child.exit;
      }
    };
    const [fromS3, fromFs] = [await overview(s3Job), await overview(fsJob)];
    for (const id of ['legal-nda-review', 'fin-term-loan-schedule', 'fdd-hengtai']) expect(fromS3, id).toContain(id);
    expect(fromS3.match(/"oracle"/g)?.length).toBe(fromFs.match(/"oracle"/g)?.length);
  }, 300_000);

  it('re-judges from the bucket into judges/<name>/ in the bucket, as from the folder', async () => {
    const setup = path.join(scratch, 'batched.yaml');
    writeFileSync(
      setup,
      `mode: batched\nprovider: openai\nmodel: judge-1\nbaseUrl: ${llm.url}/v1\napiKeyEnv: ASSAY_TEST_JUDGE_KEY\n`,
    );
    for (const job of [fsJob, s3Job]) {
      const out = await cli(['judge', job, '--judge', setup, '--name', 'again']);
      expect(out.code, out.text).toBe(0);
      expect(out.text).not.toContain(KEY);
    }
    expect((await store.list('judges/again')).filter((k) => k.endsWith('/record.json'))).toHaveLength(6);
    const [fsAgain, s3Again] = [path.join(fsDir, 'judges/again'), `${LOCATION}/judges/again`];
    expect(semantic(sortTrials(await readTrials(s3Again)), 's3e2e-s3')).toEqual(
      semantic(sortTrials(await readTrials(fsAgain)), 's3e2e-fs'),
    );
    expect(semantic(byUnit(await readProjects(s3Again)), 's3e2e-s3')).toEqual(
      semantic(byUnit(await readProjects(fsAgain)), 's3e2e-fs'),
    );
  }, 300_000);

  it('refuses an unreachable endpoint, wrong credentials and a missing bucket in one sentence, writing nothing', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ ASSAY_S3_ENDPOINT: closed }, LOCATION, new RegExp(`${LOCATION}/bad: ${closed} cannot be reached`)],
      [{ AWS_SECRET_ACCESS_KEY: 'wrong-secret' }, LOCATION, /refused the credentials/],
      [{}, 's3://no-such-bucket/runs', /bucket "no-such-bucket" does not exist/],
    ];
    for (const [extra, location, sentence] of cases) {
      const job = jobOf('s3e2e-bad', `${location}/bad`);
      for (const command of ['validate', 'run']) {
        const out = await cli([command, job], extra);
        expect(out.code, out.text).not.toBe(0);
        expect(out.text, out.text).toMatch(sentence);
        expect(out.text).not.toContain(s3.secretKey);
      }
    }
    // Nothing was written (no probe left, no job.json) and no workflow was started.
    expect(await openResultsStore(`${LOCATION}/bad`).list('')).toEqual([]);
    const status = await cli(['status', jobOf('s3e2e-bad', `${LOCATION}/bad`), '--json']);
    expect(status.text).toMatch(/not found|no job/i);
  }, 300_000);
});
