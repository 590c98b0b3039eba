// What one running server keeps across requests.
import type { BatchStore } from './batch-store.js';
import type { PromptCache } from './prompt-cache.js';
import type { Recorder } from './recorder.js';
import type { ScriptState } from './script.js';

export interface ServerState {
  /** Replaced as a whole by setScript; read afresh at each step of a request. */
  script: ScriptState;
  readonly recorder: Recorder;
  /** Provider-side prompt cache; outlives setScript, as a provider's would. */
  readonly promptCache: PromptCache;
  /** Requests seen so far (numbers the records). */
  seq: number;
  /** Replies rendered so far (numbers the reply ids). */
  replies: number;
  /** Batches and files of the batch APIs; they live as long as the server process. */
  readonly batches: BatchStore;
  /** The server's clock in ms (prompt-cache TTLs, batch timing). */
  readonly now: () => number;
}
