// Labelling in the viewer: the review queue of a source, a person's review of one item (written beside the
// records, never into them), and the reviews so far. The server fills what the client must not decide: the
// item's content digest and the machine's decision, from the record and the job lock.
import { latestReviews, REVIEW_DECISIONS, REVIEWER_NAME, type Review, type ReviewDecision } from '@assay/core';
import { readReviews, trialRecordKey, writeReview, type RecordProblem } from '@assay/results';
import type { Context, Hono } from 'hono';
import {
  buildReviewQueue,
  candidateKey,
  QUEUE_MODES,
  type QueueMode,
  type ReviewCandidate,
} from './build-review-queue.js';
import { deliverablesOf, NotFoundError } from './build-trial-detail.js';
import { messages } from './messages.js';
import { readSourceRecords } from './read-source-records.js';
import { reviewCandidates } from './review-candidates.js';
import { reviewSourceName, reviewStore } from './review-store.js';
import { sameOriginProblem } from './same-origin.js';
import { submissionView } from './submission-views.js';
import type { ViewerSource } from './viewer-source.js';

export class BadRequestError extends Error {}
export class ForbiddenError extends Error {}

const bad = (field: string, why: string) => new BadRequestError(messages.badField(field, why));

export interface ReviewInput {
  reviewer: string;
  unit: string;
  system: string;
  trial: number;
  itemId: string;
  /** null for a task's item; a project criterion's subtask (its checkpoint) or `final`. */
  scope: string | null;
  decision: ReviewDecision;
  note: string;
  evidence: string[];
  blind: boolean;
}

/** The body of POST /api/reviews/:source, checked field by field (the first bad one is named). */
export function parseReviewInput(body: unknown): ReviewInput {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw bad('body', 'must be a JSON object');
  const b = body as Record<string, unknown>;
  const str = (field: string): string => {
    const v = b[field];
    if (typeof v !== 'string' || v === '') throw bad(field, 'must be a non-empty string');
    return v;
  };
  const reviewer = str('reviewer');
  if (!REVIEWER_NAME.test(reviewer)) throw bad('reviewer', `must match ${REVIEWER_NAME.source}`);
  const unit = str('unit');
  const project = unit.startsWith('projects/');
  if (!project && !unit.startsWith('tasks/')) throw bad('unit', 'must be tasks/<id> or projects/<id>');
  const scope = b.scope ?? null;
  if (project && (typeof scope !== 'string' || scope === ''))
    throw bad('scope', 'must name the subtask whose checkpoint judged the criterion, or final');
  if (!project && scope !== null) throw bad('scope', 'must be null or absent for a task item');
  const system = str('system');
  const trial = b.trial;
  if (typeof trial !== 'number' || !Number.isInteger(trial) || trial < 1)
    throw bad('trial', 'must be a positive integer');
  const itemId = str('itemId');
  const decision = b.decision;
  if (!REVIEW_DECISIONS.includes(decision as ReviewDecision))
    throw bad('decision', `must be one of ${REVIEW_DECISIONS.join(', ')}`);
  const note = b.note ?? '';
  if (typeof note !== 'string') throw bad('note', 'must be a string');
  const evidence = b.evidence ?? [];
  if (!Array.isArray(evidence) || !evidence.every((e) => typeof e === 'string'))
    throw bad('evidence', 'must be a list of strings');
  const blind = b.blind ?? false;
  if (typeof blind !== 'boolean') throw bad('blind', 'must be true or false');
  const item = { unit, system, trial, itemId, scope: scope as string | null };
  return { reviewer, ...item, decision: decision as ReviewDecision, note, evidence, blind };
}

async function sourceReviews(source: ViewerSource, problems: RecordProblem[] = []): Promise<Review[]> {
  const name = reviewSourceName(source);
  return (await readReviews(reviewStore(source), problems)).filter((r) => r.source === name);
}

/** The queue as the labelling page gets it: without the machine's decision where blind and not yet decided. */
export async function reviewQueue(
  source: ViewerSource,
  q: { reviewer: string; mode: QueueMode; size: number; seed: number; blind: boolean },
) {
  const { reviewer, blind } = q;
  const queue = buildReviewQueue(await reviewCandidates(source), q);
  const mine = new Map(
    latestReviews((await sourceReviews(source)).filter((r) => r.reviewer === reviewer)).map((r) => [
      candidateKey({ ...r, itemId: r.item.id, scope: r.item.scope }),
      r,
    ]),
  );
  const entries = queue.map(({ judgeDecision, judgeReason, judgeAnchors, ...item }) => {
    const reviewed = mine.get(candidateKey(item)) ?? null;
    // Blind: the machine's decision is shown once this reviewer has decided, not before.
    const decided = reviewed !== null && reviewed.itemDigest === item.itemDigest;
    const judge = blind && !decided ? null : { decision: judgeDecision, reason: judgeReason, anchors: judgeAnchors };
    return {
      ...item,
      judge,
      reviewed: reviewed && {
        decision: reviewed.decision,
        note: reviewed.note,
        at: reviewed.at,
        stale: !decided,
      },
    };
  });
  return { source: source.id, ...q, entries };
}

/** The source a request names (`:source`); throws NotFoundError for an unknown one. */
export type SourceOf = (c: Context) => ViewerSource;

export function addReviewRoutes(app: Hono, sourceOf: SourceOf, port: () => number, listenHost = '127.0.0.1'): void {
  guardWrites(app, port, listenHost);
  addLabellingRoutes(app, sourceOf);
  addReviewStoreRoutes(app, sourceOf);
}

/** Writes come from the viewer's own page only. */
function guardWrites(app: Hono, port: () => number, listenHost: string): void {
  app.use('/api/*', async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const problem = sameOriginProblem(c.req.header('host'), c.req.header('origin'), port(), listenHost);
      if (problem) throw new ForbiddenError(problem);
    }
    await next();
  });
}

/** What the labelling page loads: the queue, and the deliverables beside an item. */
function addLabellingRoutes(app: Hono, sourceOf: SourceOf): void {
  app.get('/api/review-queue/:source', async (c) => {
    const source = sourceOf(c);
    return c.json(await reviewQueue(source, queueQuery(c)));
  });

  // The trial's deliverables alone (no verdicts): what a blind reviewer's page loads beside the item.
  app.get('/api/review-deliverables/:source/:system/:task/:trial', async (c) => {
    const source = sourceOf(c);
    const [system, task, trial] = [c.req.param('system'), c.req.param('task'), Number(c.req.param('trial'))];
    const record = (await readSourceRecords(source)).trials.find(
      (r) => r.system.id === system && r.task.id === task && r.trial === trial,
    );
    if (!record) throw new NotFoundError(messages.unknownTrial(trialRecordKey(system, task, trial)));
    return c.json(deliverablesOf(await submissionView(source, record.deliverables)));
  });
}

/** The queue's query parameters, checked one by one (the first bad one is named). */
function queueQuery(c: Context) {
  const reviewer = c.req.query('reviewer') ?? '';
  if (reviewer && !REVIEWER_NAME.test(reviewer)) throw bad('reviewer', `must match ${REVIEWER_NAME.source}`);
  const mode = (c.req.query('mode') ?? 'unjudged') as QueueMode;
  if (!QUEUE_MODES.includes(mode)) throw bad('mode', `must be one of ${QUEUE_MODES.join(', ')}`);
  const size = Number(c.req.query('size') ?? 20);
  if (!Number.isInteger(size) || size < 1) throw bad('size', 'must be a positive integer');
  const seed = Number(c.req.query('seed') ?? 1);
  if (!Number.isInteger(seed)) throw bad('seed', 'must be an integer');
  const blind = c.req.query('blind') === '1';
  return { reviewer, mode, size, seed, blind };
}

/** The reviews so far, and a new one. */
function addReviewStoreRoutes(app: Hono, sourceOf: SourceOf): void {
  app.get('/api/reviews/:source', async (c) => {
    const problems: RecordProblem[] = [];
    const reviews = await sourceReviews(sourceOf(c), problems);
    return c.json({ reviews, problems });
  });

  app.post('/api/reviews/:source', async (c) => {
    const source = sourceOf(c);
    const body: unknown = await c.req.json().catch(() => {
      throw bad('body', 'must be JSON');
    });
    const input = parseReviewInput(body);
    const item = findCandidate(await reviewCandidates(source), input);
    const review = await storeReview(source, input, item);
    // Decided: the machine's decision and reason can be shown now, also in blind mode.
    return c.json({
      review,
      judge: { decision: item.judgeDecision, reason: item.judgeReason, anchors: item.judgeAnchors },
    });
  });
}

/** The item reviewed, else a 400 naming the first of trial, scope and item this source does not hold. */
function findCandidate(candidates: ReviewCandidate[], input: ReviewInput): ReviewCandidate {
  const item = candidates.find((x) => candidateKey(x) === candidateKey(input));
  if (item) return item;
  const ofRecord = candidates.filter(
    (x) => x.unit === input.unit && x.system === input.system && x.trial === input.trial,
  );
  const kind = input.scope === null ? 'trial' : 'project';
  if (ofRecord.length === 0)
    throw bad('trial', `no ${kind} record ${input.unit} · ${input.system} · trial ${input.trial} in this source`);
  if (input.scope !== null && !ofRecord.some((x) => x.scope === input.scope))
    throw bad('scope', `no criterion verdicts at ${input.scope} in that project record`);
  throw bad('itemId', `no ${input.scope === null ? 'item' : 'criterion'} ${input.itemId} in that ${kind} record`);
}

/** The review as stored: the item's digest and the machine's decision come from the server's record. */
async function storeReview(source: ViewerSource, input: ReviewInput, item: ReviewCandidate): Promise<Review> {
  // Without the item's content a later change to it could not mark this review stale.
  if (!item.itemDigest) throw bad('itemId', messages.itemContentUnknown(input.itemId));
  return writeReview(reviewStore(source), {
    reviewer: input.reviewer,
    source: reviewSourceName(source),
    unit: input.unit,
    system: input.system,
    trial: input.trial,
    item: { id: input.itemId, scope: input.scope },
    itemDigest: item.itemDigest,
    decision: input.decision,
    note: input.note,
    evidence: input.evidence,
    blind: input.blind,
    judgeDecision: item.judgeDecision,
  });
}
