import { describe, expect, it } from 'vitest';
import {
  RESULTS_LAYOUT_VERSION,
  casKey,
  checkpointKey,
  isProjectRecordKey,
  isTrialRecordKey,
  jobKey,
  judgeRootKey,
  projectDirKey,
  projectRecordKey,
  trialDirKey,
  trialRecordKey,
} from '../src/index.js';

describe('results layout keys', () => {
  it('spell the documented layout', () => {
    expect(RESULTS_LAYOUT_VERSION).toBe('assay.results/v1');
    expect(jobKey()).toBe('job.json');
    expect(trialDirKey('oracle', 'fin-payroll', 3)).toBe('trials/oracle/fin-payroll/3');
    expect(trialRecordKey('oracle', 'fin-payroll', 3)).toBe('trials/oracle/fin-payroll/3/record.json');
    expect(projectDirKey('oracle', 'launch', 1)).toBe('projects/oracle/launch/1');
    expect(projectRecordKey('oracle', 'launch', 1)).toBe('projects/oracle/launch/1/record.json');
    expect(checkpointKey('oracle', 'launch', 1, 's2')).toBe('projects/oracle/launch/1/subtasks/s2/checkpoint.json');
    expect(casKey('ab'.repeat(32))).toBe(`cas/sha256/ab/${'ab'.repeat(32)}`);
    expect(judgeRootKey('batched')).toBe('judges/batched');
  });

  it('refuse ids that would change the shape of a key', () => {
    expect(() => trialRecordKey('a/b', 't', 1)).toThrow(/system id "a\/b" cannot be used/);
    expect(() => projectDirKey('s', '..', 1)).toThrow(/project id/);
    expect(() => checkpointKey('s', 'p', 1, '')).toThrow(/subtask id/);
    expect(() => trialDirKey('s', 't', 0)).toThrow(/positive integer/);
    expect(() => casKey('ABC')).toThrow(/is not a sha256/);
    expect(() => judgeRootKey('x\\y')).toThrow(/judge name/);
  });

  it('recognize record keys exactly', () => {
    expect(isTrialRecordKey('trials/s/t/1/record.json')).toBe(true);
    expect(isTrialRecordKey('trials/s/t/1/agent-result.json')).toBe(false);
    expect(isProjectRecordKey('projects/s/p/1/record.json')).toBe(true);
    expect(isProjectRecordKey('projects/s/p/1/subtasks/x/record.json')).toBe(false);
    expect(isProjectRecordKey('trials/s/t/1/record.json')).toBe(false);
  });
});
