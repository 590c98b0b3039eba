// One agent-judge session: the model reads the evidence through tools for a bounded number
// of steps and ends by calling a submit tool. Malformed submissions get a bounded number of
// corrections; nothing is ever inferred from free text.
import type { EvidenceSource } from './evidence-source.js';
import { ModelCallError, type ChatTurn, type JudgeModel, type ToolResult } from './judge-model.js';
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
}

export async function runJudgeSession(input: SessionInput): Promise<SessionOutput> {
  const started = performance.now();
  const many = input.items.length > 1;
  const itemIds = input.items.map((i) => i.id);
  const tools = toolSpecs(many);
  const system = systemPrompt(many);
  const turns: ChatTurn[] = [{ role: 'user', text: userPrompt(input.context, input.items, input.overview) }];
  const verdicts = new Map<string, SubmittedVerdict>();
  const record: SessionRecord = {
    id: input.id,
    phase: input.phase,
    itemIds,
    attempt: input.attempt,
    calls: 0,
    steps: 0,
    malformedReplies: 0,
    usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
    wallMs: 0,
    modelMs: 0,
    outcome: 'max-steps',
    resolvedItemIds: [],
  };
  let corrections = input.correctionTurns;
  let reportedModel: string | null = null;

  for (let step = 1; step <= input.maxSteps; step += 1) {
    if (input.signal?.aborted) {
      record.outcome = 'cancelled';
      break;
    }
    record.steps = step;
    const t0 = performance.now();
    let reply;
    try {
      record.calls += 1;
      reply = await input.model.complete({ system, turns, tools, signal: input.signal });
    } catch (err) {
      record.modelMs += performance.now() - t0;
      const e = err instanceof ModelCallError ? err : new ModelCallError(String(err), 'error');
      record.outcome = e.kind === 'timeout' ? 'timeout' : e.kind === 'cancelled' ? 'cancelled' : 'model-error';
      record.error = e.message;
      break;
    }
    record.modelMs += performance.now() - t0;
    record.usage.inputTokens += reply.usage.inputTokens;
    record.usage.outputTokens += reply.usage.outputTokens;
    record.usage.cachedInputTokens += reply.usage.cachedInputTokens;
    turns.push({ role: 'assistant', text: reply.text, toolCalls: reply.toolCalls });

    const submit = reply.toolCalls.find((c) => c.name === SUBMIT_ONE || c.name === SUBMIT_MANY);
    if (submit) {
      const parsed = parseSubmission(submit, itemIds);
      if (parsed.ok) {
        for (const v of parsed.verdicts) verdicts.set(v.itemId, v);
        reportedModel = reply.model;
        if (parsed.rejected.length > 0) record.malformedReplies += 1;
        record.outcome = verdicts.size === itemIds.length ? 'complete' : 'partial';
        break;
      }
      record.malformedReplies += 1;
      record.outcome = 'malformed';
      if (corrections <= 0) break;
      corrections -= 1;
      const results: ToolResult[] = reply.toolCalls.map((c) => ({
        callId: c.id,
        name: c.name,
        text: c === submit ? messages.submitInvalid(parsed.error) : 'not run: the submission was rejected',
      }));
      turns.push({ role: 'tool-results', results });
      continue;
    }
    if (reply.toolCalls.length === 0) {
      // Plain text: the verdict must come through the submit tool.
      record.malformedReplies += 1;
      record.outcome = 'malformed';
      if (corrections <= 0) break;
      corrections -= 1;
      turns.push({ role: 'user', text: messages.submitMissing(many ? SUBMIT_MANY : SUBMIT_ONE) });
      continue;
    }
    const results: ToolResult[] = [];
    for (const call of reply.toolCalls) results.push(await runEvidenceTool(call, input.evidence));
    turns.push({ role: 'tool-results', results });
    record.outcome = 'max-steps';
  }
  record.resolvedItemIds = [...verdicts.keys()];
  record.wallMs = performance.now() - started;
  return { record, verdicts, reportedModel };
}
