// What a record's provenance says about its agent: the image its container ran, the limits the engine applied
// and the models and response ids the provider named, from the agent runs behind the record (one, a multi-step
// task's steps, a project's subtasks).
import type { Provenance } from '@assay/core';
import type { ResponseIds } from '@assay/harnesses';
import { agentResultKey, type ResultsStore } from '@assay/results';
import type { AgentRun } from './run-harness.js';

export type AgentProvenance = Pick<
  Provenance,
  'agentImage' | 'agentImageTag' | 'models' | 'resources' | 'responses' | 'harnessVersion'
>;

/**
 * The first run's image that has one (runs of one system share it); the models of every run, once each; the
 * response ids of every run in order (their counts summed, the first run's first and the last run's last).
 * Models and responses are absent when no run went through the model proxy (scripted agents), not empty.
 */
export function agentProvenanceOf(runs: AgentRun[]): AgentProvenance {
  const image = runs.find((r) => r.image)?.image;
  const enforced = runs.find((r) => r.enforced)?.enforced;
  // The CLI's version, as its image recorded it at build time (runs of one system share it; scripted: none).
  const harnessVersion = runs.find((r) => r.harnessVersion)?.harnessVersion;
  // A result stored before the proxy named models has none to tell (unknown), not none seen.
  const proxied = runs.flatMap((r) => (Array.isArray(r.proxyUsage?.models) ? [r.proxyUsage.models] : []));
  const models = [...new Set(proxied.flat())];
  const responses = responsesOf(runs);
  return {
    ...(image ? { agentImage: image.id, agentImageTag: image.tag } : {}),
    ...(enforced ? { resources: enforced } : {}),
    ...(harnessVersion ? { harnessVersion } : {}),
    ...(proxied.length > 0 ? { models } : {}),
    ...(responses ? { responses } : {}),
  };
}

/** The runs' response ids in order; undefined when no run tells them (no proxy, or stored before it counted them). */
function responsesOf(runs: AgentRun[]): Provenance['responses'] {
  const counted = runs.flatMap((r) => {
    const ids: unknown = r.proxyUsage?.responseIds;
    return isResponseIds(ids) ? [ids] : [];
  });
  if (counted.length === 0) return undefined;
  return {
    count: counted.reduce((sum, ids) => sum + ids.count, 0),
    first: counted.find((ids) => ids.first !== null)?.first ?? null,
    last: [...counted].reverse().find((ids) => ids.last !== null)?.last ?? null,
  };
}

function isResponseIds(v: unknown): v is ResponseIds {
  if (typeof v !== 'object' || v === null) return false;
  const ids = v as Record<string, unknown>;
  const idOrNull = (x: unknown) => x === null || typeof x === 'string';
  return Number.isInteger(ids.count) && (ids.count as number) >= 0 && idOrNull(ids.first) && idOrNull(ids.last);
}

/** The agent runs stored under these keys (`…/agent-result.json`), in order; missing ones are left out. */
export async function readAgentRuns(store: ResultsStore, keys: string[]): Promise<AgentRun[]> {
  const runs = await Promise.all(keys.map(async (k) => (await store.getJson(agentResultKey(k))) as AgentRun | null));
  return runs.filter((r): r is AgentRun => r !== null);
}
