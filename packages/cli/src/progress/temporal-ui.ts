// Links into the Temporal Web UI. The base URL is ASSAY_TEMPORAL_UI when set, else the UI of the
// dev server assay started (its state file names it); with neither, there is no link.
import { projectWorkflowId, trialWorkflowId } from '@assay/core';

export interface TemporalUi {
  base: string;
  namespace: string;
}

/** The UI to link to, or null when it is unknown (then no link is printed). */
export function temporalUiOf(env: NodeJS.ProcessEnv, namespace: string, devServerUi?: string): TemporalUi | null {
  const base = env.ASSAY_TEMPORAL_UI?.trim() || devServerUi;
  if (!base) return null;
  return { base: base.replace(/\/+$/, ''), namespace };
}

export function workflowLink(ui: TemporalUi | null, workflowId: string): string | null {
  if (!ui) return null;
  return `${ui.base}/namespaces/${encodeURIComponent(ui.namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}

/** The link of a unit's own workflow (trial or project), by its key. */
export function unitLink(ui: TemporalUi | null, jobId: string, unit: { key: string; kind: string }): string | null {
  const id = unit.kind === 'project' ? projectWorkflowId(jobId, unit.key) : trialWorkflowId(jobId, unit.key);
  return workflowLink(ui, id);
}
