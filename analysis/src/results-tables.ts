// Records -> arquero tables (one row per trial, rubric verdict, project, checkpoint,
// criterion). Everything downstream is a pure function over these tables.
// Unjudged stays explicit: score columns hold null, never 0.
import * as aq from 'arquero';
import type { ColumnTable } from 'arquero';
import { isSuccess, type CriterionVerdict, type ProjectRecord, type TrialRecord } from '@assay/core';
import type { JobResults } from './load-results.js';
import { messages } from './messages.js';

export interface ResultTables {
  /** One row per StartupBench-style trial. */
  trials: ColumnTable;
  /** One row per rubric verdict of a trial. */
  verdicts: ColumnTable;
  /** One row per DeliverBench project run. */
  projects: ColumnTable;
  /** One row per checkpoint (subtask submission) of a project run. */
  checkpoints: ColumnTable;
  /** One row per criterion verdict (final delivery and checkpoints). */
  criteria: ColumnTable;
  /** One row per project run x profile group (targets and quality dimensions), as the record scored them. */
  groups: ColumnTable;
}

type Row = Record<string, unknown>;

/**
 * Tables from loaded jobs. System ids are used as they are unless the same id occurs
 * in more than one job (e.g. two judge setups over the same systems); then every
 * system is named "<job id>/<system id>" so the runs stay apart.
 */
/** How the tables name a job's system: `<job>/<system>` once any system id is in more than one job. */
export function systemNamer(jobs: readonly JobResults[]): (jobId: string, systemId: string) => string {
  const owners = new Map<string, Set<string>>();
  for (const j of jobs) {
    for (const r of [...j.trials, ...j.projects]) {
      const s = owners.get(r.system.id) ?? new Set<string>();
      s.add(j.jobId);
      owners.set(r.system.id, s);
    }
  }
  const qualify = [...owners.values()].some((s) => s.size > 1);
  return (jobId, systemId) => (qualify ? `${jobId}/${systemId}` : systemId);
}

export function fromJobResults(jobs: readonly JobResults[]): ResultTables {
  const name = systemNamer(jobs);
  const trials: TrialRecord[] = [];
  const projects: ProjectRecord[] = [];
  const seen = new Map<string, string>();
  // The record as its job names it, stamped with the job id.
  const named = <R extends TrialRecord | ProjectRecord>(jobId: string, r: R): R => ({
    ...r,
    jobId,
    system: { ...r.system, id: name(jobId, r.system.id) },
  });
  for (const j of jobs) {
    for (const r of j.trials) {
      const rec = named(j.jobId, r);
      checkUnique(seen, `trial ${rec.system.id}/${r.task.id}/${r.trial}`, j.dir);
      trials.push(rec);
    }
    for (const r of j.projects) {
      const rec = named(j.jobId, r);
      checkUnique(seen, `project ${rec.system.id}/${r.project.id}/${r.trial}`, j.dir);
      projects.push(rec);
    }
  }
  return { ...fromTrialRecords(trials), ...fromProjectRecords(projects) };
}

function checkUnique(seen: Map<string, string>, key: string, where: string): void {
  const prev = seen.get(key);
  if (prev !== undefined) throw new Error(messages.duplicateTrial(key, prev, where));
  seen.set(key, where);
}

export function fromTrialRecords(records: readonly TrialRecord[]): Pick<ResultTables, 'trials' | 'verdicts'> {
  const trials: Row[] = [];
  const verdicts: Row[] = [];
  for (const r of records) {
    const base = { ...systemFields(r), task: r.task.id, domain: r.task.domain };
    const u = r.usage;
    trials.push({
      ...base,
      format_required: r.formatCompliance.required,
      trial: r.trial,
      status: r.status,
      score: r.score.value,
      score_decided: r.score.decided,
      success: r.score.success,
      coverage: r.score.coverage,
      items: r.verdicts.length,
      items_unjudged: r.verdicts.filter((v) => v.decision === 'unjudged').length,
      agent_seconds: r.agent.durationSeconds,
      input_tokens: u?.inputTokens ?? null,
      output_tokens: u?.outputTokens ?? null,
      cached_input_tokens: u?.cachedInputTokens ?? null,
      // Cached input is already inside input: total = input + output.
      tokens: u ? u.inputTokens + u.outputTokens : null,
      cost_usd: u?.costUsd ?? null,
      format_compliant: r.formatCompliance.required ? r.formatCompliance.compliant : null,
      // Harbor tasks: every reward the verifier named ({} when it wrote none); null for assay's rubric tasks.
      rewards: r.verifier ? { ...r.verifier.rewards } : null,
    });
    for (const v of r.verdicts) {
      verdicts.push({
        ...base,
        trial: r.trial,
        item: v.itemId,
        importance: v.importance,
        dimension: v.dimension,
        weight: v.weight,
        decision: v.decision,
        satisfied: satisfiedValue(v.decision),
        source: v.source,
      });
    }
  }
  return { trials: table(trials, TRIAL_COLUMNS), verdicts: table(verdicts, VERDICT_COLUMNS) };
}

/**
 * Project records (core's ProjectRecord) as tables. Checkpoints are in timeline order;
 * a checkpoint without a score is unjudged; subtasks not yet submitted count as pending.
 * Process = the record's process score (mean of all checkpoint scores, null while any is
 * missing); `process_judged` keeps the mean of the judged ones.
 */
export function fromProjectRecords(
  records: readonly ProjectRecord[],
): Pick<ResultTables, 'projects' | 'checkpoints' | 'criteria' | 'groups'> {
  const projects: Row[] = [];
  const checkpoints: Row[] = [];
  const criteria: Row[] = [];
  const groups: Row[] = [];
  for (const r of records) {
    const base = { ...systemFields(r), project: r.project.id, trial: r.trial };
    const scores = r.checkpoints.map((c) => c.score).filter((x): x is number => x !== null);
    const res = r.resources;
    const pending = Math.max(0, r.project.subtasks - r.checkpoints.length);
    projects.push({
      ...base,
      status:
        pending > 0
          ? 'incomplete'
          : r.checkpoints.some((c) => c.agent.status === 'infra-failed')
            ? 'infra-failed'
            : 'complete',
      final: r.final.score,
      final_raw: r.final.raw,
      fatal: r.final.gateTriggered,
      final_unjudged: r.final.unjudged.length,
      process: pending > 0 ? null : r.process.score,
      process_judged: scores.length > 0 ? scores.reduce((a, b) => a + b, 0) / scores.length : null,
      subtasks: r.project.subtasks,
      checkpoints: r.checkpoints.length,
      checkpoints_pending: pending,
      checkpoints_judged: scores.length,
      checkpoints_passed: scores.filter(isSuccess).length,
      agent_seconds: res.agentSeconds,
      agent_hours: res.agentSeconds / 3600,
      input_tokens: res.inputTokens,
      output_tokens: res.outputTokens,
      // Total = input + output (cached input is inside input).
      tokens:
        res.totalTokens ??
        (res.inputTokens === null || res.outputTokens === null ? null : res.inputTokens + res.outputTokens),
    });
    r.checkpoints.forEach((c, index) => {
      checkpoints.push({
        ...base,
        subtask: c.subtaskId,
        stage: c.stageId,
        index,
        status: c.score === null ? 'unjudged' : 'judged',
        agent_status: c.agent.status,
        score: c.score,
        passed: c.score === null ? null : isSuccess(c.score),
        gate: c.gateTriggered,
        agent_seconds: c.agent.durationSeconds,
      });
      for (const v of c.verdicts) criteria.push(criterionRow(base, 'checkpoint', c.subtaskId, v));
    });
    for (const v of r.final.verdicts) criteria.push(criterionRow(base, 'final', null, v));
    for (const [by, list] of [
      ['target', r.final.targets],
      ['dimension', r.final.dimensions],
    ] as const) {
      for (const g of list)
        groups.push({
          ...base,
          by,
          group: g.group,
          score: g.score,
          available: g.available,
          positive_weight: g.positiveWeight,
        });
    }
  }
  return {
    projects: table(projects, PROJECT_COLUMNS),
    checkpoints: table(checkpoints, CHECKPOINT_COLUMNS),
    criteria: table(criteria, CRITERION_COLUMNS),
    groups: table(groups, GROUP_COLUMNS),
  };
}

/** The columns every row starts with: which job and system produced it. */
function systemFields(r: TrialRecord | ProjectRecord): Row {
  return { job: r.jobId, system: r.system.id, harness: r.system.harness, model: r.system.model ?? r.system.id };
}

/** A decision as 1 / 0, null when it was not decided (unjudged stays out of rates). */
function satisfiedValue(decision: string): 1 | 0 | null {
  return decision === 'satisfied' ? 1 : decision === 'not-satisfied' ? 0 : null;
}

function criterionRow(base: Row, scope: 'final' | 'checkpoint', subtask: string | null, v: CriterionVerdict): Row {
  return {
    ...base,
    scope,
    subtask,
    criterion: v.criterionId,
    target: v.target,
    dimension: v.dimension,
    weight: v.weight,
    fatal: v.fatal,
    decision: v.decision,
    // The judge's own decision (what expert labels are compared with) ...
    satisfied: satisfiedValue(v.decision),
    // ... and the effective judgment after dependency resolution (what the score used).
    h: v.effective,
    source: v.source,
  };
}

// Every table starts with the system columns; task and project tables then name their unit.
const SYSTEM_COLUMNS = ['job', 'system', 'harness', 'model'];
const TASK_UNIT_COLUMNS = [...SYSTEM_COLUMNS, 'task', 'domain'];
const PROJECT_UNIT_COLUMNS = [...SYSTEM_COLUMNS, 'project', 'trial'];
const TRIAL_COLUMNS = [
  ...TASK_UNIT_COLUMNS,
  'format_required',
  'trial',
  'status',
  'score',
  'score_decided',
  'success',
  'coverage',
  'items',
  'items_unjudged',
  'agent_seconds',
  'input_tokens',
  'output_tokens',
  'cached_input_tokens',
  'tokens',
  'cost_usd',
  'format_compliant',
  'rewards',
];
const VERDICT_COLUMNS = [
  ...TASK_UNIT_COLUMNS,
  'trial',
  'item',
  'importance',
  'dimension',
  'weight',
  'decision',
  'satisfied',
  'source',
];
const PROJECT_COLUMNS = [
  ...PROJECT_UNIT_COLUMNS,
  'status',
  'final',
  'final_raw',
  'fatal',
  'final_unjudged',
  'process',
  'process_judged',
  'subtasks',
  'checkpoints',
  'checkpoints_pending',
  'checkpoints_judged',
  'checkpoints_passed',
  'agent_seconds',
  'agent_hours',
  'input_tokens',
  'output_tokens',
  'tokens',
];
const CHECKPOINT_COLUMNS = [
  ...PROJECT_UNIT_COLUMNS,
  'subtask',
  'stage',
  'index',
  'status',
  'agent_status',
  'score',
  'passed',
  'gate',
  'agent_seconds',
];
const CRITERION_COLUMNS = [
  ...PROJECT_UNIT_COLUMNS,
  'scope',
  'subtask',
  'criterion',
  'target',
  'dimension',
  'weight',
  'fatal',
  'decision',
  'satisfied',
  'h',
  'source',
];
const GROUP_COLUMNS = [...PROJECT_UNIT_COLUMNS, 'by', 'group', 'score', 'available', 'positive_weight'];

/** A table with the given columns even when there are no rows (so downstream code never meets a missing column). */
function table(rows: Row[], columns: string[]): ColumnTable {
  if (rows.length > 0) return aq.from(rows).select(columns);
  return aq.table(Object.fromEntries(columns.map((c) => [c, []])));
}
