// ATIF (Harbor's Agent Trajectory Interchange Format, harbor.models.trajectories in harbor 0.25.0):
// the types assay writes and the one place that numbers steps and totals their metrics, so every
// per-CLI converter only lists what its output says, in order.

/** The model's default version (harbor 0.25.0: Trajectory.schema_version). */
export const ATIF_SCHEMA_VERSION = 'ATIF-v1.8';

export interface AtifToolCall {
  tool_call_id: string;
  function_name: string;
  arguments: Record<string, unknown>;
}

export interface AtifObservationResult {
  /** The tool_call_id this result answers (a call of the same step). */
  source_call_id?: string;
  content?: string;
  extra?: Record<string, unknown>;
}

export interface AtifMetrics {
  /** Input tokens, cached ones included. */
  prompt_tokens?: number;
  completion_tokens?: number;
  /** The part of prompt_tokens that were cache hits. */
  cached_tokens?: number;
  cost_usd?: number;
}

export interface AtifStep {
  step_id: number;
  timestamp?: string;
  source: 'system' | 'user' | 'agent';
  model_name?: string;
  message: string;
  reasoning_content?: string;
  tool_calls?: AtifToolCall[];
  observation?: { results: AtifObservationResult[] };
  metrics?: AtifMetrics;
  /** 0: a deterministic (non-LLM) agent step, e.g. assay's scripted agents. */
  llm_call_count?: number;
  extra?: Record<string, unknown>;
}

export interface AtifFinalMetrics {
  total_prompt_tokens?: number;
  total_completion_tokens?: number;
  total_cached_tokens?: number;
  total_cost_usd?: number;
  total_steps?: number;
}

export interface AtifTrajectory {
  schema_version: typeof ATIF_SCHEMA_VERSION;
  session_id?: string;
  agent: { name: string; version: string; model_name?: string };
  steps: AtifStep[];
  notes?: string;
  final_metrics?: AtifFinalMetrics;
}

/** What every converter is told besides the CLI's output. */
export interface TrajectoryInput {
  /** This run's stdout + stderr. */
  logs: string;
  /** The instruction the agent was given (the first, "user" step). */
  instruction: string;
  /** The agent system's name and version (a CLI's package version; assay's own for scripted agents). */
  agent: string;
  version: string;
  model?: string;
}

/** A step before numbering. */
export type DraftStep = Omit<AtifStep, 'step_id'>;

/**
 * The trajectory: the instruction first, then the converter's steps, numbered from 1. Totals the CLI reported
 * win; otherwise they are summed from the steps' metrics (none at all: no final_metrics beyond the step count).
 * No agent step: null (nothing was recognised, and an empty run is not invented).
 */
export function assembleTrajectory(
  input: TrajectoryInput,
  steps: DraftStep[],
  reported: AtifFinalMetrics | null = null,
  sessionId?: string | null,
): AtifTrajectory | null {
  if (!steps.some((s) => s.source === 'agent')) return null;
  const all: DraftStep[] = [{ source: 'user', message: input.instruction }, ...steps];
  const numbered = all.map((s, i) => ({ step_id: i + 1, ...s }));
  return {
    schema_version: ATIF_SCHEMA_VERSION,
    ...(sessionId ? { session_id: sessionId } : {}),
    agent: { name: input.agent, version: input.version, ...(input.model ? { model_name: input.model } : {}) },
    steps: numbered,
    final_metrics: { ...(reported ?? summedMetrics(numbered)), total_steps: numbered.length },
  };
}

function summedMetrics(steps: AtifStep[]): AtifFinalMetrics {
  const out: AtifFinalMetrics = {};
  const add = (key: keyof AtifFinalMetrics, v: number | undefined) => {
    if (v !== undefined) out[key] = (out[key] ?? 0) + v;
  };
  for (const s of steps) {
    add('total_prompt_tokens', s.metrics?.prompt_tokens);
    add('total_completion_tokens', s.metrics?.completion_tokens);
    add('total_cached_tokens', s.metrics?.cached_tokens);
    add('total_cost_usd', s.metrics?.cost_usd);
  }
  return out;
}

/** Tool arguments as ATIF wants them (an object): a JSON-encoded object is decoded, anything else wrapped. */
export function toolArguments(v: unknown): Record<string, unknown> {
  if (typeof v === 'string') {
    try {
      return toolArguments(JSON.parse(v) as unknown);
    } catch {
      return { input: v };
    }
  }
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  return v === undefined || v === null ? {} : { input: v };
}

/** A tool result's content as text (CLIs give a string, or a list of text parts). */
export function resultText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) {
    const parts = v.map((p) => (typeof p === 'string' ? p : textOf(p))).filter((t): t is string => t !== undefined);
    return parts.length > 0 ? parts.join('\n') : undefined;
  }
  return undefined;
}

function textOf(p: unknown): string | undefined {
  if (typeof p !== 'object' || p === null) return undefined;
  const t = (p as { text?: unknown }).text;
  return typeof t === 'string' ? t : undefined;
}

/** Metrics with only the fields the CLI reported. */
export function metricsOf(m: AtifMetrics): AtifMetrics | undefined {
  const out = Object.fromEntries(Object.entries(m).filter(([, v]) => typeof v === 'number')) as AtifMetrics;
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * A tool's result, on the latest step that made the call `id` (ATIF: source_call_id names a call of its own
 * step); a result of a call no step made is left out.
 */
export function attachResult(steps: DraftStep[], id: string, content: string | undefined): void {
  const step = [...steps].reverse().find((s) => s.tool_calls?.some((c) => c.tool_call_id === id));
  if (!step) return;
  (step.observation ??= { results: [] }).results.push({
    source_call_id: id,
    ...(content !== undefined ? { content } : {}),
  });
}

/** Two pieces of text as paragraphs (either may be missing). */
export const joinText = (a: string | undefined, b: string | undefined): string =>
  a ? (b ? `${a}\n${b}` : a) : (b ?? '');
