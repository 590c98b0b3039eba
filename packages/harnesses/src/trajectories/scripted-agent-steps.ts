// Assay's scripted agents (oracle, nop, the flawed variants) call no model: their run is one deterministic agent
// step (llm_call_count 0, so no metrics) saying what the script logged, with the files its summary line names.
import type { DraftStep } from '../atif-trajectory.js';
import { jsonLines } from '../json-lines.js';

const LOG_PREFIX = '[assay-agent] ';
/** What the script prints to stderr when it stops on a bad configuration or a crash. */
const ERROR_PREFIX = 'assay-agent: ';

export function scriptedAgentSteps(logs: string): DraftStep[] {
  const said: string[] = [];
  for (const raw of logs.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith(LOG_PREFIX)) said.push(line.slice(LOG_PREFIX.length));
    else if (line.startsWith(ERROR_PREFIX)) said.push(line);
  }
  const summary = jsonLines(logs)
    .filter((e) => typeof e.agent === 'string' && Array.isArray(e.files))
    .pop();
  if (!summary && said.length === 0) return [];
  return [
    {
      source: 'agent',
      message: said.join('\n'),
      llm_call_count: 0,
      ...(summary ? { extra: { files: summary.files } } : {}),
    },
  ];
}
