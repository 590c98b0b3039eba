// Two runs side by side (`assay compare A B`): the harness-swap and judge-ablation workflow of the papers as one
// comparison. In order: what differs in what produced them (judge setup, harness, model, benchmark content,
// and every other provenance field the records carry), then per system the score difference over common tasks
// with the paired task-cluster bootstrap CI and McNemar's test (paired-comparison.ts), per task the means, and
// per item the verdicts that flipped between the runs, each with both reasons and evidence; projects likewise
// (compare-projects.ts).
// Pure over loaded results; the CLI renders it.
import * as aq from 'arquero';
import type { ProjectRecord, TrialRecord, Verdict } from '@assay/core';
import type { BootstrapOptions } from './cluster-bootstrap.js';
import { compareProjects, type CriterionFlip, type ProjectSystemDifference } from './compare-projects.js';
import type { JobResults } from './load-results.js';
import { messages } from './messages.js';
import { pairedComparison, type PairedComparison } from './paired-comparison.js';

type Recorded = TrialRecord | ProjectRecord;

/** One thing that differs between the runs' provenance: `judge.model: gpt-5.1 → claude-sonnet-4-5`. */
export interface ProvenanceDifference {
  what: string;
  a: string;
  b: string;
}

export interface TaskDifference {
  task: string;
  trialsA: number;
  trialsB: number;
  meanA: number | null;
  meanB: number | null;
  difference: number | null;
}

export interface SystemDifference {
  /** The system's id in A and in B (equal unless each run has one system of another id). */
  a: string;
  b: string;
  /** Null when no task has a score on both sides (`reason` says why). */
  paired: PairedComparison | null;
  reason: string | null;
  tasks: TaskDifference[];
}

export interface VerdictSide {
  decision: Verdict['decision'];
  source: Verdict['source'];
  reason: string;
  evidence: string[];
}

export interface ItemFlip {
  system: string;
  task: string;
  trial: number;
  itemId: string;
  a: VerdictSide;
  b: VerdictSide;
}

export interface RunComparison {
  a: string;
  b: string;
  /** `score` (every item decided) when both runs have full scores, else `decided` (decided items only). */
  metric: 'score' | 'decided';
  provenance: ProvenanceDifference[];
  systems: SystemDifference[];
  flips: ItemFlip[];
  /** Multi-stage projects: final and process scores apart, and the criteria whose verdict differs. */
  projects: { systems: ProjectSystemDifference[]; flips: CriterionFlip[] };
}

const show = (v: unknown): string =>
  v === undefined || v === null ? 'unknown' : typeof v === 'string' ? v : JSON.stringify(v);

/** Fields of two objects that differ, as `prefix.field`. */
function fieldDifferences(prefix: string, a: unknown, b: unknown): ProvenanceDifference[] {
  const ra = (a ?? {}) as Record<string, unknown>;
  const rb = (b ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(ra), ...Object.keys(rb)])].sort();
  return keys
    .filter((k) => JSON.stringify(ra[k]) !== JSON.stringify(rb[k]))
    .map((k) => ({ what: `${prefix}.${k}`, a: show(ra[k]), b: show(rb[k]) }));
}

/** The distinct values of one field over records, joined: `v1` or `v1, v2` (`unknown` for records without it). */
function valuesOf(records: readonly Recorded[], read: (r: Recorded) => unknown): string {
  return [...new Set(records.map((r) => show(read(r))))].sort().join(', ');
}

/** The systems paired: by id, or the one system of each run when their ids differ. */
function pairSystems(a: JobResults, b: JobResults): [string, string][] {
  const ids = (j: JobResults) => [...new Set([...j.trials, ...j.projects].map((r) => r.system.id))].sort();
  const [sa, sb] = [ids(a), ids(b)];
  const common = sa.filter((s) => sb.includes(s));
  if (common.length > 0) return common.map((s) => [s, s]);
  if (sa.length === 1 && sb.length === 1) return [[sa[0]!, sb[0]!]];
  throw new Error(messages.nothingToCompare(a.jobId, sa, b.jobId, sb));
}

function provenanceDifferences(a: JobResults, b: JobResults, pairs: [string, string][]): ProvenanceDifference[] {
  const specOf = (j: JobResults) => (j.job?.spec ?? {}) as Record<string, unknown>;
  const out = fieldDifferences('judge', specOf(a).judge, specOf(b).judge);
  for (const [sa, sb] of pairs) {
    // Trial and project records alike: what produced a system's runs.
    const ra = [...a.trials, ...a.projects].filter((r) => r.system.id === sa);
    const rb = [...b.trials, ...b.projects].filter((r) => r.system.id === sb);
    const label = sa === sb ? sa : `${sa} | ${sb}`;
    const read: [string, (r: Recorded) => unknown][] = [
      ['harness', (r) => r.system.harness],
      ['model', (r) => r.system.model],
      ['benchmark', (r) => `${r.benchmark.id}@${r.benchmark.version}`],
    ];
    // Every other provenance field the records carry (assay version, images, models reported, ...).
    // An object field (assay, resources, judge) is compared field by field: `judge.reportedModels: a → b`.
    const field = (r: Recorded, k: string) => (r.provenance as Record<string, unknown> | undefined)?.[k];
    const keys = new Set([...ra, ...rb].flatMap((r) => Object.keys(r.provenance ?? {}).filter((k) => k !== 'unit')));
    for (const k of [...keys].sort()) {
      const objects = [...ra, ...rb]
        .map((r) => field(r, k))
        .filter((v) => v && typeof v === 'object' && !Array.isArray(v));
      const subs = new Set(objects.flatMap((v) => Object.keys(v as object)));
      if (subs.size === 0) read.push([k, (r) => field(r, k)]);
      for (const sub of [...subs].sort())
        read.push([`${k}.${sub}`, (r) => (field(r, k) as Record<string, unknown> | undefined)?.[sub]]);
    }
    for (const [what, f] of read) {
      const [va, vb] = [valuesOf(ra, f), valuesOf(rb, f)];
      if (va !== vb) out.push({ what: `system ${label}: ${what}`, a: va, b: vb });
    }
  }
  // The content of each task both ran: which parts differ.
  const partsOf = (j: JobResults) => {
    const m = new Map<string, Record<string, string> | null>();
    for (const r of j.trials) m.set(r.task.id, r.provenance?.unit.parts ?? null);
    return m;
  };
  const [pa, pb] = [partsOf(a), partsOf(b)];
  for (const [task, x] of pa) {
    if (!pb.has(task)) continue;
    const y = pb.get(task) ?? null;
    if (x === null || y === null) {
      if (x !== y)
        out.push({ what: `tasks/${task}: content`, a: x ? 'recorded' : 'unknown', b: y ? 'recorded' : 'unknown' });
      continue;
    }
    const changed = [...new Set([...Object.keys(x), ...Object.keys(y)])].filter((p) => x[p] !== y[p]).sort();
    if (changed.length > 0)
      out.push({ what: `tasks/${task}: content`, a: 'version A', b: `${changed.join(', ')} changed` });
  }
  return out;
}

const scoreOf = (r: TrialRecord, metric: RunComparison['metric']): number | null =>
  metric === 'score' ? r.score.value : r.score.decided;

const mean = (xs: number[]): number | null => (xs.length > 0 ? xs.reduce((s, x) => s + x, 0) / xs.length : null);

function systemDifference(
  ra: readonly TrialRecord[],
  rb: readonly TrialRecord[],
  ids: [string, string],
  metric: RunComparison['metric'],
  options: BootstrapOptions,
): SystemDifference {
  const tasks = [...new Set([...ra, ...rb].map((r) => r.task.id))].sort();
  const rows: TaskDifference[] = tasks.map((task) => {
    const xa = ra.filter((r) => r.task.id === task).flatMap((r) => scoreOf(r, metric) ?? []);
    const xb = rb.filter((r) => r.task.id === task).flatMap((r) => scoreOf(r, metric) ?? []);
    const [meanA, meanB] = [mean(xa), mean(xb)];
    const difference = meanA !== null && meanB !== null ? meanA - meanB : null;
    return { task, trialsA: xa.length, trialsB: xb.length, meanA, meanB, difference };
  });
  if (![ra, rb].every((rs) => rs.some((r) => scoreOf(r, metric) !== null)))
    return { a: ids[0], b: ids[1], paired: null, reason: messages.noTaskScores, tasks: rows };
  // One table, the two sides named A and B, so the paired comparison pairs tasks and trial numbers.
  const side = (r: TrialRecord, name: string) => ({
    system: name,
    task: r.task.id,
    trial: r.trial,
    score: scoreOf(r, metric),
  });
  const table = aq.from([...ra.map((r) => side(r, 'A')), ...rb.map((r) => side(r, 'B'))]);
  try {
    return { a: ids[0], b: ids[1], paired: pairedComparison(table, 'A', 'B', options), reason: null, tasks: rows };
  } catch (err) {
    return { a: ids[0], b: ids[1], paired: null, reason: (err as Error).message, tasks: rows };
  }
}

function sideOf(v: Verdict): VerdictSide {
  const evidence = (v.judge?.evidence as unknown[] | undefined)?.map((e) =>
    typeof e === 'string' ? e : JSON.stringify(e),
  );
  return { decision: v.decision, source: v.source, reason: v.reason, evidence: evidence ?? [] };
}

function flipsOf(ra: readonly TrialRecord[], rb: readonly TrialRecord[], system: string): ItemFlip[] {
  const byKey = new Map(rb.map((r) => [`${r.task.id}/${r.trial}`, r]));
  const out: ItemFlip[] = [];
  for (const x of ra) {
    const y = byKey.get(`${x.task.id}/${x.trial}`);
    if (!y) continue;
    const other = new Map(y.verdicts.map((v) => [v.itemId, v]));
    for (const v of x.verdicts) {
      const w = other.get(v.itemId);
      if (w && w.decision !== v.decision)
        out.push({ system, task: x.task.id, trial: x.trial, itemId: v.itemId, a: sideOf(v), b: sideOf(w) });
    }
  }
  return out;
}

export function compareRuns(a: JobResults, b: JobResults, options: BootstrapOptions = {}): RunComparison {
  const pairs = pairSystems(a, b);
  const full = [a, b].every((j) => j.trials.some((r) => r.score.value !== null));
  const metric: RunComparison['metric'] = full ? 'score' : 'decided';
  const systems: SystemDifference[] = [];
  const flips: ItemFlip[] = [];
  for (const ids of pairs) {
    const ra = a.trials.filter((r) => r.system.id === ids[0]);
    const rb = b.trials.filter((r) => r.system.id === ids[1]);
    if (ra.length === 0 && rb.length === 0) continue;
    systems.push(systemDifference(ra, rb, ids, metric, options));
    flips.push(...flipsOf(ra, rb, ids[0] === ids[1] ? ids[0] : `${ids[0]} | ${ids[1]}`));
  }
  const projects = compareProjects(a.projects, b.projects, pairs, options);
  return { a: a.jobId, b: b.jobId, metric, provenance: provenanceDifferences(a, b, pairs), systems, flips, projects };
}
