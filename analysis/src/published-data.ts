// File I/O edge for the papers' published figures (analysis/published/*.csv, sources in its README.md).
// Read from the repository's own copy unless ASSAY_PUBLISHED_DIR (or an explicit folder) says otherwise.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as aq from 'arquero';
import type { ColumnTable } from 'arquero';
import { messages } from './messages.js';

const SOURCE_DIR = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(SOURCE_DIR, '../..');
/**
 * The published CSVs shipped in the repository. Found from this source file, which the compiled CLI
 * (scripts/build-cli.mjs rewrites import.meta.url to the source's URL) resolves the same way.
 */
export const DEFAULT_PUBLISHED_DIR = path.resolve(SOURCE_DIR, '../published');

export function resolvePublishedDir(explicit?: string): string {
  const dir = explicit ?? (process.env.ASSAY_PUBLISHED_DIR || DEFAULT_PUBLISHED_DIR);
  if (!existsSync(dir)) throw new Error(messages.publishedDirMissing(dir));
  return dir;
}

export interface PublishedData {
  dir: string;
  /** StartupBench Table 3: model, domain (incl. Overall), avg_score, success_rate_pct. */
  startupTable3: ColumnTable;
  /** StartupBench domains: domain, tasks. */
  startupDomains: ColumnTable;
  /** StartupBench Table 4: model, level, satisfaction_pct. */
  startupTable4: ColumnTable;
  /** StartupBench Table 5: model, compliance_pct. */
  startupTable5: ColumnTable;
  /** StartupBench Table 6: model, harness, avg_score. */
  startupTable6: ColumnTable;
  /** StartupBench Table 7: agent_system, avg_score, success_rate_pct. */
  startupTable7: ColumnTable;
  /** StartupBench Fig. 4: model, dimension, weighted_pass_rate_pct. */
  startupFigure4: ColumnTable;
  /** DeliverBench Table 5: project, system, final_delivery, process. */
  deliverTable5: ColumnTable;
  /** DeliverBench Table 4: system, model, harness, cli_version. */
  deliverSystems: ColumnTable;
}

const FILES: Record<Exclude<keyof PublishedData, 'dir'>, [string, string[]]> = {
  startupTable3: ['startupbench_table3.csv', ['model', 'domain', 'avg_score', 'success_rate_pct']],
  startupDomains: ['startupbench_domains.csv', ['domain', 'tasks']],
  startupTable4: ['startupbench_table4_importance.csv', ['model', 'level', 'satisfaction_pct']],
  startupTable5: ['startupbench_table5_format_compliance.csv', ['model', 'compliance_pct']],
  startupTable6: ['startupbench_table6_harness_swap.csv', ['model', 'harness', 'avg_score']],
  startupTable7: ['startupbench_table7_general_vs_specialized.csv', ['agent_system', 'avg_score', 'success_rate_pct']],
  startupFigure4: ['startupbench_figure4_dimensions.csv', ['model', 'dimension', 'weighted_pass_rate_pct']],
  deliverTable5: ['deliverbench_table5.csv', ['project', 'system', 'final_delivery', 'process']],
  deliverSystems: ['deliverbench_systems.csv', ['system', 'model', 'harness', 'cli_version']],
};

export function loadPublished(dir: string): PublishedData {
  const out: Partial<PublishedData> = { dir };
  for (const [key, [file, columns]] of Object.entries(FILES) as [
    Exclude<keyof PublishedData, 'dir'>,
    [string, string[]],
  ][]) {
    const full = path.join(dir, file);
    if (!existsSync(full)) throw new Error(messages.publishedFileMissing(full));
    // Keep identifiers as text (cli_version "0.60.0" must not become a number).
    const t = aq.fromCSV(readFileSync(full, 'utf8'), { autoType: false });
    for (const c of columns)
      if (!t.columnNames().includes(c)) throw new Error(messages.publishedColumnMissing(full, c));
    const numeric = columns.filter((c) =>
      [
        'avg_score',
        'success_rate_pct',
        'tasks',
        'satisfaction_pct',
        'compliance_pct',
        'weighted_pass_rate_pct',
        'final_delivery',
        'process',
      ].includes(c),
    );
    out[key] = numeric.length
      ? t.derive(Object.fromEntries(numeric.map((c) => [c, aq.escape((d: Record<string, unknown>) => Number(d[c]))])))
      : t;
  }
  return out as PublishedData;
}
