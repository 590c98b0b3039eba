// Batch judging within one process: rounds until a round defers nothing, each round's deferred turns
// sent as one batch (batched-turns.ts). For library users and the bench; the answers live only in
// memory here, so a crash loses them — `assay judge --batch` runs the same rounds durably on Temporal.
import { isBatchFailure, type BatchClient, type BatchResult } from './batch-client.js';
import { createTurnBook, type TurnBook } from './batched-turns.js';

export interface BatchRound {
  /** Turns sent in this round's batch. */
  turns: number;
  batchId: string;
  /** Time spent replaying the sessions to collect them, ms (the local cost of turn-by-turn batching). */
  replayMs: number;
  failed: number;
}

export async function runBatchRounds<T>(o: {
  client: BatchClient;
  /** One replay of all the judging, its turns answered from `book` (deferred when not known yet). */
  judge: (book: TurnBook) => Promise<T>;
  /** Names the batches (OpenAI metadata), suffixed with the round. */
  key: string;
  /** Between polls of an open batch (default 30 s). */
  wait?: () => Promise<void>;
}): Promise<{ result: T; rounds: BatchRound[]; replayMs: number }> {
  const answers = new Map<string, BatchResult>();
  const rounds: BatchRound[] = [];
  const wait = o.wait ?? (() => new Promise<void>((r) => setTimeout(r, 30_000)));
  for (let round = 1; ; round += 1) {
    const book = createTurnBook(answers);
    const t0 = performance.now();
    const result = await o.judge(book);
    const replayMs = performance.now() - t0;
    if (book.deferred.size === 0) return { result, rounds, replayMs };
    const entries = [...book.deferred].map(([customId, request]) => ({ customId, request }));
    const { batchId } = await o.client.submit(entries, { key: `${o.key}/${round}` });
    while ((await o.client.poll(batchId)).status !== 'ended') await wait();
    const results = await o.client.results(batchId);
    let failed = 0;
    for (const { customId } of entries) {
      const r = results.get(customId) ?? { kind: 'errored' as const, error: 'the batch did not run this turn' };
      if (isBatchFailure(r)) failed += 1;
      answers.set(customId, r);
    }
    rounds.push({ turns: entries.length, batchId, replayMs, failed });
  }
}
