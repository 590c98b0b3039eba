import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkpointKey,
  judgeRootKey,
  openResultsStore,
  projectRecordKey,
  readProjectRecords,
  readTrialRecords,
  trialRecordKey,
  writeProjectRecord,
  writeTrialRecord,
  type RecordProblem,
} from '../src/index.js';
import { makeProjectRecord, makeTrialRecord } from './make-records.js';

const dirs: string[] = [];
async function tmp(): Promise<string> {
  const d = await mkdtemp(path.join(tmpdir(), 'assay-records-'));
  dirs.push(d);
  return d;
}
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/** Write a file the way today's activities do (plain fs, pretty JSON), not through the store. */
async function writeLegacy(root: string, rel: string, value: unknown): Promise<void> {
  const file = path.join(root, ...rel.split('/'));
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`);
}

/** A results folder in today's layout, including files beside the records that are not records. */
async function makeLegacyResults(): Promise<string> {
  const root = await tmp();
  await writeLegacy(root, 'job.json', { schema: 'assay.results/v1', spec: { id: 'legacy-job' } });
  await writeLegacy(root, 'trials/oracle/fin-payroll/1/record.json', makeTrialRecord('oracle', 'fin-payroll', 1));
  await writeLegacy(root, 'trials/oracle/fin-payroll/2/record.json', makeTrialRecord('oracle', 'fin-payroll', 2));
  await writeLegacy(root, 'trials/nop/fin-payroll/1/record.json', makeTrialRecord('nop', 'fin-payroll', 1));
  await writeLegacy(root, 'trials/oracle/fin-payroll/1/agent-result.json', { exitCode: 0 });
  await writeLegacy(root, 'trials/oracle/fin-payroll/1/transcript.log', 'ran\n');
  await writeLegacy(root, 'projects/oracle/launch/1/record.json', makeProjectRecord('oracle', 'launch', 1));
  await writeLegacy(root, 'projects/oracle/launch/1/subtasks/s1/checkpoint.json', { manifestSha256: 'b', files: [] });
  await writeLegacy(root, 'projects/oracle/launch/1/subtasks/s1/record.json', { not: 'a project record' });
  return root;
}

describe('reading a results folder in the current on-disk layout', () => {
  it('finds exactly the trial and project records, validated, in key order', async () => {
    const store = openResultsStore(await makeLegacyResults());
    const trials = await readTrialRecords(store);
    expect(trials.map((r) => `${r.system.id}/${r.task.id}/${r.trial}`)).toEqual([
      'nop/fin-payroll/1',
      'oracle/fin-payroll/1',
      'oracle/fin-payroll/2',
    ]);
    expect(trials[1]).toEqual(makeTrialRecord('oracle', 'fin-payroll', 1));
    const projects = await readProjectRecords(store);
    expect(projects).toEqual([makeProjectRecord('oracle', 'launch', 1)]);
    expect(await store.getJson(checkpointKey('oracle', 'launch', 1, 's1'))).toEqual({ manifestSha256: 'b', files: [] });
  });

  it('reads nothing, without error, where there are no results yet', async () => {
    const store = openResultsStore(path.join(await tmp(), 'not-created'));
    expect(await readTrialRecords(store)).toEqual([]);
    expect(await readProjectRecords(store)).toEqual([]);
  });

  it('throws on an invalid or unparsable record, or collects it as a problem when asked', async () => {
    const root = await makeLegacyResults();
    await writeLegacy(root, 'trials/oracle/fin-payroll/3/record.json', { schema: 'assay.trial-record/v1', jobId: 'x' });
    await writeLegacy(root, 'trials/oracle/fin-payroll/4/record.json', '{"truncated":');
    const store = openResultsStore(root);
    await expect(readTrialRecords(store)).rejects.toThrow(
      /2 invalid record\(s\) in .*\n {2}trials\/oracle\/fin-payroll\/3\/record\.json: benchmark: .*\n {2}trials\/oracle\/fin-payroll\/4\/record\.json: invalid JSON/,
    );
    const problems: RecordProblem[] = [];
    const records = await readTrialRecords(store, { problems });
    expect(records).toHaveLength(3);
    expect(problems.map((p) => p.key)).toEqual([
      'trials/oracle/fin-payroll/3/record.json',
      'trials/oracle/fin-payroll/4/record.json',
    ]);
    expect(problems[0]?.message).toMatch(/^benchmark: .*; system: /);
    expect(problems[1]?.message).toMatch(/^invalid JSON: /);
  });

  it('reads re-judged records through a scoped store', async () => {
    const root = await makeLegacyResults();
    const rejudged = { ...makeTrialRecord('oracle', 'fin-payroll', 1), jobId: 'rejudged' };
    await writeLegacy(root, 'judges/holistic/trials/oracle/fin-payroll/1/record.json', rejudged);
    const store = openResultsStore(root);
    expect(await readTrialRecords(store.scoped(judgeRootKey('holistic')))).toEqual([rejudged]);
    expect(await readTrialRecords(store)).toHaveLength(3);
  });
});

describe('writing records', () => {
  it('writes trial and project records at their documented paths, readable by the readers', async () => {
    const root = await tmp();
    const store = openResultsStore(root);
    const trial = makeTrialRecord('oracle', 'fin-payroll', 2);
    const project = makeProjectRecord('oracle', 'launch', 1);
    expect(await writeTrialRecord(store, trial)).toBe('trials/oracle/fin-payroll/2/record.json');
    expect(await writeProjectRecord(store, project)).toBe(projectRecordKey('oracle', 'launch', 1));
    await writeTrialRecord(store, trial);
    const onDisk = await readFile(path.join(root, 'trials', 'oracle', 'fin-payroll', '2', 'record.json'), 'utf8');
    expect(JSON.parse(onDisk)).toEqual(trial);
    expect(await readTrialRecords(store)).toEqual([trial]);
    expect(await readProjectRecords(store)).toEqual([project]);
  });

  it('refuses to write an invalid record', async () => {
    const store = openResultsStore(await tmp());
    const broken = { ...makeTrialRecord('oracle', 'fin-payroll', 1), status: 'fine' } as never;
    await expect(writeTrialRecord(store, broken)).rejects.toThrow(/status/);
    expect(await store.has(trialRecordKey('oracle', 'fin-payroll', 1))).toBe(false);
  });
});
