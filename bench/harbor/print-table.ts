// The bench's tables: one row per figure, one column per side, medians over rounds, and each
// figure as a ratio against Harbor's (measured in the same run).
import type { SideResult } from './harbor-side.js';

const median = (xs: number[]): number => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

interface Figure {
  name: string;
  unit: string;
  of: (r: SideResult, trials: number) => number;
}

const FIGURES: Figure[] = [
  { name: 'time per trial (mean)', unit: 's', of: (r) => mean(r.trials.map((t) => t.seconds)) },
  { name: 'time per trial (median)', unit: 's', of: (r) => median(r.trials.map((t) => t.seconds)) },
  { name: "agent's own run per trial", unit: 's', of: (r) => mean(r.trials.map((t) => t.agentSeconds)) },
  {
    name: 'bookkeeping per trial (trial - agent)',
    unit: 's',
    of: (r) => mean(r.trials.map((t) => t.seconds - t.agentSeconds)),
  },
  { name: 'total wall', unit: 's', of: (r) => r.measured.wallSeconds },
  {
    name: 'fixed start (command -> first trial)',
    unit: 's',
    of: (r) => (Math.min(...r.trials.map((t) => t.startMs)) - r.measured.startMs) / 1000,
  },
  {
    name: 'fixed finish (last trial -> exit)',
    unit: 's',
    of: (r) => (r.measured.endMs - Math.max(...r.trials.map((t) => t.endMs))) / 1000,
  },
  { name: 'orchestrator tree CPU', unit: 's', of: (r) => r.measured.cpuSeconds },
  { name: '+ Temporal server CPU', unit: 's', of: (r) => r.extraCpuSeconds },
  { name: 'orchestrator peak RSS', unit: 'MB', of: (r) => r.measured.orchestratorPeakRssMb },
  { name: 'whole tree peak RSS', unit: 'MB', of: (r) => r.measured.treePeakRssMb },
  { name: 'most processes in the tree', unit: '', of: (r) => r.measured.treePeakProcesses },
  { name: 'containers created per trial', unit: '', of: (r, n) => r.created.containers / n },
  { name: 'networks created per trial', unit: '', of: (r, n) => r.created.networks / n },
];

const fmt = (x: number, unit: string): string =>
  Number.isFinite(x) ? `${x >= 100 ? x.toFixed(0) : x.toFixed(unit === 's' ? 2 : 1)}${unit ? ` ${unit}` : ''}` : 'n/a';

export function printTable(results: Map<string, SideResult[]>, opts: { trials: number }): string {
  const names = [...results.keys()];
  const trialsPerRound = 2 * opts.trials;
  const harbor = results.get('harbor');
  const others = names.filter((n) => n !== 'harbor');
  const head = [...names.map((n) => `${n} (median)`), ...(harbor ? others.map((n) => `${n} / Harbor`) : [])];
  const lines = [`| figure | ${head.join(' | ')} |`, `| --- |${' --- |'.repeat(head.length)}`];
  for (const f of FIGURES) {
    const med = new Map(names.map((n) => [n, median(results.get(n)!.map((r) => f.of(r, trialsPerRound)))]));
    const h = harbor ? med.get('harbor')! : NaN;
    const ratios = harbor ? others.map((n) => (h > 0 ? `${(med.get(n)! / h).toFixed(3)}x` : 'n/a')) : [];
    lines.push(`| ${f.name} | ${[...names.map((n) => fmt(med.get(n)!, f.unit)), ...ratios].join(' | ')} |`);
  }
  return lines.join('\n');
}

/** Where a trial's time goes, per side: each phase's mean seconds per trial, median over rounds. */
export function printPhases(results: Map<string, SideResult[]>): string {
  const out: string[] = [];
  for (const [name, rounds] of results) {
    const keys = [...new Set(rounds.flatMap((r) => r.trials.flatMap((t) => Object.keys(t.phases))))];
    out.push(
      `${name}, seconds per trial (mean over trials, median over rounds):`,
      '',
      '| phase | s |',
      '| --- | --- |',
    );
    for (const k of keys) {
      const v = median(rounds.map((r) => mean(r.trials.map((t) => t.phases[k] ?? 0))));
      out.push(`| ${k} | ${v.toFixed(3)} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

/** Each assay column's time per trial above the Docker floor's (medians over rounds), when both ran. */
export function printAboveFloor(results: Map<string, SideResult[]>): string {
  const floor = results.get('docker floor');
  if (!floor) return '';
  const perTrial = (rs: SideResult[]) => median(rs.map((r) => mean(r.trials.map((t) => t.seconds))));
  const agent = (rs: SideResult[]) => median(rs.map((r) => mean(r.trials.map((t) => t.agentSeconds))));
  const base = perTrial(floor);
  const lines = [`docker floor: ${base.toFixed(3)} s per container (the agent's own run ${agent(floor).toFixed(3)} s)`];
  for (const [name, rs] of results) {
    if (!name.startsWith('assay')) continue;
    const above = perTrial(rs) - base;
    lines.push(`${name}: ${perTrial(rs).toFixed(3)} s per trial, ${above.toFixed(3)} s above the floor`);
  }
  return lines.join('\n');
}
