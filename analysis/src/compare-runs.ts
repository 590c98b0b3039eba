// Two runs side by side (`assay compare A B`): the harness-swap and judge-ablation workflow of the papers as one
// comparison. In order: what differs in what produced them (judge setup, harness, model, benchmark content,
// and every other provenance field the records carry), then per system the score difference over common tasks
// with the paired task-cluster bootstrap CI and McNemar's test (paired-comparison.ts), per task the means, and
// per item the verdicts that flipped between the runs, each with both reasons and evidence; projects likewise
// (compare-projects.ts).
// Pure over loaded results; the CLI renders it.
import type { ProjectRecord, TrialRecord, Verdict } from '@assay/core';
import type { BootstrapOptions } from './cluster-bootstrap.js';
import { compareProjects, type ProjectComparison } from './compare-projects.js';
import type { JobResults } from './load-results.js';
import { itemAgreement, pairVerdicts, type ItemAgreement, type VerdictPair } from './item-agreement.js';
import { messages } from './messages.js';
import { pairedDifference, type PairedDifference } from './paired-difference.js';

export type { ItemAgreement } from './item-agreement.js';
export type { TaskDifference } from './paired-difference.js';

type Recorded = TrialRecord | ProjectRecord;

/** One thing that differs between the runs' provenance: `judge.model: gpt-5.1 → claude-sonnet-4-5`. */
export interface ProvenanceDifference {
  what: string;
  a: string;
  b: string;
}

export interface SystemDifference extends PairedDifference {
  /** The system's id in A and in B (equal unless each run has one system of another id). */
  a: string;
  b: string;
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
  /** Per system pair (and `all` pooled, with more than one): how far the two runs' item verdicts agree. */
  agreement: ItemAgreement[];
  /** Multi-stage projects: final and process scores apart, and the criteria whose verdict differs. */
  projects: ProjectComparison;
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

/**
 * Provenance fields not compared as what produced a run: the unit (compared per task below), and what every
 * trial has its own of (response ids find calls; a shared-environment verifier's image is the trial's snapshot).
 */
const PER_TRIAL = new Set(['unit', 'responses', 'verifierImage']);

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
    const keys = new Set(
      [...ra, ...rb].flatMap((r) => Object.keys(r.provenance ?? {}).filter((k) => !PER_TRIAL.has(k))),
    );
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

function sideOf(v: Verdict): VerdictSide {
  const evidence = (v.judge?.evidence as unknown[] | undefined)?.map((e) =>
    typeof e === 'string' ? e : JSON.stringify(e),
  );
  return { decision: v.decision, source: v.source, reason: v.reason, evidence: evidence ?? [] };
}

/**
 * How far the item verdicts of two runs agree, per system pair (and `all` pooled when there are several): what
 * `assay compare` shows and the report's judge-setup table reads. Throws when no system pairs up.
 */
export function compareVerdicts(a: JobResults, b: JobResults): { agreement: ItemAgreement[]; pairs: VerdictPair[] } {
  const agreement: ItemAgreement[] = [];
  const every: VerdictPair[] = [];
  for (const ids of pairSystems(a, b)) {
    const label = ids[0] === ids[1] ? ids[0] : `${ids[0]} | ${ids[1]}`;
    const ra = a.trials.filter((r) => r.system.id === ids[0]);
    const rb = b.trials.filter((r) => r.system.id === ids[1]);
    if (ra.length === 0 && rb.length === 0) continue;
    const verdicts = pairVerdicts(ra, rb, label);
    every.push(...verdicts);
    agreement.push(itemAgreement(label, verdicts));
  }
  if (agreement.length > 1) agreement.unshift(itemAgreement('all', every));
  return { agreement, pairs: every };
}

export function compareRuns(a: JobResults, b: JobResults, options: BootstrapOptions = {}): RunComparison {
  const pairs = pairSystems(a, b);
  const full = [a, b].every((j) => j.trials.some((r) => r.score.value !== null));
  const metric: RunComparison['metric'] = full ? 'score' : 'decided';
  const scored = (r: TrialRecord) => ({ task: r.task.id, trial: r.trial, score: scoreOf(r, metric) });
  const systems: SystemDifference[] = [];
  for (const ids of pairs) {
    const ra = a.trials.filter((r) => r.system.id === ids[0]);
    const rb = b.trials.filter((r) => r.system.id === ids[1]);
    if (ra.length === 0 && rb.length === 0) continue;
    systems.push({ a: ids[0], b: ids[1], ...pairedDifference(ra.map(scored), rb.map(scored), options) });
  }
  const verdicts = compareVerdicts(a, b);
  const flips = verdicts.pairs
    .filter((p) => p.a.decision !== p.b.decision)
    .map((p) => ({ system: p.system, task: p.task, trial: p.trial, itemId: p.itemId, a: sideOf(p.a), b: sideOf(p.b) }));
  return {
    a: a.jobId,
    b: b.jobId,
    metric,
    provenance: provenanceDifferences(a, b, pairs),
    systems,
    flips,
    agreement: verdicts.agreement,
    projects: compareProjects(a.projects, b.projects, pairs, options),
  };
}
