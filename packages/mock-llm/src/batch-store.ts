// The batches and files of the batch APIs, kept in memory for the life of the server process (a
// client that restarts finds its batch), and in a state file when one is given (a restarted server
// finds them too; without one it has none). A batch is in progress
// until `delayMs` of the server's clock have passed since its creation; the first read after
// that answers all its requests, in order, through the live path (answer-batch-request.ts).
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { answerBatchRequest, type BatchLineOutcome } from './answer-batch-request.js';
import { batchSettingsSchema } from './script-schema.js';
import type { ServerState } from './server-state.js';
import type { ApiKind } from './types.js';

export interface BatchLine {
  customId: string;
  api: ApiKind;
  body: Record<string, unknown>;
}

export interface StoredBatch {
  id: string;
  provider: 'openai' | 'anthropic';
  createdAt: number;
  /** When the batch stops being in progress (server clock, ms). */
  dueAt: number;
  /** The script said this batch runs out of time. */
  expire: boolean;
  lines: BatchLine[];
  /** OpenAI only. */
  metadata: Record<string, string> | null;
  inputFileId: string;
  endpoint: string;
  /** OpenAI: the input file did not validate; the batch is `failed` and runs nothing. */
  failure: { code: string; message: string; line: number | null } | null;
  cancelledAt: number | null;
  endedAt: number | null;
  /** One per line, in line order, once ended. */
  outcomes: BatchLineOutcome[] | null;
  outputFileId: string | null;
  errorFileId: string | null;
  settling: Promise<void> | null;
}

export interface StoredFile {
  id: string;
  filename: string;
  purpose: string;
  createdAt: number;
  text: string;
}

export type BatchPhase = 'in_progress' | 'cancelling' | 'ended';

export class BatchStore {
  readonly batches = new Map<string, StoredBatch>();
  readonly files = new Map<string, StoredFile>();

  /** `stateFile`: JSON file the store is loaded from (if it exists) and saved to after every change. */
  constructor(private readonly stateFile?: string) {
    if (!stateFile || !existsSync(stateFile)) return;
    const saved = JSON.parse(readFileSync(stateFile, 'utf8')) as { batches: StoredBatch[]; files: StoredFile[] };
    for (const b of saved.batches) this.batches.set(b.id, { ...b, settling: null });
    for (const f of saved.files) this.files.set(f.id, f);
  }

  /** Write the state file whole, then rename it into place (never a half-written file). */
  save(): void {
    if (!this.stateFile) return;
    const batches = [...this.batches.values()].map((b) => ({ ...b, settling: null }));
    writeFileSync(`${this.stateFile}.tmp`, JSON.stringify({ batches, files: [...this.files.values()] }));
    renameSync(`${this.stateFile}.tmp`, this.stateFile);
  }

  newId(prefix: string): string {
    return `${prefix}${randomBytes(12).toString('hex')}`;
  }

  addFile(server: ServerState, filename: string, purpose: string, text: string): StoredFile {
    const file = { id: this.newId('file-'), filename, purpose, createdAt: server.now(), text };
    this.files.set(file.id, file);
    this.save();
    return file;
  }

  create(
    server: ServerState,
    b: Pick<StoredBatch, 'provider' | 'lines' | 'metadata' | 'inputFileId' | 'endpoint' | 'failure'>,
  ): StoredBatch {
    const settings = batchSettingsSchema.parse(server.script.script.batch ?? {});
    const createdAt = server.now();
    const batch: StoredBatch = {
      ...b,
      id: this.newId(b.provider === 'anthropic' ? 'msgbatch_' : 'batch_'),
      createdAt,
      dueAt: createdAt + settings.delayMs,
      expire: settings.expire,
      cancelledAt: null,
      endedAt: null,
      outcomes: null,
      outputFileId: null,
      errorFileId: null,
      settling: null,
    };
    this.batches.set(batch.id, batch);
    server.recorder.batches.push({
      id: batch.id,
      provider: b.provider,
      at: new Date(createdAt).toISOString(),
      requests: b.lines.length,
      metadata: b.metadata,
    });
    this.save();
    return batch;
  }

  /** Newest first, as both APIs list. */
  list(provider: StoredBatch['provider']): StoredBatch[] {
    return [...this.batches.values()].filter((b) => b.provider === provider).reverse();
  }

  /** Cancel a batch in progress: its requests (none answered yet) end `canceled` at the next read. */
  cancel(server: ServerState, batch: StoredBatch): void {
    if (batch.outcomes !== null || batch.cancelledAt !== null) return;
    batch.cancelledAt = server.now();
    this.save();
  }

  /** Where the batch stands now; ends (and answers) it when it is due. */
  async settle(server: ServerState, batch: StoredBatch, justCancelled = false): Promise<BatchPhase> {
    if (batch.outcomes) return 'ended';
    if (batch.failure) {
      batch.outcomes = [];
      batch.endedAt = batch.createdAt;
      this.save();
      return 'ended';
    }
    // The cancel call itself reports the transitional state, as both APIs do.
    if (batch.cancelledAt !== null && justCancelled) return 'cancelling';
    if (batch.cancelledAt === null && server.now() < batch.dueAt) return 'in_progress';
    batch.settling ??= this.finish(server, batch);
    await batch.settling;
    return 'ended';
  }

  private async finish(server: ServerState, batch: StoredBatch): Promise<void> {
    const outcomes: BatchLineOutcome[] = [];
    for (const line of batch.lines) {
      if (batch.cancelledAt !== null) outcomes.push({ kind: 'canceled' });
      else if (batch.expire) outcomes.push({ kind: 'expired' });
      else outcomes.push(await answerBatchRequest(server, line.api, line.body, `${batch.id}/${line.customId}`));
    }
    batch.outcomes = outcomes;
    batch.endedAt = batch.cancelledAt ?? server.now();
    this.save();
  }
}
