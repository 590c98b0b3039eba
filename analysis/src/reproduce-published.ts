// `assay reproduce`: recompute from the published per-cell data what the papers print
// as derived values, with the same functions that analyse a user's own runs, and
// compare at the printed precision.
import type { ColumnTable } from 'arquero';
import { domainOverall, OVERALL } from './domain-profile.js';
import type { DomainRow } from './domain-profile.js';
import { belowEqualScoreLine, deliveryMeans } from './delivery-summary.js';
import type { ProjectOutcome } from './delivery-summary.js';
import { summarizeHarnessSwap } from './harness-swap.js';
import { importanceSummary } from './importance-profile.js';
import { roundTo } from './numeric.js';
import { generalVsSpecialized } from './oracle-best-of-k.js';
import {
  DELIVER_TABLE5_MEANS,
  DELIVER_TEXT,
  STARTUP_TABLE4_AVERAGE,
  STARTUP_TABLE6,
  STARTUP_TEXT,
} from './published-claims.js';
import type { Claim } from './published-claims.js';
import { loadPublished, resolvePublishedDir } from './published-data.js';
import type { PublishedData } from './published-data.js';
import { meanOf, rowsOf, tableOf } from './table-helpers.js';

export interface ReproduceRow {
  benchmark: 'StartupBench' | 'DeliverBench';
  quantity: string;
  /** As printed. */
  published: number;
  /** Unrounded recomputation from the published data. */
  recomputed: number | null;
  /** Printed decimals. */
  digits: number;
  /** Recomputed value rounded to the printed precision equals the printed value. */
  match: boolean;
  source: string;
}

export function reproducePublished(options: { publishedDir?: string } = {}): ReproduceRow[] {
  return reproduceFrom(loadPublished(resolvePublishedDir(options.publishedDir)));
}

export function reproduceFrom(data: PublishedData): ReproduceRow[] {
  return [...reproduceStartup(data), ...reproduceDeliver(data)];
}

function row(
  benchmark: ReproduceRow['benchmark'],
  quantity: string,
  claim: Claim,
  recomputed: number | null,
): ReproduceRow {
  const match =
    recomputed !== null &&
    Number.isFinite(recomputed) &&
    roundTo(recomputed, claim.digits) === roundTo(claim.value, claim.digits);
  return { benchmark, quantity, published: claim.value, recomputed, digits: claim.digits, match, source: claim.source };
}

/** Task-weighted Overall per model from the published domain columns. */
function startupOverall(data: PublishedData): DomainRow[] {
  const counts = new Map(
    rowsOf<{ domain: string; tasks: number }>(data.startupDomains).map((r) => [r.domain, r.tasks]),
  );
  const domainRows = rowsOf<{ model: string; domain: string; avg_score: number; success_rate_pct: number }>(
    data.startupTable3,
  )
    .filter((r) => r.domain !== OVERALL)
    .map((r) => ({
      system: r.model,
      domain: r.domain,
      tasks: counts.get(r.domain) ?? 0,
      mean: r.avg_score,
      success_rate: r.success_rate_pct,
    }));
  return domainOverall(domainRows, counts);
}

function reproduceStartup(data: PublishedData): ReproduceRow[] {
  const overall = startupOverall(data);
  return [
    ...reproduceStartupTable3(data, overall),
    ...reproduceStartupTable4(data),
    ...reproduceStartupTable6(data),
    ...reproduceStartupTable7(data, overall),
    ...reproduceStartupTable5(data),
  ];
}

function startupRow(quantity: string, claim: Claim, recomputed: number | null): ReproduceRow {
  return row('StartupBench', quantity, claim, recomputed);
}

function reproduceStartupTable3(data: PublishedData, overall: readonly DomainRow[]): ReproduceRow[] {
  const out: ReproduceRow[] = [];
  const t3 = rowsOf<{ model: string; domain: string; avg_score: number; success_rate_pct: number }>(data.startupTable3);
  const source = 'StartupBench Table 3, Overall column';
  for (const o of overall) {
    const printed = t3.find((r) => r.model === o.system && r.domain === OVERALL);
    if (!printed) continue;
    out.push(
      startupRow(
        `Table 3 Overall avg score, ${o.system} (task-weighted domains)`,
        { value: printed.avg_score, digits: 2, source },
        o.mean,
      ),
      startupRow(
        `Table 3 Overall success rate, ${o.system} (task-weighted domains)`,
        { value: printed.success_rate_pct, digits: 2, source },
        o.success_rate,
      ),
    );
  }
  const finance = meanOf(t3.filter((r) => r.domain === 'Finance').map((r) => r.avg_score));
  out.push(startupRow('Table 3 Finance avg score, mean over models', STARTUP_TEXT.financeAverage, finance));
  return out;
}

function reproduceStartupTable4(data: PublishedData): ReproduceRow[] {
  const levels = importanceSummary(
    tableOf(
      rowsOf<{ model: string; level: string; satisfaction_pct: number }>(data.startupTable4).map((r) => ({
        system: r.model,
        level: r.level,
        satisfaction: r.satisfaction_pct,
      })),
      ['system', 'level', 'satisfaction'],
    ),
  );
  return [
    ...(['Auxiliary', 'Important', 'Core'] as const).map((level) =>
      startupRow(`Table 4 Average row, ${level}`, STARTUP_TABLE4_AVERAGE[level], levels.average[level] ?? null),
    ),
    startupRow('Table 4 models with Auxiliary > Important > Core', STARTUP_TABLE4_AVERAGE.monotone, levels.monotone),
  ];
}

function reproduceStartupTable6(data: PublishedData): ReproduceRow[] {
  const swap = summarizeHarnessSwap(rowsOf<{ model: string; harness: string; avg_score: number }>(data.startupTable6));
  const wide = rowsOf<Record<string, number | string | null>>(swap.wide);
  const avg = wide.find((r) => r.model === 'Average');
  const taus = swap.taus.map((t) => t.tau).filter((t): t is number => t !== null);
  return [
    ...Object.entries(STARTUP_TABLE6.maxMin).map(([model, claim]) =>
      startupRow(
        `Table 6 Max–Min, ${model}`,
        claim,
        (wide.find((r) => r.model === model)?.max_min as number | undefined) ?? null,
      ),
    ),
    ...Object.entries(STARTUP_TABLE6.average).map(([harness, claim]) =>
      startupRow(`Table 6 Average row, ${harness}`, claim, (avg?.[harness] as number | undefined) ?? null),
    ),
    startupRow('Table 6 Average row, Max–Min', STARTUP_TABLE6.averageMaxMin, swap.averageMaxMin),
    startupRow(
      'Table 6 ranking preserved across harnesses (min Kendall tau)',
      STARTUP_TABLE6.rankingPreserved,
      taus.length ? Math.min(...taus) : null,
    ),
  ];
}

function reproduceStartupTable7(data: PublishedData, overall: readonly DomainRow[]): ReproduceRow[] {
  const general = rowsOf<{ agent_system: string; avg_score: number | null; success_rate: number | null }>(
    generalVsSpecialized(
      overall.map((o) => ({ system: o.system, mean: o.mean, success_rate: o.success_rate })),
      [],
    ),
  ).find((r) => r.agent_system === 'General (All Runs avg)');
  const t7 = rowsOf<{ agent_system: string; avg_score: number; success_rate_pct: number }>(data.startupTable7);
  const spec = t7.find((r) => r.agent_system.startsWith('Specialized'));
  const oracle = t7.find((r) => r.agent_system.includes('Oracle'));
  return [
    startupRow(
      'Table 7 General (All Runs avg) score, mean of Table 3 Overall',
      STARTUP_TEXT.generalAllRunsScore,
      general?.avg_score ?? null,
    ),
    startupRow(
      'Table 7 General (All Runs avg) success, mean of Table 3 Overall',
      STARTUP_TEXT.generalAllRunsSuccess,
      general?.success_rate ?? null,
    ),
    startupRow(
      'Table 7 score gap, Specialized − General (Oracle)',
      STARTUP_TEXT.oracleScoreGap,
      spec && oracle ? spec.avg_score - oracle.avg_score : null,
    ),
    startupRow(
      'Table 7 success gap, Specialized − General (Oracle)',
      STARTUP_TEXT.oracleSuccessGap,
      spec && oracle ? spec.success_rate_pct - oracle.success_rate_pct : null,
    ),
  ];
}

/** Table 5 rates must be whole runs out of 56 tasks x 3 runs. */
function reproduceStartupTable5(data: PublishedData): ReproduceRow[] {
  const runs = STARTUP_TEXT.formatTasks * STARTUP_TEXT.runsPerModel;
  return rowsOf<{ model: string; compliance_pct: number }>(data.startupTable5).map((r) => {
    const k = Math.round((r.compliance_pct / 100) * runs);
    return startupRow(
      `Table 5 compliance, ${r.model}, as ${k} of ${runs} runs`,
      { value: r.compliance_pct, digits: 1, source: 'StartupBench Table 5 (56 tasks x 3 runs)' },
      (100 * k) / runs,
    );
  });
}

export function deliverOutcomes(data: PublishedData): ProjectOutcome[] {
  return rowsOf<{ project: string; system: string; final_delivery: number; process: number }>(data.deliverTable5).map(
    (r) => ({
      system: r.system,
      project: r.project,
      final: r.final_delivery,
      process: r.process,
    }),
  );
}

function reproduceDeliver(data: PublishedData): ReproduceRow[] {
  const D = 'DeliverBench' as const;
  const out: ReproduceRow[] = [];
  const outcomes = deliverOutcomes(data);
  const means = deliveryMeans(outcomes);
  for (const [system, claims] of Object.entries(DELIVER_TABLE5_MEANS)) {
    const m = means.find((x) => x.system === system);
    out.push(row(D, `Table 5 final-delivery Mean, ${system}`, claims.final, m?.final ?? null));
    out.push(row(D, `Table 5 process Mean, ${system}`, claims.process, m?.process ?? null));
  }
  const gaps = means.map((m) => m.gap).filter((g): g is number => g !== null);
  const finals = means.map((m) => m.final).filter((g): g is number => g !== null);
  out.push(
    row(D, 'Process–final gap, smallest over systems', DELIVER_TEXT.gapMin, gaps.length ? Math.min(...gaps) : null),
  );
  out.push(
    row(D, 'Process–final gap, largest over systems', DELIVER_TEXT.gapMax, gaps.length ? Math.max(...gaps) : null),
  );
  const line = belowEqualScoreLine(outcomes);
  out.push(row(D, 'Outcomes below the equal-score line (final < process)', DELIVER_TEXT.below, line.below));
  out.push(row(D, 'System–project outcomes', DELIVER_TEXT.outcomes, line.outcomes));
  out.push(
    row(D, 'Final-delivery mean, lowest system', DELIVER_TEXT.finalMin, finals.length ? Math.min(...finals) : null),
  );
  out.push(
    row(D, 'Final-delivery mean, highest system', DELIVER_TEXT.finalMax, finals.length ? Math.max(...finals) : null),
  );
  const get = (s: string) => means.find((m) => m.system === s);
  out.push(row(D, 'Final-delivery mean, GPT (1 decimal)', DELIVER_TEXT.gptFinal, get('GPT')?.final ?? null));
  out.push(row(D, 'Process mean, Claude (1 decimal)', DELIVER_TEXT.claudeProcess, get('Claude')?.process ?? null));
  out.push(row(D, 'Process mean, GLM (1 decimal)', DELIVER_TEXT.glmProcess, get('GLM')?.process ?? null));
  out.push(row(D, 'Final-delivery mean, GLM (1 decimal)', DELIVER_TEXT.glmFinal, get('GLM')?.final ?? null));
  return out;
}

/** The rows as a table; `printed` and `rounded` are text at each row's printed precision. */
export function reproduceTable(rows: readonly ReproduceRow[]): ColumnTable {
  return tableOf(
    rows.map((r) => ({
      ...r,
      printed: r.published.toFixed(r.digits),
      rounded: r.recomputed === null ? null : roundTo(r.recomputed, r.digits).toFixed(r.digits),
    })),
    ['benchmark', 'quantity', 'published', 'recomputed', 'digits', 'printed', 'rounded', 'match', 'source'],
  );
}

/** Plain-text table for a terminal: published and recomputed side by side, and a summary line. */
export function formatReproduceTable(rows: readonly ReproduceRow[]): string {
  const cells = rows.map((r) => [
    r.benchmark,
    r.quantity,
    r.published.toFixed(r.digits),
    r.recomputed === null
      ? '—'
      : r.digits === 0 && Number.isInteger(r.recomputed)
        ? String(r.recomputed)
        : r.recomputed.toFixed(r.digits + 2),
    r.recomputed === null ? '—' : roundTo(r.recomputed, r.digits).toFixed(r.digits),
    r.match ? 'yes' : 'NO',
  ]);
  const header = ['benchmark', 'quantity', 'published', 'recomputed', 'rounded', 'match'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const line = (c: string[]) =>
    c
      .map((x, i) => (i >= 2 && i <= 4 ? x.padStart(widths[i] as number) : x.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  const matched = rows.filter((r) => r.match).length;
  return [
    line(header),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...cells.map(line),
    '',
    `${matched} of ${rows.length} published values reproduced at printed precision.`,
  ].join('\n');
}
