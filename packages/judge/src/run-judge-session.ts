// One agent-judge session: the model reads the evidence through tools for a bounded number
// of steps and ends by calling a submit tool. Malformed submissions get a bounded number of
// corrections; nothing is ever inferred from free text.
import type { EvidenceSource } from './evidence-source.js';
import {
  ModelCallError,
  TurnDeferred,
  type ChatTurn,
  type JudgeModel,
  type ModelReply,
  type ToolCall,
  type ToolResult,
  type ToolSpec,
} from './judge-model.js';
import { messages } from './messages.js';
import { SUBMIT_MANY, SUBMIT_ONE, systemPrompt, userPrompt } from './prompts.js';
import { parseSubmission, runEvidenceTool, toolSpecs, type SubmittedVerdict } from './judge-tools.js';
import type { JudgeContext, JudgeItem, SessionRecord } from './types.js';

export interface SessionInput {
  id: string;
  phase: SessionRecord['phase'];
  attempt: number;
  model: JudgeModel;
  evidence: EvidenceSource;
  context: JudgeContext;
  items: readonly JudgeItem[];
  overview: string;
  maxSteps: number;
  /** Corrections offered after a malformed reply before the session gives up. */
  correctionTurns: number;
  signal?: AbortSignal;
}

export interface SessionOutput {
  record: SessionRecord;
  verdicts: Map<string, SubmittedVerdict>;
  /** The model the provider named in the reply that submitted `verdicts` (null: none submitted, or none named). */
  reportedModel: string | null;
  /** A turn's reply is not known yet (batch judging): the session is to be replayed, not recorded. */
  deferred?: true;
}

/** What a session carries from step to step. */
interface Session {
  input: SessionInput;
  many: boolean;
  itemIds: string[];
  system: string;
  tools: ToolSpec[];
  turns: ChatTurn[];
  record: SessionRecord;
  verdicts: Map<string, SubmittedVerdict>;
  corrections: number;
  reportedModel: string | null;
  deferred: boolean;
}

type StepEnd = 'continue' | 'stop';

export async function runJudgeSession(input: SessionInput): Promise<SessionOutput> {
  const started = performance.now();
  const session = openSession(input);
  for (let step = 1; step <= input.maxSteps; step += 1) {
    if (input.signal?.aborted) {
      session.record.outcome = 'cancelled';
      break;
    }
    session.record.steps = step;
    const reply = await requestReply(session);
    if (session.deferred) return { record: session.record, verdicts: new Map(), reportedModel: null, deferred: true };
    if (reply === null || (await handleReply(session, reply)) === 'stop') break;
  }
  session.record.resolvedItemIds = [...session.verdicts.keys()];
  session.record.wallMs = performance.now() - started;
  return { record: session.record, verdicts: session.verdicts, reportedModel: session.reportedModel };
}

function openSession(input: SessionInput): Session {
  const many = input.items.length > 1;
  const itemIds = input.items.map((i) => i.id);
  return {
    input,
    many,
    itemIds,
    system: systemPrompt(many),
    tools: toolSpecs(many),
    turns: [{ role: 'user', ...userPrompt(input.context, input.items, input.overview) }],
    record: {
      id: input.id,
      phase: input.phase,
      itemIds,
      attempt: input.attempt,
      calls: 0,
      steps: 0,
      malformedReplies: 0,
      usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteInputTokens: 0 },
      wallMs: 0,
      modelMs: 0,
      outcome: 'max-steps',
      resolvedItemIds: [],
    },
    verdicts: new Map(),
    corrections: input.correctionTurns,
    reportedModel: null,
    deferred: false,
  };
}

/** One timed model request, its reply added to the conversation; null when it failed (the record says how). */
async function requestReply(s: Session): Promise<ModelReply | null> {
  const { record, input } = s;
  const t0 = performance.now();
  let reply: ModelReply;
  try {
    record.calls += 1;
    reply = await input.model.complete({ system: s.system, turns: s.turns, tools: s.tools, signal: input.signal });
  } catch (err) {
    record.modelMs += performance.now() - t0;
    if (err instanceof TurnDeferred) {
      s.deferred = true;
      return null;
    }
    recordModelError(record, err);
    return null;
  }
  record.modelMs += performance.now() - t0;
  record.usage.inputTokens += reply.usage.inputTokens;
  record.usage.outputTokens += reply.usage.outputTokens;
  record.usage.cachedInputTokens += reply.usage.cachedInputTokens;
  record.usage.cacheWriteInputTokens += reply.usage.cacheWriteInputTokens;
  s.turns.push({ role: 'assistant', text: reply.text, toolCalls: reply.toolCalls });
  return reply;
}

function recordModelError(record: SessionRecord, err: unknown): void {
  const e = err instanceof ModelCallError ? err : new ModelCallError(String(err), 'error');
  record.outcome = e.kind === 'timeout' ? 'timeout' : e.kind === 'cancelled' ? 'cancelled' : 'model-error';
  record.error = e.message;
}

async function handleReply(s: Session, reply: ModelReply): Promise<StepEnd> {
  const submit = reply.toolCalls.find((c) => c.name === SUBMIT_ONE || c.name === SUBMIT_MANY);
  if (submit) return takeSubmission(s, reply, submit);
  // Plain text: the verdict must come through the submit tool.
  if (reply.toolCalls.length === 0)
    return offerCorrection(s, { role: 'user', text: messages.submitMissing(s.many ? SUBMIT_MANY : SUBMIT_ONE) });
  await runEvidenceTools(s, reply.toolCalls);
  return 'continue';
}

function takeSubmission(s: Session, reply: ModelReply, submit: ToolCall): StepEnd {
  const parsed = parseSubmission(submit, s.itemIds);
  if (!parsed.ok) {
    const results: ToolResult[] = reply.toolCalls.map((c) => ({
      callId: c.id,
      name: c.name,
      text: c === submit ? messages.submitInvalid(parsed.error) : 'not run: the submission was rejected',
    }));
    return offerCorrection(s, { role: 'tool-results', results });
  }
  for (const v of parsed.verdicts) s.verdicts.set(v.itemId, v);
  s.reportedModel = reply.model;
  if (parsed.rejected.length > 0) s.record.malformedReplies += 1;
  s.record.outcome = s.verdicts.size === s.itemIds.length ? 'complete' : 'partial';
  return 'stop';
}

/** Count a malformed reply; answer it with `correction` while corrections remain. */
function offerCorrection(s: Session, correction: ChatTurn): StepEnd {
  s.record.malformedReplies += 1;
  s.record.outcome = 'malformed';
  if (s.corrections <= 0) return 'stop';
  s.corrections -= 1;
  s.turns.push(correction);
  return 'continue';
}

async function runEvidenceTools(s: Session, calls: ToolCall[]): Promise<void> {
  const results: ToolResult[] = [];
  for (const call of calls) results.push(await runEvidenceTool(call, s.input.evidence));
  // Counted for StartupBench's per-item `multimodal`: did the judge look at a page image?
  const shown = results.filter((r) => r.image !== undefined).length;
  if (shown > 0) s.record.viewedPages = (s.record.viewedPages ?? 0) + shown;
  s.turns.push({ role: 'tool-results', results });
  s.record.outcome = 'max-steps';
}
