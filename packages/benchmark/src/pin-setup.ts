// What a job's trials are run under besides its units, field by field: each system (harness, model, settings)
// and the conditions every trial shares (the judge setup, limits, resources). The job lock pins them so a
// system changed under the same id, or a judge or limit changed mid-job, is never pooled with the trials
// before it. Short plain values are kept as they are (so a refusal can say "model a → b"), the rest hashed.
import { digestJson, HASHED_PREFIX, type JobSpec, type SetupPin } from '@assay/core';

const SHOWN_LENGTH = 60;

function shown(value: unknown): string {
  const plain = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
  if (plain && String(value).length <= SHOWN_LENGTH && !/[\r\n]/.test(String(value))) return String(value);
  return `${HASHED_PREFIX}${digestJson(value)}`;
}

/** `{a: {b: 1}, c: [1]}` → `{'a.b': '1', c: 'sha256:…'}`: objects flattened by path, anything else one field. */
function flatten(
  value: Record<string, unknown>,
  prefix = '',
  out: Record<string, string> = {},
): Record<string, string> {
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const name = `${prefix}${key}`;
    if (v !== null && typeof v === 'object' && !Array.isArray(v))
      flatten(v as Record<string, unknown>, `${name}.`, out);
    else out[name] = shown(v);
  }
  return out;
}

// How judging runs (batch size, concurrency, attempts, timeout, prompt caching, through a provider batch) does not
// change what a verdict is.
const JUDGE_PACING = ['batchSize', 'concurrency', 'attempts', 'timeoutSeconds', 'promptCache', 'batch'] as const;

export function pinSetup(spec: JobSpec): SetupPin {
  const systems: SetupPin['systems'] = {};
  for (const { id, ...system } of spec.systems) systems[id] = flatten(system);
  const judge: Record<string, unknown> = { ...spec.judge };
  for (const f of JUDGE_PACING) delete judge[f];
  return { systems, conditions: flatten({ judge, limits: spec.limits, resources: spec.resources }) };
}
