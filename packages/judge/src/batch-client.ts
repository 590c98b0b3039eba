// Judge turns through a provider's batch API (about half price, results within 24 h), for
// re-judging stored submissions where latency does not matter. Each turn's body is built by the
// same code as a live call and each reply parsed by the same code, so a batched turn is the
// live turn. Idempotency: a caller first asks `find(key)` and submits only when it finds nothing;
// OpenAI finds by batch metadata, Anthropic has no metadata (see anthropic-batch-client.ts).
import { createAnthropicBatchClient } from './anthropic-batch-client.js';
import type { ModelReply, ModelRequest } from './judge-model.js';
import { createOpenAiBatchClient } from './openai-batch-client.js';
import type { ProviderOptions } from './provider-options.js';

export interface BatchEntry {
  /** Unique within the batch. Anthropic takes 1–64 of [a-zA-Z0-9_-]; use that everywhere. */
  customId: string;
  request: ModelRequest;
}

export interface BatchCounts {
  total: number;
  processing: number;
  succeeded: number;
  /** OpenAI's running counts do not split failures: they all count here until `results`. */
  errored: number;
  expired: number;
  canceled: number;
}

export interface BatchStatus {
  /** `ended`: completed, expired, cancelled or failed; `results` is final. */
  status: 'in_progress' | 'ended';
  counts: BatchCounts;
}

/** A turn the batch did not answer. */
export interface BatchFailure {
  error: string;
  kind: 'errored' | 'expired' | 'canceled';
}

export type BatchResult = ModelReply | BatchFailure;

export interface BatchClient {
  provider: 'openai' | 'anthropic';
  /** Create one batch of judge turns; `key` names it (OpenAI: metadata assay_key). */
  submit(entries: readonly BatchEntry[], meta: { key: string }): Promise<{ batchId: string }>;
  /** The newest batch submitted under `key`, or null (always null over Anthropic). */
  find(key: string): Promise<{ batchId: string } | null>;
  poll(batchId: string): Promise<BatchStatus>;
  /** By custom id, once ended. A custom id missing from the map was never run (a batch that failed validation). */
  results(batchId: string): Promise<Map<string, BatchResult>>;
  cancel(batchId: string): Promise<void>;
}

export type BatchClientOptions = ProviderOptions & {
  provider: 'openai' | 'anthropic';
  /** OpenAI `find`: how many recent batches to scan (default 1000). */
  findScanLimit?: number;
};

export function createBatchClient(options: BatchClientOptions): BatchClient {
  return options.provider === 'anthropic' ? createAnthropicBatchClient(options) : createOpenAiBatchClient(options);
}

export function isBatchFailure(r: BatchResult): r is BatchFailure {
  return 'kind' in r && !('toolCalls' in r);
}
