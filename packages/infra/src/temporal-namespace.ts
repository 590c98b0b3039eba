// Namespace settings assay relies on: retention long enough that a finished multi-day job's
// histories are still there for `assay status` weeks later, and Keyword search attributes
// that let us list a job's workflows by job/system/task/harness/model.
import { messages } from './messages.js';
import { run, runChecked, sleep, type Log } from './run.js';

export const ASSAY_SEARCH_ATTRIBUTES = [
  'AssayJob',
  'AssaySystem',
  'AssayTask',
  'AssayHarness',
  'AssayModel',
  'AssayHost',
] as const;
export const MIN_RETENTION_HOURS = 720;

export interface NamespaceState {
  retentionHours: number;
  searchAttributes: Record<string, string>;
}

export interface NamespaceOptions {
  binary: string;
  address: string;
  namespace: string;
  log: Log;
}

function conn(o: NamespaceOptions): string[] {
  return ['--address', o.address, '--namespace', o.namespace, '--color', 'never'];
}

export async function describeNamespace(o: NamespaceOptions): Promise<NamespaceState> {
  const ns = await runChecked(o.binary, ['operator', 'namespace', 'describe', ...conn(o), '-o', 'json'], {
    timeoutMs: 20_000,
  });
  const ttl = String(
    (JSON.parse(ns.stdout) as { config?: { workflowExecutionRetentionTtl?: string } }).config
      ?.workflowExecutionRetentionTtl ?? '0s',
  );
  const sa = await runChecked(o.binary, ['operator', 'search-attribute', 'list', ...conn(o), '-o', 'json'], {
    timeoutMs: 20_000,
  });
  const custom = (JSON.parse(sa.stdout) as { customAttributes?: Record<string, string> }).customAttributes ?? {};
  return { retentionHours: Number.parseFloat(ttl) / 3600, searchAttributes: custom };
}

/** Raises retention to >= MIN_RETENTION_HOURS and registers assay's search attributes; skips what is already right. */
export async function configureNamespace(o: NamespaceOptions): Promise<NamespaceState> {
  let state = await describeNamespace(o);
  if (state.retentionHours < MIN_RETENTION_HOURS) {
    o.log(`namespace ${o.namespace}: retention ${state.retentionHours} h -> ${MIN_RETENTION_HOURS} h`);
    await runChecked(
      o.binary,
      ['operator', 'namespace', 'update', ...conn(o), '--retention', `${MIN_RETENTION_HOURS}h`],
      { timeoutMs: 20_000 },
    );
  } else {
    o.log(`namespace ${o.namespace}: retention ${state.retentionHours} h (ok)`);
  }
  for (const name of ASSAY_SEARCH_ATTRIBUTES) {
    const type = state.searchAttributes[name];
    if (type === undefined) {
      // One name per call: temporal 1.9.1 silently registers only the first of several --name flags.
      o.log(`namespace ${o.namespace}: registering search attribute ${name} (Keyword)`);
      const r = await run(
        o.binary,
        ['operator', 'search-attribute', 'create', ...conn(o), '--name', name, '--type', 'Keyword'],
        { timeoutMs: 20_000 },
      );
      if (r.code !== 0 && !/already exists/i.test(r.stderr + r.stdout)) {
        throw new Error(
          messages.commandFailed(
            `temporal operator search-attribute create --name ${name}`,
            r.code,
            (r.stderr + r.stdout).trim(),
          ),
        );
      }
    } else if (type !== 'INDEXED_VALUE_TYPE_KEYWORD') {
      throw new Error(messages.temporalTypeConflict(name, type));
    }
  }
  // Verify: search-attribute registration can take a moment to become visible.
  for (let attempt = 0; ; attempt++) {
    state = await describeNamespace(o);
    const missing = ASSAY_SEARCH_ATTRIBUTES.filter((n) => state.searchAttributes[n] === undefined);
    if (state.retentionHours < MIN_RETENTION_HOURS)
      throw new Error(messages.temporalRetentionNotApplied(o.namespace, state.retentionHours * 3600));
    if (missing.length === 0) break;
    if (attempt >= 10) throw new Error(messages.temporalSearchAttributeMissing(missing));
    await sleep(500);
  }
  o.log(`namespace ${o.namespace}: search attributes ${ASSAY_SEARCH_ATTRIBUTES.join(', ')} present`);
  return state;
}
