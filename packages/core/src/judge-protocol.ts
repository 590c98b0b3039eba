// The judge as evaluation sees it: items in, decisions by id out. Any judge (the agent
// judge of @assay/judge, a human-label replay, a test double) implements this one type.
import type { Decision } from './trial-record.js';

export interface JudgeRequestItem {
  id: string;
  text: string;
  /** Dimension or target, for batching and agreement reports. */
  group: string;
}

export interface JudgeRequest {
  items: readonly JudgeRequestItem[];
  /** What the agent was asked: the task request, the subtask instructions, or the project objective. */
  context: { id: string; title?: string | undefined; request: string };
  /** Local folder holding the submission (the deliverables as the agent left them). */
  submissionDir: string;
}

export interface JudgeAnswer {
  decision: Decision;
  reason: string;
  /** Anchors the judge cited (file + location). */
  evidence: readonly string[];
  /** Who judged and at what cost (identity, phase, attempts, usage...), kept in the record. */
  meta?: Record<string, unknown> | undefined;
}

/** Items the judge does not answer stay unjudged. */
export type Judge = (request: JudgeRequest) => Promise<ReadonlyMap<string, JudgeAnswer>>;
