// The job's own `stats` in a Harbor job folder's result.json (JobStats), set beside the same numbers recomputed
// from the trial folders as Harbor computes them (JobStats.increment, metrics.Mean over each eval's rewards,
// utils.pass_at_k), so a report can show Harbor's numbers and say where they disagree: stats written before the
// last trials finished, a resumed or edited job, a dataset's own metric. assay never scores from these stats.
import type { HarborJobStats, HarborTrialResult } from './harbor-job-schema.js';
import { eligibleK, passAtKForTask } from './pass-at-k.js';

export interface HarborEvalNumbers {
  nTrials: number;
  nErrors: number;
  /** Harbor's: every metric entry it wrote; recomputed: the Mean metric only. */
  metrics: Record<string, number | null>[];
  /** k → pass@k; empty where Harbor computes none (a reward not exactly 0 or 1, or several keys). */
  passAtK: Record<string, number>;
}

export interface HarborEvalStats {
  /** Harbor's eval key, `agent__model__dataset`. */
  eval: string;
  /** null: the stats name an eval no trial folder has. */
  recomputed: HarborEvalNumbers | null;
  /** null: a trial folder's eval the stats do not have. */
  harbor: HarborEvalNumbers | null;
  /** Each way the two differ, as a sentence; empty when they agree. */
  disagreements: string[];
}

export interface HarborJobStatsComparison {
  completed: { harbor: number | null; recomputed: number };
  errored: { harbor: number | null; recomputed: number };
  evals: HarborEvalStats[];
}

const close = (a: number | null | undefined, b: number | null | undefined): boolean =>
  a == null || b == null ? a == b : Math.abs(a - b) < 1e-9;

/** Harbor's eval key of a trial (JobStats.format_agent_evals_key). */
export function harborEvalKeyOf(r: HarborTrialResult): string {
  const model = r.agent_info.model_info?.name;
  const dataset = r.source ?? 'adhoc';
  return model ? `${r.agent_info.name}__${model}__${dataset}` : `${r.agent_info.name}__${dataset}`;
}

export function compareHarborJobStats(stats: HarborJobStats, trials: HarborTrialResult[]): HarborJobStatsComparison {
  const byEval = new Map<string, HarborTrialResult[]>();
  for (const t of trials) byEval.set(harborEvalKeyOf(t), [...(byEval.get(harborEvalKeyOf(t)) ?? []), t]);
  const keys = [...new Set([...byEval.keys(), ...Object.keys(stats.evals ?? {})])].sort();
  const evals = keys.map((key) => {
    const list = byEval.get(key);
    const own = stats.evals?.[key];
    const recomputed = list ? recomputeEval(list) : null;
    const harbor = own
      ? {
          nTrials: own.n_trials ?? 0,
          nErrors: own.n_errors ?? 0,
          metrics: own.metrics ?? [],
          passAtK: own.pass_at_k ?? {},
        }
      : null;
    return { eval: key, recomputed, harbor, disagreements: disagreementsOf(harbor, recomputed) };
  });
  return {
    completed: { harbor: stats.n_completed_trials ?? stats.n_trials ?? null, recomputed: trials.length },
    errored: {
      harbor: stats.n_errored_trials ?? stats.n_errors ?? null,
      recomputed: trials.filter((t) => t.exception_info).length,
    },
    evals,
  };
}

function recomputeEval(list: HarborTrialResult[]): HarborEvalNumbers {
  const rewards = list.map((t) => t.verifier_result?.rewards ?? null);
  return {
    nTrials: rewards.filter((r) => r !== null).length,
    nErrors: list.filter((t) => t.exception_info).length,
    metrics: [meanOf(rewards)],
    passAtK: harborPassAtK(list),
  };
}

/** harbor.metrics.Mean: one key (or none) → {mean}; several → per key; a missing reward or key counts 0. */
function meanOf(rewards: (Record<string, number> | null)[]): Record<string, number> {
  const keys = [...new Set(rewards.flatMap((r) => (r ? Object.keys(r) : [])))].sort();
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  if (keys.length <= 1) return { mean: mean(rewards.map((r) => (r ? (Object.values(r)[0] ?? 0) : 0))) };
  return Object.fromEntries(keys.map((k) => [k, mean(rewards.map((r) => r?.[k] ?? 0))]));
}

/** harbor.utils.pass_at_k: no reward counts as a failure; a reward not exactly 0 or 1, or several keys: none. */
function harborPassAtK(list: HarborTrialResult[]): Record<string, number> {
  const perTask = new Map<string, number[]>();
  for (const t of list) {
    const rewards = t.verifier_result?.rewards ?? null;
    const values = rewards ? Object.values(rewards) : [0];
    if (values.length !== 1 || (values[0] !== 0 && values[0] !== 1)) return {};
    perTask.set(t.task_name, [...(perTask.get(t.task_name) ?? []), values[0]]);
  }
  if (perTask.size === 0) return {};
  const tasks = [...perTask.values()];
  const minN = Math.min(...tasks.map((s) => s.length));
  // Harbor's k values start at 2 (assay's table adds k = 1).
  const ks = eligibleK(minN).filter((k) => k > 1);
  const at = (k: number) =>
    tasks.reduce((sum, s) => sum + passAtKForTask(s.length, s.filter((v) => v === 1).length, k), 0) / tasks.length;
  return Object.fromEntries(ks.map((k) => [String(k), at(k)]));
}

function disagreementsOf(harbor: HarborEvalNumbers | null, own: HarborEvalNumbers | null): string[] {
  if (!harbor) return ['not in the stats of result.json'];
  if (!own) return ['no trial folder of this eval'];
  const out: string[] = [];
  if (harbor.nTrials !== own.nTrials) out.push(`n_trials ${harbor.nTrials}, the trial folders ${own.nTrials}`);
  if (harbor.nErrors !== own.nErrors) out.push(`n_errors ${harbor.nErrors}, the trial folders ${own.nErrors}`);
  const mean = own.metrics[0] ?? {};
  const sameKeys = harbor.metrics.find((m) => Object.keys(m).sort().join() === Object.keys(mean).sort().join());
  if (!sameKeys) out.push(`no metric with the keys of the mean (${Object.keys(mean).join(', ')}): not compared`);
  else if (Object.entries(mean).some(([k, v]) => !close(sameKeys[k], v)))
    out.push(`metric ${formatNumbers(sameKeys)}, the mean over the trial folders ${formatNumbers(mean)}`);
  const ks = [...new Set([...Object.keys(harbor.passAtK), ...Object.keys(own.passAtK)])];
  if (ks.some((k) => !close(harbor.passAtK[k], own.passAtK[k])))
    out.push(`pass@k ${formatNumbers(harbor.passAtK)}, the trial folders ${formatNumbers(own.passAtK)}`);
  return out;
}

/** `key value, …` with 3 decimals; `none` for an empty map. */
export function formatNumbers(m: Record<string, number | null>): string {
  const parts = Object.entries(m).map(([k, v]) => `${k} ${v === null ? '—' : Number(v.toFixed(3))}`);
  return parts.length > 0 ? parts.join(', ') : 'none';
}

/** Lines for the CLI: Harbor's own numbers per eval, and each disagreement with the trial folders. */
export function formatHarborJobStats(jobId: string, c: HarborJobStatsComparison): string[] {
  const lines = [
    `harbor stats: ${jobId}: ${c.completed.harbor ?? '—'} trials completed, ${c.errored.harbor ?? '—'} errored (the trial folders: ${c.completed.recomputed}, ${c.errored.recomputed})`,
  ];
  for (const [name, n] of [
    ['completed', c.completed],
    ['errored', c.errored],
  ] as const)
    if (n.harbor !== null && n.harbor !== n.recomputed)
      lines.push(
        `note: ${jobId}: Harbor's stats disagree: ${n.harbor} trials ${name}, the trial folders ${n.recomputed}`,
      );
  for (const e of c.evals) {
    const h = e.harbor;
    const shown = h
      ? `${h.nTrials} trials with rewards, ${h.nErrors} errors, ${h.metrics.map(formatNumbers).join('; ') || 'no metric'}, pass@k ${formatNumbers(h.passAtK)}`
      : 'not in the stats';
    const agree = e.disagreements.length === 0 ? ' (the trial folders agree)' : '';
    lines.push(`harbor stats: ${jobId}: ${e.eval}: ${shown}${agree}`);
    for (const d of e.disagreements) lines.push(`note: ${jobId}: ${e.eval}: Harbor's stats disagree: ${d}`);
  }
  return lines;
}
