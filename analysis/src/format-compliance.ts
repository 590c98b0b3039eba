// StartupBench Table 5: output-format compliance (deterministic, from detected file
// types) on tasks that require a format. Infrastructure-failed trials are not the
// agent's doing and are left out, and counted.
import type { ColumnTable } from 'arquero';
import { groupBy, rowsOf, tableOf } from './table-helpers.js';

export function formatCompliance(trials: ColumnTable): ColumnTable {
  const rows = rowsOf<{
    system: string;
    task: string;
    status: string;
    format_required: boolean;
    format_compliant: boolean | null;
  }>(trials.select('system', 'task', 'status', 'format_required', 'format_compliant')).filter((r) => r.format_required);
  const out = [...groupBy(rows, (r) => r.system).entries()].map(([system, list]) => {
    const counted = list.filter((r) => r.status !== 'infra-failed');
    const ok = counted.filter((r) => r.format_compliant === true).length;
    return {
      system,
      tasks: new Set(counted.map((r) => r.task)).size,
      runs: counted.length,
      compliant: ok,
      excluded_infra: list.length - counted.length,
      compliance: counted.length ? (100 * ok) / counted.length : null,
    };
  });
  return tableOf(out, ['system', 'tasks', 'runs', 'compliant', 'excluded_infra', 'compliance']);
}
