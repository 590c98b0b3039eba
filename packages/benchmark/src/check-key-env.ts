// Every key a job reads at run time must be in the environment of the process that runs its worker:
// the judge's apiKeyEnv (a mode that calls a model) and each system's settings.apiKeyEnv. Checked
// before anything is submitted, so a missing export fails in a second instead of after the agents
// ran. An issue names the variable, never a value.
import { nameField, type Issue } from './issue.js';
import { rec, records, str, type Path, type Raw } from './loose.js';
import { messages } from './messages.js';
import { ENV_NAME } from '@assay/core';

export interface KeyEnvNeed {
  path: Path;
  env: string;
}

/** The variables a job (as written, or as the schema resolved it) names for its keys. */
export function keyEnvNeeds(raw: Raw): KeyEnvNeed[] {
  const needs: KeyEnvNeed[] = [];
  const judge = rec(raw.judge);
  const judgeEnv = str(judge?.apiKeyEnv);
  // checks-only never calls a model: its key, if named, is not read.
  if (judge && (str(judge.mode) ?? 'checks-only') !== 'checks-only' && judgeEnv)
    needs.push({ path: ['judge', 'apiKeyEnv'], env: judgeEnv });
  for (const { item, index } of records(raw.systems)) {
    const env = str(rec(item.settings)?.apiKeyEnv);
    if (env) needs.push({ path: ['systems', index, 'settings', 'apiKeyEnv'], env });
  }
  // A value that is not a variable name is reported as a secret; it is never looked up or echoed.
  return needs.filter((n) => ENV_NAME.test(n.env));
}

/**
 * The needs `env` does not meet (unset or empty). `here`: the worker runs in this process (`run`,
 * `validate`); `elsewhere`: `run --no-worker`, the check can only speak for this machine.
 */
export function keyEnvIssues(
  file: string,
  raw: Raw,
  env: Record<string, string | undefined>,
  where: 'here' | 'elsewhere',
): Issue[] {
  return keyEnvNeeds(raw)
    .filter((n) => !env[n.env])
    .map((n) => ({ file, field: nameField(n.path, raw), reason: messages.keyEnvUnset(n.env, where) }));
}
