// Records of two versions of one task get rows of their own; one version (or none recorded) changes nothing.
import { describe, expect, it } from 'vitest';
import {
  TRIAL_RECORD_SCHEMA,
  acceptUnits,
  describeVersionSplit,
  splitByVersion,
  trialRecordSchema,
  type TrialRecord,
  type UnitVersion,
} from '../src/index.js';

const V1 = 'a'.repeat(64);
const V2 = 'b'.repeat(64);

function record(system: string, task: string, trial: number, digest: string | null, recordedAt: string): TrialRecord {
  return trialRecordSchema.parse({
    schema: TRIAL_RECORD_SCHEMA,
    jobId: 'j',
    benchmark: { id: 'b', version: '1' },
    system: { id: system, harness: 'oracle', model: null },
    task: { id: task, domain: 'legal', formatRequired: true },
    trial,
    status: 'completed',
    agent: {
      exitCode: 0,
      timedOut: false,
      reason: null,
      startedAt: '',
      endedAt: '',
      durationSeconds: 1,
      containerAttempts: 1,
    },
    usage: null,
    deliverables: [],
    formatCompliance: { required: true, compliant: true, missing: [], wrongType: [] },
    verdicts: [],
    score: { value: 100, decided: 100, coverage: 1, success: true },
    ...(digest ? { provenance: { unit: { digest, parts: {} } } } : {}),
    recordedAt,
  });
}

const version = (digest: string): UnitVersion => ({ digest, parts: {}, items: {} });

describe('splitByVersion', () => {
  it('leaves records of one version (or of none recorded) as they are', () => {
    const same = [record('o', 't', 1, V1, '1'), record('o', 't', 2, V1, '2'), record('o', 'u', 1, null, '1')];
    expect(splitByVersion(same, null)).toEqual({ records: same, splits: [] });
  });

  it("gives the records not of the lock's version a system id of their own, per unit", () => {
    const rs = [
      record('o', 't', 1, V1, '1'),
      record('o', 't', 2, V2, '2'),
      record('n', 't', 1, null, '0'),
      record('o', 'u', 1, V1, '1'),
    ];
    const lock = acceptUnits(null, { jobId: 'j', specDigest: '', units: { 'tasks/t': version(V1) } }, 'now');
    const { records, splits } = splitByVersion(rs, lock);
    expect(records.map((r) => `${r.system.id} ${r.task.id} ${r.trial}`)).toEqual([
      'o t 1',
      'o@bbbbbbbb t 2',
      'n@unknown-version t 1',
      'o u 1',
    ]);
    expect(splits.map(describeVersionSplit)).toEqual([
      'tasks/t has records of 3 versions: 1 of bbbbbbbb shown as <system>@bbbbbbbb, ' +
        '1 of unknown-version shown as <system>@unknown-version (current: aaaaaaaa)',
    ]);
    // Without a lock the latest record's version is the current one.
    expect(splitByVersion(rs.slice(0, 2), null).records.map((r) => r.system.id)).toEqual(['o@aaaaaaaa', 'o']);
  });
});
