// The summary reads what the records hold: with every criterion decided, "final (decided)"
// equals the record's final score, dependencies and gates included (they were once rescored
// without dependencies: 33.3 shown for a record of 10.3).
import { describe, expect, it } from 'vitest';
import {
  PROJECT_RECORD_SCHEMA,
  projectRecordSchema,
  scoreCriteriaVerdicts,
  scoreProjectTrial,
  type CheckpointRecord,
  type Decision,
  type ProjectRecord,
  type UnscoredCriterionVerdict,
} from '@assay/core';
import { summarizeProjects } from '../src/summarize-projects.js';

const v = (id: string, weight: number, decision: Decision, fatal = false): UnscoredCriterionVerdict => ({
  criterionId: id,
  weight,
  fatal,
  dimension: 'correctness',
  target: 'artifact-quality',
  decision,
  source: 'check',
  reason: '',
  reusedFrom: null,
  reuseKey: '',
});

function checkpoint(
  id: string,
  verdicts: UnscoredCriterionVerdict[],
  deps: [string, string[]][] = [],
): CheckpointRecord {
  const e = scoreCriteriaVerdicts(verdicts, new Map(deps));
  return {
    subtaskId: id,
    stageId: 's1',
    agent: {
      status: 'completed',
      exitCode: 0,
      timedOut: false,
      reason: null,
      startedAt: '2026-12-01T00:00:00Z',
      endedAt: '2026-12-01T00:00:01Z',
      durationSeconds: 1,
      containerAttempts: 1,
    },
    usage: { inputTokens: 100, outputTokens: 10, cachedInputTokens: 40, costUsd: null, turns: null },
    snapshot: { manifestSha256: 'm', files: [] },
    verdicts: e.verdicts,
    score: e.score,
    gateTriggered: e.gateTriggered,
    unjudged: e.unjudged,
  };
}

function record(system: string, finalVerdicts: UnscoredCriterionVerdict[], deps: [string, string[]][]): ProjectRecord {
  const checkpoints = [
    checkpoint('t1', [v('a', 6, 'satisfied'), v('b', 4, 'not-satisfied')]),
    checkpoint('t2', [v('c', 5, 'satisfied'), v('d', 5, 'satisfied')], [['d', ['c']]]),
  ];
  const final = scoreCriteriaVerdicts(finalVerdicts, new Map(deps));
  const scores = scoreProjectTrial(checkpoints, finalVerdicts, new Map(deps));
  return projectRecordSchema.parse({
    schema: PROJECT_RECORD_SCHEMA,
    jobId: 'j',
    benchmark: { id: 'b', version: '1' },
    system: { id: system, harness: 'scripted', model: null },
    project: { id: 'p', subtasks: 2 },
    trial: 1,
    checkpoints,
    process: scores.process,
    final: { ...final, targets: scores.targets, dimensions: scores.dimensions, packageFiles: [] },
    resources: scores.resources,
    injectedFeedback: [],
    recordedAt: '2026-12-01T00:00:02Z',
  });
}

describe('summarizeProjects', () => {
  // f1 fails, so f2 and f3 (a chain through f2) earn nothing; a negative criterion fires.
  const finalVerdicts = [
    v('f1', 5, 'not-satisfied'),
    v('f2', 10, 'satisfied'),
    v('f3', 10, 'satisfied'),
    v('f4', 4, 'satisfied'),
    v('n1', -1, 'satisfied'),
  ];
  const deps: [string, string[]][] = [
    ['f2', ['f1']],
    ['f3', ['f2']],
  ];

  it('equals the records, dependencies and gates included', () => {
    const r = record('sys', finalVerdicts, deps);
    expect(r.final.score).toBeCloseTo((100 * 3) / 29, 10);
    const [row] = summarizeProjects([r]);
    expect(row).toMatchObject({
      system: 'sys',
      projects: 1,
      processScore: r.process.score,
      finalScore: r.final.score,
      unjudgedCheckpoints: 0,
      gatesTriggered: 0,
    });
    expect(row?.finalDecided).toBeCloseTo(r.final.score ?? NaN, 10);
    expect(row?.processDecided).toBeCloseTo(r.process.score ?? NaN, 10);
    expect(row?.subtaskPassRate).toBe(100 * (r.process.passRate ?? NaN));
  });

  it('a triggered gate makes the final score 0 in the record and the summary', () => {
    const r = record('gated', [...finalVerdicts, v('g', 0, 'satisfied', true)], deps);
    const [row] = summarizeProjects([r]);
    expect(r.final.score).toBe(0);
    expect(row).toMatchObject({ finalScore: 0, finalDecided: 0, gatesTriggered: 1 });
  });

  it('with criteria unjudged, the full scores are null and the decided ones leave them out', () => {
    const r = record('partial', [v('f1', 5, 'satisfied'), v('f2', 5, 'unjudged')], [['f2', ['f1']]]);
    const [row] = summarizeProjects([r]);
    expect(r.final.score).toBeNull();
    expect(row).toMatchObject({ finalScore: null, finalDecided: 100 });
  });
});
