// Valid records built through core's schemas, for tests of the readers and writers.
import {
  PROJECT_RECORD_SCHEMA,
  TRIAL_RECORD_SCHEMA,
  projectRecordSchema,
  trialRecordSchema,
  type ProjectRecord,
  type TrialRecord,
} from '@assay/core';

const agent = {
  exitCode: 0,
  timedOut: false,
  reason: null,
  startedAt: '2025-01-01T00:00:00.000Z',
  endedAt: '2025-01-01T00:01:00.000Z',
  durationSeconds: 60,
  containerAttempts: 1,
};

export function makeTrialRecord(system: string, task: string, trial: number): TrialRecord {
  return trialRecordSchema.parse({
    schema: TRIAL_RECORD_SCHEMA,
    jobId: 'legacy-job',
    benchmark: { id: 'sample', version: '1' },
    system: { id: system, harness: 'oracle', model: null },
    task: { id: task, domain: 'finance', formatRequired: true },
    trial,
    status: 'completed',
    agent,
    usage: null,
    deliverables: [{ path: 'report.md', sha256: 'a'.repeat(64), size: 12, detectedFormat: null }],
    formatCompliance: { required: true, compliant: true, missing: [], wrongType: [] },
    verdicts: [
      {
        itemId: 'i1',
        importance: 'core',
        dimension: 'calculation-precision',
        weight: 1,
        decision: 'satisfied',
        source: 'check',
        reason: 'found',
      },
    ],
    score: { value: 100, decided: 100, coverage: 1, success: true },
    recordedAt: '2025-01-01T00:02:00.000Z',
  });
}

export function makeProjectRecord(system: string, project: string, trial: number): ProjectRecord {
  return projectRecordSchema.parse({
    schema: PROJECT_RECORD_SCHEMA,
    jobId: 'legacy-job',
    benchmark: { id: 'sample', version: '1' },
    system: { id: system, harness: 'oracle', model: null },
    project: { id: project, subtasks: 1 },
    trial,
    checkpoints: [
      {
        subtaskId: 's1',
        stageId: 'stage-1',
        agent: { status: 'completed', ...agent },
        usage: null,
        snapshot: { manifestSha256: 'b'.repeat(64), files: [] },
        verdicts: [],
        score: null,
        gateTriggered: false,
        unjudged: [],
      },
    ],
    process: { score: null, passRate: null },
    final: {
      verdicts: [],
      score: null,
      raw: null,
      gateTriggered: false,
      gates: [],
      unjudged: [],
      targets: [],
      dimensions: [],
      packageFiles: [],
    },
    resources: { agentSeconds: 60, inputTokens: null, outputTokens: null, totalTokens: null },
    injectedFeedback: [],
    recordedAt: '2025-01-01T00:02:00.000Z',
  });
}
