// Runs extraction in a separate Node process with a heap cap and a per-file wall-time limit. A file
// that hangs the parser is killed and reported; a file that crashes it (out of memory, stack) is
// reported; either way the next file gets a fresh process and the caller never fails.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { msg } from '../messages.js';
import { resolveLimits } from '../limits.js';
import type { EvidenceLimits } from '../limits.js';
import type { ExtractResult } from '../types.js';

// The child starts from a plain-JS bootstrap that loads pdfjs before registering tsx (see there).
const CHILD_BOOT = fileURLToPath(new URL('./child-boot.mjs', import.meta.url));
const START_TIMEOUT_MS = 30_000;

interface Reply {
  id?: number;
  ready?: boolean;
  result?: ExtractResult;
  error?: string;
  stats?: ParserStats;
}

/** Resource use of the parser process so far. */
export interface ParserStats {
  maxRssMb: number;
  heapUsedMb: number;
}

function failed(note: string): ExtractResult {
  return { detection: { format: null, type: 'unparsed' }, evidence: null, notes: [note] };
}

export class IsolatedExtractor {
  private child: ChildProcess | null = null;
  private ready: Promise<ChildProcess> | null = null;
  private nextId = 1;
  private stderrTail = '';
  /** V8's out-of-memory line, seen anywhere in stderr: its native backtrace can push it out of the tail. */
  private sawHeapLimit = false;
  private queue: Promise<unknown> = Promise.resolve();
  readonly limits: EvidenceLimits;

  constructor(limits?: Partial<EvidenceLimits>) {
    this.limits = resolveLimits(limits);
  }

  private start(): Promise<ChildProcess> {
    if (this.ready) return this.ready;
    this.stderrTail = '';
    this.sawHeapLimit = false;
    const child = fork(CHILD_BOOT, [], {
      execArgv: [`--max-old-space-size=${this.limits.childMemoryMb}`],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    // Unref'd: an idle parser process never keeps the caller alive; a pending job's timer does.
    child.unref();
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
    (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
    child.stderr?.on('data', (d: Buffer) => {
      const text = this.stderrTail + d.toString('utf8');
      if (/heap limit|out of memory/i.test(text)) this.sawHeapLimit = true;
      this.stderrTail = text.slice(-2000);
    });
    this.child = child;
    this.ready = new Promise<ChildProcess>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`parser process did not start within ${START_TIMEOUT_MS} ms`));
      }, START_TIMEOUT_MS);
      child.once('message', (m: Reply) => {
        clearTimeout(timer);
        if (m.ready) resolve(child);
        else reject(new Error('parser process sent an unexpected first message'));
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`parser process exited on start (${signal ?? `code ${code}`}): ${this.stderrTail.trim()}`));
      });
    });
    this.ready.catch(() => this.reset());
    return this.ready;
  }

  private reset(): void {
    const child = this.child;
    this.child = null;
    this.ready = null;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  /** Extracts one file; never rejects. Calls are served one at a time. */
  extract(absPath: string, name: string): Promise<ExtractResult> {
    const run = this.queue.then(() => this.runOne(absPath, name));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async runOne(absPath: string, name: string): Promise<ExtractResult> {
    let child: ChildProcess;
    try {
      child = await this.start();
    } catch (err) {
      return failed(msg.childFailed(err));
    }
    const id = this.nextId++;
    const timeoutMs = this.limits.perFileTimeoutMs;
    return new Promise<ExtractResult>((resolve) => {
      const done = (result: ExtractResult) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('close', onExit);
        resolve(result);
      };
      const onMessage = (m: Reply) => {
        if (m.id !== id) return;
        done(m.result ?? failed(msg.childFailed(m.error ?? 'no result')));
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        const heap = this.sawHeapLimit ? 'heap limit reached' : `${signal ?? `exit code ${code}`}`;
        this.reset();
        done(failed(msg.crashed(heap)));
      };
      const timer = setTimeout(() => {
        this.reset();
        done(failed(msg.timedOut(timeoutMs)));
      }, timeoutMs);
      child.on('message', onMessage);
      child.once('close', onExit);
      try {
        child.send({ id, absPath, name, limits: this.limits });
      } catch (err) {
        this.reset();
        done(failed(msg.childFailed(err)));
      }
    });
  }

  /** Peak memory of the current parser process (starting one if none runs); null if it fails. */
  stats(): Promise<ParserStats | null> {
    const run = this.queue.then(async () => {
      const child = await this.start().catch(() => null);
      if (!child) return null;
      const id = this.nextId++;
      return new Promise<ParserStats | null>((resolve) => {
        const timer = setTimeout(() => resolve(null), 10_000);
        const onMessage = (m: Reply) => {
          if (m.id !== id) return;
          clearTimeout(timer);
          child.off('message', onMessage);
          resolve(m.stats ?? null);
        };
        child.on('message', onMessage);
        child.send({ id, stats: true });
      });
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Stops the parser process. The extractor may be used again (a new process starts). */
  close(): void {
    this.reset();
  }
}

/** One-shot convenience: extracts a single file in a fresh isolated process. */
export async function extractFileIsolated(
  absPath: string,
  name: string,
  limits?: Partial<EvidenceLimits>,
): Promise<ExtractResult> {
  const ex = new IsolatedExtractor(limits);
  try {
    return await ex.extract(absPath, name);
  } finally {
    ex.close();
  }
}
