// The scripted model server: node:http on 127.0.0.1, four wire protocols, scripted
// replies, injected faults, and a recorder of everything it saw.
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import { BatchStore } from './batch-store.js';
import { handleRequest } from './handle-request.js';
import { messages } from './messages.js';
import { createPromptCache, type PromptCache } from './prompt-cache.js';
import { Recorder, type RecordedBatch, type RecordedRequest } from './recorder.js';
import { ScriptState, parseScript } from './script.js';
import type { ServerState } from './server-state.js';
import type { ApiKind, MockScript } from './types.js';

export interface StartMockLlmOptions {
  script: MockScript;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Loopback only; default 127.0.0.1. */
  host?: string;
  /** Receives each log line (never a secret). */
  log?: (line: string) => void;
  /** The server's clock in ms (default Date.now): prompt-cache TTLs and batch timing; tests inject one. */
  now?: () => number;
  /**
   * JSON file that keeps the batch APIs' batches and files across server restarts (loaded at start if
   * it exists, rewritten after each change). Without it they live as long as the server process.
   */
  batchStateFile?: string;
}

export interface MockLlmServer {
  /** e.g. http://127.0.0.1:43210 (no trailing slash, no /v1). */
  url: string;
  port: number;
  requests: RecordedRequest[];
  logs: string[];
  /** Batches created through the OpenAI or Anthropic batch API, in order. */
  batches: RecordedBatch[];
  /** Requests to model endpoints (not /models listings), optionally of one API. */
  modelCalls(api?: ApiKind): RecordedRequest[];
  /** Sum of usage of every reply delivered in full. */
  totalUsage(): { input: number; output: number; cachedInput: number };
  sawCredential(secret: string): boolean;
  /** The simulated provider prompt cache (Anthropic breakpoints, OpenAI automatic prefixes). */
  promptCache: PromptCache;
  assertNoSecret(secret: string, extra?: Record<string, string>): void;
  /** Replace the script and reset rule/turn counters (recorded requests are kept). */
  setScript(script: MockScript): void;
  /** Forget recorded requests and logs. */
  clearRecords(): void;
  close(): Promise<void>;
}

export async function startMockLlm(options: StartMockLlmOptions): Promise<MockLlmServer> {
  const recorder = new Recorder(options.log);
  const now = options.now ?? Date.now;
  const promptCache = createPromptCache({ now });
  const state: ServerState = {
    script: new ScriptState(parseScript(options.script)),
    recorder,
    promptCache,
    seq: 0,
    replies: 0,
    batches: new BatchStore(options.batchStateFile),
    now,
  };
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handleRequest(state, req, res).catch((err: unknown) => {
      recorder.log(`mock-llm internal error: ${(err as Error).message}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'mock-llm internal error' } }));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://${host}:${port}`;
  recorder.log(messages.listening(url));

  return {
    url,
    port,
    requests: recorder.requests,
    logs: recorder.logs,
    batches: recorder.batches,
    modelCalls: (api) => recorder.modelCalls(api),
    totalUsage: () => recorder.totalUsage(),
    sawCredential: (secret) => recorder.sawCredential(secret),
    promptCache,
    assertNoSecret: (secret, extra) => recorder.assertNoSecret(secret, extra),
    setScript: (script) => {
      state.script = new ScriptState(parseScript(script));
    },
    clearRecords: () => recorder.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
