// CLI entry (`assay mock-llm`): serve a script file until SIGINT/SIGTERM.
import { loadScriptFile } from './script.js';
import { startMockLlm, type MockLlmServer } from './start-mock-llm.js';
import type { MockScript } from './types.js';

export interface RunMockLlmServerOptions {
  port?: number;
  host?: string;
  /** YAML or JSON script; without it every request gets a fixed "ok" reply. */
  scriptPath?: string;
  /** Keeps batch-API batches and files across restarts (see StartMockLlmOptions.batchStateFile). */
  batchStateFile?: string;
  /** Where log lines go (default: stderr). */
  log?: (line: string) => void;
  /** Resolve once listening instead of waiting for a signal (for tests and embedding). */
  detach?: boolean;
  /** Called once the server listens (e.g. to print its URL on stdout). */
  onListening?: (server: MockLlmServer) => void;
}

const FALLBACK_SCRIPT: MockScript = { rules: [], default: { text: 'ok' } };

export async function runMockLlmServer(options: RunMockLlmServerOptions = {}): Promise<MockLlmServer> {
  const script = options.scriptPath ? await loadScriptFile(options.scriptPath) : FALLBACK_SCRIPT;
  const server = await startMockLlm({
    script,
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    log: options.log ?? ((line) => process.stderr.write(`${line}\n`)),
    ...(options.batchStateFile ? { batchStateFile: options.batchStateFile } : {}),
  });
  options.onListening?.(server);
  if (options.detach) return server;
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await server.close();
  return server;
}
