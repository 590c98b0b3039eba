// Analyses on hand-built records with exact expected values, and loading real files.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TrialRecord } from '@assay/core';
import { analysisToJson, analyzeResults } from '../src/analyze-results.js';
import { checkpointTrajectories } from '../src/checkpoint-trajectories.js';
import { compareRuns } from '../src/compare-runs.js';
import { deliveryProfiles } from '../src/delivery-profiles.js';
import { belowLineByProject, deliverySummary } from '../src/delivery-summary.js';
import { dimensionProfile } from '../src/dimension-profile.js';
import { domainProfile } from '../src/domain-profile.js';
import { formatCompliance } from '../src/format-compliance.js';
import { harnessSwap } from '../src/harness-swap.js';
import { importanceProfile } from '../src/importance-profile.js';
import { judgeSetupAgreement } from '../src/judge-agreement.js';
import { loadHumanLabels } from '../src/load-human-labels.js';
import { labelAgreement } from '../src/label-agreement.js';
import { loadJobResults, loadJobs, type JobResults } from '../src/load-results.js';
import { oracleBestOfK } from '../src/oracle-best-of-k.js';
import { pairedComparison, pairwiseComparisons } from '../src/paired-comparison.js';
import { fromJobResults, fromProjectRecords, fromTrialRecords } from '../src/results-tables.js';
import { systemLeaderboard } from '../src/system-leaderboard.js';
import { buildReportDocument } from '../src/report/build-report-document.js';
import { rowsOf } from '../src/table-helpers.js';
import { makeTrial, scored } from './fixtures/make-records.js';
import {
  checkpoint,
  projectRecord,
  syntheticProjectRecords,
  syntheticTrialRecords,
  writeSyntheticResults,
} from './fixtures/synthetic-results.js';

type R = Record<string, unknown>;
const find = (rows: R[], pred: (r: R) => boolean): R => {
  const r = rows.find(pred);
  if (!r) throw new Error('row not found');
  return r;
};

const unjudged = [{ decision: 'unjudged' as const }, ...scored(5, 9)];

describe('single-task analyses', () => {
  const records: TrialRecord[] = [
    makeTrial({ system: 'a', task: 't1', trial: 1, items: scored(10) }),
    makeTrial({ system: 'a', task: 't1', trial: 2, items: scored(8) }),
    makeTrial({ system: 'a', task: 't1', trial: 3, items: unjudged }),
    makeTrial({ system: 'a', task: 't2', trial: 1, items: scored(6) }),
    makeTrial({ system: 'a', task: 't2', trial: 2, items: scored(9) }),
    makeTrial({ system: 'b', task: 't1', trial: 1, items: scored(5) }),
    makeTrial({ system: 'b', task: 't2', trial: 1, items: scored(7) }),
  ];
  const { trials } = fromTrialRecords(records);

  it('leaderboard: pooled mean and success of scored trials, unjudged counted not zeroed', () => {
    const rows = rowsOf<R>(systemLeaderboard(trials, { resamples: 2000 }));
    expect(rows.map((r) => r.system)).toEqual(['a', 'b']);
    const a = find(rows, (r) => r.system === 'a');
    expect(a.mean).toBeCloseTo(82.5, 10);
    expect(a.success_rate).toBeCloseTo(50, 10);
    expect([a.trials, a.scored, a.unjudged, a.tasks]).toEqual([5, 4, 1, 2]);
    expect(a.ci_low as number).toBeLessThanOrEqual(82.5);
    expect(a.ci_high as number).toBeGreaterThanOrEqual(82.5);
  });

  it("leaderboard CIs are seeded per system: adding a system leaves the others' intervals unchanged", () => {
    const base = rowsOf<R>(systemLeaderboard(trials, { resamples: 2000, seed: 9 }));
    const more = fromTrialRecords([...records, makeTrial({ system: 'c', task: 't1', items: scored(3) })]).trials;
    const extended = rowsOf<R>(systemLeaderboard(more, { resamples: 2000, seed: 9 }));
    expect(find(extended, (r) => r.system === 'a')).toEqual(find(base, (r) => r.system === 'a'));
  });

  it('domain profile: Overall weights domains by task count, not by trials', () => {
    const t = fromTrialRecords([
      makeTrial({ system: 'a', task: 't1', domain: 'finance', trial: 1, items: scored(10) }),
      makeTrial({ system: 'a', task: 't1', domain: 'finance', trial: 2, items: scored(8) }),
      makeTrial({ system: 'a', task: 't2', domain: 'finance', items: scored(6) }),
      ...[1, 2, 3].map((trial) => makeTrial({ system: 'a', task: 't3', domain: 'legal', trial, items: scored(9) })),
    ]).trials;
    const rows = rowsOf<R>(domainProfile(t));
    expect(find(rows, (r) => r.domain === 'Finance').mean).toBeCloseTo(80, 10);
    expect(find(rows, (r) => r.domain === 'Legal').mean).toBeCloseTo(90, 10);
    // (2 x 80 + 1 x 90) / 3, whereas pooling the six trials would give 85.
    expect(find(rows, (r) => r.domain === 'Overall').mean).toBeCloseTo(250 / 3, 10);
  });

  it('importance levels: rate per task-trial first, then averaged; undecided levels left out', () => {
    const v = fromTrialRecords([
      makeTrial({
        system: 'a',
        task: 't',
        trial: 1,
        items: [
          { decision: 'satisfied' },
          { decision: 'not-satisfied' },
          { importance: 'important', decision: 'satisfied' },
          { importance: 'auxiliary', decision: 'satisfied' },
        ],
      }),
      makeTrial({
        system: 'a',
        task: 't',
        trial: 2,
        items: [
          { decision: 'satisfied' },
          { decision: 'satisfied' },
          { importance: 'important', decision: 'not-satisfied' },
          { importance: 'auxiliary', decision: 'unjudged' },
        ],
      }),
    ]).verdicts;
    const rows = rowsOf<R>(importanceProfile(v));
    expect(find(rows, (r) => r.level === 'Core').satisfaction).toBeCloseTo(75, 10);
    expect(find(rows, (r) => r.level === 'Important').satisfaction).toBeCloseTo(50, 10);
    expect(find(rows, (r) => r.level === 'Auxiliary')).toMatchObject({ satisfaction: 100, units: 1 });
  });

  it('dimension profile is importance-weighted', () => {
    const v = fromTrialRecords([
      makeTrial({
        system: 'a',
        task: 't',
        items: [
          { decision: 'satisfied' },
          { importance: 'important', decision: 'not-satisfied' },
          { importance: 'auxiliary', decision: 'satisfied' },
        ],
      }),
    ]).verdicts;
    expect(rowsOf<R>(dimensionProfile(v))[0]).toMatchObject({ dimension: 'Structure & Completeness', items: 3 });
    expect(rowsOf<R>(dimensionProfile(v))[0]!.pass_rate).toBeCloseTo((100 * 6) / 9, 10);
  });

  it('oracle best-of-k keeps the best trial per task', () => {
    const t = fromTrialRecords([
      makeTrial({ system: 'a', task: 't1', trial: 1, items: scored(10) }),
      makeTrial({ system: 'a', task: 't1', trial: 2, items: scored(8) }),
      makeTrial({ system: 'a', task: 't2', trial: 1, items: scored(6) }),
      makeTrial({ system: 'a', task: 't2', trial: 2, items: scored(7) }),
    ]).trials;
    const r = rowsOf<R>(oracleBestOfK(t, { resamples: 500 }))[0]!;
    expect(r).toMatchObject({
      k: 2,
      tasks: 2,
      all_runs_mean: 77.5,
      oracle_mean: 85,
      oracle_gap: 7.5,
      all_runs_success: 25,
      oracle_success: 50,
    });
  });

  it('harness swap compares a model on the tasks every harness ran, with max–min and Kendall tau', () => {
    const t = fromTrialRecords([
      makeTrial({ system: 'm-h1', model: 'M', harness: 'h1', task: 't1', items: scored(8) }),
      makeTrial({ system: 'm-h1', model: 'M', harness: 'h1', task: 't2', items: scored(6) }),
      makeTrial({ system: 'm-h2', model: 'M', harness: 'h2', task: 't1', items: scored(7) }),
      makeTrial({ system: 'n-h1', model: 'N', harness: 'h1', task: 't1', items: scored(5) }),
      makeTrial({ system: 'n-h2', model: 'N', harness: 'h2', task: 't1', items: scored(4) }),
    ]).trials;
    const s = harnessSwap(t);
    const wide = rowsOf<R>(s.wide);
    expect(find(wide, (r) => r.model === 'M')).toMatchObject({ h1: 80, h2: 70, max_min: 10 });
    expect(find(wide, (r) => r.model === 'Average')).toMatchObject({ h1: 65, h2: 55, max_min: 10 });
    expect(s.taus).toEqual([{ a: 'h1', b: 'h2', tau: 1, models: 2 }]);
    expect(s.rankingPreserved).toBe(true);
    // Each model's two harnesses compared pair by pair, as `assay compare` compares two runs (common tasks only).
    expect(rowsOf<R>(s.paired).map((r) => [r.model, r.a, r.b, r.tasks, r.mean_a, r.mean_b, r.difference])).toEqual([
      ['M', 'h1', 'h2', 1, 80, 70, 10],
      ['N', 'h1', 'h2', 1, 50, 40, 10],
    ]);
  });

  it('format compliance excludes infrastructure failures and counts them', () => {
    const t = fromTrialRecords([
      makeTrial({ system: 'a', task: 't1', trial: 1, items: scored(5), formatRequired: true, compliant: true }),
      makeTrial({ system: 'a', task: 't1', trial: 2, items: scored(5), formatRequired: true, compliant: false }),
      makeTrial({
        system: 'a',
        task: 't1',
        trial: 3,
        items: unjudged,
        formatRequired: true,
        compliant: false,
        status: 'infra-failed',
      }),
      makeTrial({ system: 'a', task: 't2', trial: 1, items: scored(5), formatRequired: false }),
    ]).trials;
    expect(rowsOf<R>(formatCompliance(t))[0]).toMatchObject({
      runs: 2,
      compliant: 1,
      excluded_infra: 1,
      compliance: 50,
    });
  });

  it('paired comparison finds a real difference and no difference between equals', () => {
    const recs: TrialRecord[] = [];
    for (let i = 0; i < 20; i++) {
      for (const trial of [1, 2, 3]) {
        recs.push(makeTrial({ system: 'strong', task: `t${i}`, trial, items: scored(9 + ((i + trial) % 2)) }));
        recs.push(makeTrial({ system: 'weak', task: `t${i}`, trial, items: scored(5 + ((i * trial) % 3)) }));
        recs.push(makeTrial({ system: 'twin', task: `t${i}`, trial, items: scored(9 + ((i + trial) % 2)) }));
      }
    }
    const t = fromTrialRecords(recs).trials;
    const a = pairedComparison(t, 'strong', 'weak', { resamples: 2000 });
    expect(a.verdict).toBe('strong > weak');
    expect(a.ci!.low).toBeGreaterThan(0);
    expect(a.successAOnly).toBeGreaterThan(20);
    expect(a.mcnemarP).toBeLessThan(1e-6);
    const b = pairedComparison(t, 'strong', 'twin', { resamples: 2000 });
    expect(b.difference).toBe(0);
    expect(b.verdict).toBe('no clear difference');
    expect(() => pairedComparison(t, 'strong', 'nobody')).toThrow(/Unknown system "nobody"/);
  });
});

describe('project analyses', () => {
  const sys = { id: 's', harness: 'claude-code', model: 'm' };
  // p1: final = (5 - 2 + 0) / 9 = 33.3; p2: final = (-3 + 6) / 6 = 50, one checkpoint unjudged.
  const tables = fromProjectRecords([
    projectRecord({
      system: sys,
      project: 'p1',
      checkpoints: [checkpoint('s0', 80), checkpoint('s1', 90), checkpoint('s2', 100)],
      criteria: [
        { id: 'c0', weight: 5, fatal: false, target: 'artifact-quality', dimension: 'correctness', h: 1 },
        { id: 'c1', weight: -2, fatal: false, target: 'artifact-quality', dimension: 'correctness', h: 1 },
        { id: 'c2', weight: 4, fatal: false, target: 'package-acceptance', dimension: 'usability', h: 0 },
      ],
    }),
    projectRecord({
      system: sys,
      project: 'p2',
      checkpoints: [checkpoint('s0', 60), checkpoint('s1', null)],
      criteria: [
        { id: 'c0', weight: -3, fatal: false, target: 'artifact-quality', dimension: 'correctness', h: 1 },
        { id: 'c1', weight: 6, fatal: false, target: 'package-acceptance', dimension: 'usability', h: 1 },
      ],
    }),
  ]);

  it('delivery summary: equal project weights, process null while a checkpoint is unjudged, pass rate over judged checkpoints', () => {
    const r = rowsOf<R>(deliverySummary(tables.projects, { resamples: 500 }))[0]!;
    expect(r.final_mean).toBeCloseTo((100 / 3 + 50) / 2, 10);
    expect(r.gap).toBeCloseTo(90 - 100 / 3, 10);
    expect(r).toMatchObject({
      process_mean: 90,
      checkpoints: 5,
      checkpoints_judged: 4,
      checkpoints_passed: 2,
      pass_rate: 50,
      below_line: 1,
      outcomes: 1,
    });
  });

  it("profiles: the records' group scores averaged over projects, unavailable where no positive weight", () => {
    const dims = rowsOf<R>(deliveryProfiles(tables.groups, 'dimension'));
    expect(find(dims, (r) => r.group === 'correctness')).toMatchObject({
      score: 60,
      status: 'ok',
      projects: 1,
      unavailable_projects: 1,
    });
    expect(find(dims, (r) => r.group === 'usability')).toMatchObject({ score: 50, projects: 2 });
    expect(find(dims, (r) => r.group === 'professionalism')).toMatchObject({
      score: null,
      status: 'unavailable',
      unavailable_projects: 2,
    });
    const targets = rowsOf<R>(deliveryProfiles(tables.groups, 'target'));
    expect(find(targets, (r) => r.group === 'cross-file-consistency').status).toBe('unavailable');
    expect(find(targets, (r) => r.group === 'artifact-quality')).toMatchObject({
      score: 60,
      projects: 1,
      unavailable_projects: 1,
    });
  });

  it('per project: outcomes below the equal-score line', () => {
    const outcomes = [
      { system: 'a', project: 'p1', final: 50, process: 70 },
      { system: 'b', project: 'p1', final: 80, process: 75 },
      { system: 'a', project: 'p2', final: null, process: 60 },
    ];
    expect(rowsOf<R>(belowLineByProject(outcomes))).toEqual([
      { project: 'p1', outcomes: 2, below_line: 1, mean_final: 65, mean_process: 72.5, mean_gap: 7.5 },
      { project: 'p2', outcomes: 0, below_line: 0, mean_final: null, mean_process: null, mean_gap: null },
    ]);
  });

  it('trajectories end with the final delivery', () => {
    const rows = rowsOf<R>(checkpointTrajectories(tables.checkpoints, tables.projects)).filter(
      (r) => r.project === 'p1',
    );
    expect(rows.map((r) => [r.step, r.kind])).toEqual([
      [1, 'checkpoint'],
      [2, 'checkpoint'],
      [3, 'checkpoint'],
      [4, 'final'],
    ]);
    expect(rows.map((r) => r.score)).toEqual([80, 90, 100, expect.closeTo(100 / 3, 10)]);
  });
});

describe('loading results from disk', () => {
  const dirs: string[] = [];
  const tmp = async (): Promise<string> => {
    const d = await mkdtemp(path.join(tmpdir(), 'assay-analysis-'));
    dirs.push(d);
    return d;
  };
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });
  const systems = [
    { id: 'alpha', harness: 'nanobot', model: 'A', skill: 0.1 },
    { id: 'beta', harness: 'nanobot', model: 'B', skill: -0.1 },
  ];

  it('reads the documented layout and validates every record', async () => {
    const dir = await tmp();
    await writeSyntheticResults(dir, { systems, tasks: 4, trials: 2, projects: 2 });
    const job = await loadJobResults(dir);
    expect(job.jobId).toBe('synthetic-job');
    expect(job.trials).toHaveLength(16);
    expect(job.projects).toHaveLength(4);
    const bad = path.join(dir, 'trials', 'alpha', 'task-000', '1', 'record.json');
    await writeFile(bad, JSON.stringify({ schema: 'assay.trial-record/v1', jobId: 'x' }));
    await expect(loadJobResults(dir)).rejects.toThrow(/1 invalid result record\(s\)[\s\S]*task-000\/1\/record\.json/);
    const lenient = await loadJobResults(dir, { strict: false });
    expect(lenient.problems).toHaveLength(1);
    expect(lenient.trials).toHaveLength(15);
  });

  it('keeps systems of different jobs apart when their ids collide', async () => {
    const a = await tmp();
    const b = await tmp();
    await writeSyntheticResults(a, { jobId: 'judge-a', systems, tasks: 2, trials: 1 }, { trials: true });
    await writeSyntheticResults(b, { jobId: 'judge-b', systems, tasks: 2, trials: 1 }, { trials: true });
    const jobs = await loadJobs([a, b]);
    const t = fromJobResults(jobs);
    expect([...new Set(rowsOf<R>(t.trials).map((r) => r.system))].sort()).toEqual([
      'judge-a/alpha',
      'judge-a/beta',
      'judge-b/alpha',
      'judge-b/beta',
    ]);
    // The same trials judged twice: the report's judge-setup section compares them.
    const analysis = analyzeResults(t, {
      resamples: 200,
      jobs,
    });
    expect(rowsOf<R>(analysis.judgeSetups!)[0]).toMatchObject({
      a: 'judge-a',
      b: 'judge-b',
      n: 2 * 2 * 8,
      agreement: 100,
    });
    const json = JSON.parse(JSON.stringify(analysisToJson(analysis))) as {
      tasks: { leaderboard: R[] };
      judgeSetups: R[];
    };
    expect(json.tasks.leaderboard.map((r) => r.system).sort()).toEqual([
      'judge-a/alpha',
      'judge-a/beta',
      'judge-b/alpha',
      'judge-b/beta',
    ]);
    expect(json.judgeSetups[0]).toMatchObject({ agreement: 100 });
    const doc = buildReportDocument(analysis, t, { title: 'two setups' });
    expect(doc.blocks.some((blk) => blk.kind === 'table' && blk.table.id === 'judge-setups')).toBe(true);
    await expect(loadJobResults(path.join(a, 'nope'))).rejects.toThrow(/is not a job results folder/);
    // `assay judge` output: job.json names the job under spec.id and says where it was re-judged from.
    const rejudged = path.join(await tmp(), 'holistic');
    await writeSyntheticResults(rejudged, { jobId: 'judge-a', systems, tasks: 1, trials: 1 }, { trials: true });
    await writeFile(
      path.join(rejudged, 'job.json'),
      JSON.stringify({ layout: 'assay.results/v1', rejudgedFrom: a, spec: { id: 'judge-a' } }),
    );
    expect((await loadJobResults(rejudged)).jobId).toBe('judge-a+judge:holistic');
    expect((await loadJobs([a, a])).map((j) => j.jobId)).toEqual(['judge-a', 'judge-a#2']);
  });

  it('judge-setup ablation: two jobs over the same trials compared item by item, as assay compare does', () => {
    const items = (ds: ('satisfied' | 'not-satisfied' | 'unjudged')[]) => ds.map((decision) => ({ decision }));
    const job = (jobId: string, trials: TrialRecord[]): JobResults => ({
      dir: jobId,
      jobId,
      job: null,
      trials,
      projects: [],
      problems: [],
      versions: [],
    });
    const perItem = job('per-item', [
      makeTrial({
        system: 'a',
        task: 't1',
        items: items(['satisfied', 'satisfied', 'not-satisfied', 'not-satisfied']),
      }),
      makeTrial({ system: 'b', task: 't1', items: items(['satisfied', 'unjudged']) }),
    ]);
    const holistic = job('holistic', [
      makeTrial({
        system: 'a',
        task: 't1',
        items: items(['satisfied', 'not-satisfied', 'not-satisfied', 'not-satisfied']),
      }),
      makeTrial({ system: 'b', task: 't1', items: items(['satisfied', 'satisfied']) }),
    ]);
    const r = rowsOf<R>(judgeSetupAgreement([perItem, holistic]));
    expect(r.map((x) => [x.system, x.n, x.agree, x.decided_a_only, x.decided_b_only])).toEqual([
      ['all', 5, 4, 0, 1],
      ['a', 4, 3, 0, 0],
      ['b', 1, 1, 0, 1],
    ]);
    expect(r[1]).toMatchObject({ a: 'per-item', b: 'holistic', agreement: 75 });
    expect(r[1]!.kappa).toBeCloseTo(0.5, 12);
    // The same numbers as the comparison of the two runs.
    const c = compareRuns(perItem, holistic, { resamples: 50 });
    expect(c.agreement.map((g) => [g.system, g.n, g.agree, g.kappa])).toEqual(
      r.map((x) => [x.system, x.n, x.agree, x.kappa]),
    );
    expect(c.flips.map((f) => `${f.system} ${f.itemId}`)).toHaveLength(2);
  });

  it('a job with no full score (checks-only) says so in one line and ranks decided items, never empty values', () => {
    const t = fromTrialRecords([
      makeTrial({ system: 'a', task: 't1', items: [{ decision: 'satisfied' }, { decision: 'unjudged' }] }),
      makeTrial({ system: 'b', task: 't1', items: [{ decision: 'not-satisfied' }, { decision: 'unjudged' }] }),
    ]);
    const tables = { ...t, ...fromProjectRecords([]) };
    const analysis = analyzeResults(tables, { resamples: 100 });
    expect(rowsOf<R>(analysis.tasks!.leaderboard)[0]).toMatchObject({ trials: 1, unjudged: 1, mean: null });
    expect(rowsOf<R>(analysis.tasks!.decidedLeaderboard!).map((r) => [r.system, r.mean])).toEqual([
      ['a', 100],
      ['b', 0],
    ]);
    const doc = buildReportDocument(analysis, tables, { title: 'checks only' });
    const text = doc.blocks.flatMap((b) => (b.kind === 'markdown' ? [b.text] : [])).join('\n');
    expect(text).toContain('No trial has every item decided (2 trials without a full score): no score to rank yet.');
    expect(text).not.toContain('highest mean score');
    expect(text).not.toMatch(/, — \[—, —\]/);
    const tableIds = doc.blocks.flatMap((b) => (b.kind === 'table' ? [b.table.id] : []));
    expect(tableIds).toContain('decided-leaderboard');
    for (const id of ['leaderboard', 'score-vs-success', 'domains', 'oracle', 'pairwise'])
      expect(tableIds).not.toContain(id);
    expect(tableIds).toEqual(expect.arrayContaining(['dimensions', 'resources']));
    // A full score anywhere: the usual leaderboard, and no decided board.
    const full = fromTrialRecords([makeTrial({ system: 'a', task: 't1', items: scored(8) })]);
    expect(
      analyzeResults({ ...full, ...fromProjectRecords([]) }, { resamples: 100 }).tasks!.decidedLeaderboard,
    ).toBeNull();
  });

  it('analyzeResults computes each statistic from the same tables and settings as a direct call', () => {
    const o = {
      systems: [
        { id: 'gpt-nanobot', harness: 'nanobot', model: 'gpt', skill: 0.1 },
        { id: 'gpt-hermes', harness: 'hermes', model: 'gpt', skill: 0.05 },
        { id: 'spec', harness: 'command', model: 'spec', skill: 0.2 },
      ],
      tasks: 6,
      trials: 2,
      projects: 2,
      checkpoints: 3,
    };
    const tables = {
      ...fromTrialRecords(syntheticTrialRecords(o)),
      ...fromProjectRecords(syntheticProjectRecords(o)),
    };
    const settings = { seed: 11, resamples: 200, confidence: 0.9 };
    const a = analyzeResults(tables, { ...settings, specializedSystems: ['spec'] });
    const json = (v: unknown): unknown => analysisToJson(v);
    expect(a.settings).toEqual(settings);
    expect(a.counts).toMatchInlineSnapshot(`
      {
        "checkpoints": 18,
        "checkpointsJudged": 18,
        "projects": 6,
        "projectsFinalScored": 6,
        "trials": 36,
        "trialsScored": 36,
      }
    `);
    const systems = rowsOf<{ system: string }>(a.tasks!.leaderboard).map((r) => r.system);
    expect(json(a.tasks!.leaderboard)).toEqual(json(systemLeaderboard(tables.trials, settings)));
    expect(json(a.tasks!.oracle)).toEqual(json(oracleBestOfK(tables.trials, settings)));
    expect(json(a.tasks!.harnessSwap)).toEqual(json(harnessSwap(tables.trials, settings)));
    expect(json(a.tasks!.pairwise)).toEqual(json(pairwiseComparisons(tables.trials, systems, settings)));
    expect(json(a.projects!.delivery)).toEqual(json(deliverySummary(tables.projects, settings)));
    expect(a.tasks!.decidedLeaderboard).toBeNull();
    expect(rowsOf(a.tasks!.generalVsSpecialized!)).toMatchInlineSnapshot(`
      [
        {
          "agent_system": "General (All Runs avg)",
          "avg_score": 75.16025641025641,
          "success_rate": 37.5,
          "systems": 2,
        },
        {
          "agent_system": "General (Oracle)",
          "avg_score": 87.82051282051282,
          "success_rate": 58.333333333333336,
          "systems": 2,
        },
        {
          "agent_system": "Specialized Agent",
          "avg_score": 95.51282051282051,
          "success_rate": 66.66666666666666,
          "systems": 1,
        },
        {
          "agent_system": "Gap: Specialized - General (All Runs avg)",
          "avg_score": 20.352564102564102,
          "success_rate": 29.166666666666657,
          "systems": 1,
        },
        {
          "agent_system": "Gap: Specialized - General (Oracle)",
          "avg_score": 7.692307692307693,
          "success_rate": 8.333333333333321,
          "systems": 1,
        },
      ]
    `);
    expect([a.judgeSetups, a.labelAgreement, a.reviewerAgreement, a.withReviews]).toEqual([null, null, null, null]);
  });

  it('judge agreement against expert labels: raw agreement, kappa, unmatched labels counted', async () => {
    const dir = await tmp();
    const { verdicts } = fromTrialRecords([
      makeTrial({
        system: 'a',
        task: 't1',
        items: [
          { decision: 'satisfied' },
          { decision: 'satisfied' },
          { decision: 'not-satisfied' },
          { decision: 'not-satisfied' },
        ],
      }),
    ]);
    const file = path.join(dir, 'labels.csv');
    await writeFile(
      file,
      'system,unit,trial,item,label\na,t1,1,i0,1\na,t1,1,i1,0\na,t1,1,i2,0\na,t1,1,i3,0\na,t9,1,i0,1\n',
    );
    const { criteria } = fromProjectRecords([]);
    const got = labelAgreement([{ setup: 'x', verdicts, criteria }], await loadHumanLabels(file))!;
    const r = rowsOf<R>(got.rows)[0]!;
    expect(r).toMatchObject({ by: 'all', group: 'all', n: 4, agree: 3, agreement: 75, unmatched: 1 });
    expect(r.kappa).toBeCloseTo(0.5, 12);
    await writeFile(file, 'system,unit,trial,item,label\na,t1,1,i0,maybe\n');
    await expect(loadHumanLabels(file)).rejects.toThrow(/labels\.csv:2: label: "maybe" is not 1\/0/);
    await writeFile(file, 'system,unit,trial,item,label\na,t1,x,i0,1\n');
    await expect(loadHumanLabels(file)).rejects.toThrow(/labels\.csv:2: trial: "x" is not a positive integer/);
    // JSON Lines: the same labels, one object per line; bad lines named by line and field.
    const jsonl = path.join(dir, 'labels.jsonl');
    const lines = [
      { system: 'a', unit: 't1', trial: 1, item: 'i0', label: 1 },
      { system: 'a', unit: 't1', trial: 1, item: 'i1', label: 'not-satisfied' },
      { system: 'a', unit: 't1', trial: 1, item: 'i2', label: false },
      { system: 'a', unit: 't1', trial: 1, item: 'i3', label: 'no' },
      { system: 'a', unit: 't9', trial: 1, item: 'i0', label: true, scope: null },
    ];
    await writeFile(jsonl, lines.map((l) => JSON.stringify(l)).join('\n') + '\n\n');
    const fromJsonl = labelAgreement([{ setup: 'x', verdicts, criteria }], await loadHumanLabels(jsonl))!;
    expect(rowsOf<R>(fromJsonl.rows)[0]).toEqual(r);
    await writeFile(jsonl, `${JSON.stringify(lines[0])}\n{"system": "a", "unit": "t1", "trial": 1, "label": 1}\n`);
    await expect(loadHumanLabels(jsonl)).rejects.toThrow(/labels\.jsonl:2: item: missing or empty/);
    await writeFile(jsonl, 'not json\n');
    await expect(loadHumanLabels(jsonl)).rejects.toThrow(/labels\.jsonl:1: not JSON/);
  });
});
