// What a record's provenance says about its agent: the image its container ran, the limits the engine applied
// and the models the provider named, from the agent runs behind the record (one, a multi-step task's steps, a
// project's subtasks).
import type { Provenance } from '@assay/core';
import type { ResultsStore } from '@assay/results';
import type { AgentRun } from './run-harness.js';

export type AgentProvenance = Pick<Provenance, 'agentImage' | 'agentImageTag' | 'models' | 'resources'>;

/**
 * The first run's image that has one (runs of one system share it); the models of every run, once each.
 * Models are absent when no run went through the model proxy (scripted agents), not an empty list.
 */
export function agentProvenanceOf(runs: AgentRun[]): AgentProvenance {
  const image = runs.find((r) => r.image)?.image;
  const enforced = runs.find((r) => r.enforced)?.enforced;
  // A result stored before the proxy named models has none to tell (unknown), not none seen.
  const proxied = runs.flatMap((r) => (Array.isArray(r.proxyUsage?.models) ? [r.proxyUsage.models] : []));
  const models = [...new Set(proxied.flat())];
  return {
    ...(image ? { agentImage: image.id, agentImageTag: image.tag } : {}),
    ...(enforced ? { resources: enforced } : {}),
    ...(proxied.length > 0 ? { models } : {}),
  };
}

/** The agent runs stored under these keys (`…/agent-result.json`), in order; missing ones are left out. */
export async function readAgentRuns(store: ResultsStore, keys: string[]): Promise<AgentRun[]> {
  const runs = await Promise.all(
    keys.map(async (k) => (await store.getJson(`${k}/agent-result.json`)) as AgentRun | null),
  );
  return runs.filter((r): r is AgentRun => r !== null);
}
