// Runs extraction in a separate Node process with a heap cap, an address-space cap (RLIMIT_AS, set
// with prlimit on the started process, so Node's own start-up reservations are not counted) and a
// per-file wall-time limit. The reply arrives in chunks and is refused past the evidence size
// budget, so the caller never holds more than that. A file that hangs the parser is killed and
// noted; one that makes it die (a cap reached) is noted; either way the next file gets a fresh
// process and the caller never fails.
import { execFile, fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { msg } from '../messages.js';
import { resolveLimits } from '../limits.js';
import type { EvidenceLimits } from '../limits.js';
import type { ExtractResult } from '../types.js';
import type { ChildJob } from './child-main.js';

/**
 * The parser process's entry. The CLI build (scripts/build-cli.mjs) bundles child-main.ts as
 * parser-child.mjs beside this module's chunk: plain JS that starts without a TypeScript loader
 * (~0.1 s of CPU against ~0.3 s, at every parser start and restart). From the sources it is
 * child-boot.mjs, which loads pdfjs before registering tsx (see there). The build rewrites
 * import.meta.url to this source file's, not import.meta.dirname: that stays the chunk's folder.
 */
export function parserChildPath(moduleDir: string = moduleFolder()): string {
  const built = path.join(moduleDir, 'parser-child.mjs');
  return existsSync(built) ? built : fileURLToPath(new URL('./child-boot.mjs', import.meta.url));
}
/** import.meta.dirname is Node >= 20.11; before it, the sources' folder (the build's child is then unused). */
function moduleFolder(): string {
  return (import.meta as { dirname?: string }).dirname ?? path.dirname(fileURLToPath(import.meta.url));
}
const PARSER_CHILD = parserChildPath();
const START_TIMEOUT_MS = 30_000;

interface Reply {
  id?: number;
  ready?: boolean;
  chunk?: string;
  done?: boolean;
  error?: string;
  stats?: ParserStats;
}

/** Resource use of the parser process so far, and whether its address-space cap is in force. */
export interface ParserStats {
  maxRssMb: number;
  heapUsedMb: number;
  /** RLIMIT_AS growth allowed after start-up, or null when prlimit could not set it (heap cap only). */
  addressSpaceCapMb?: number | null;
}

/** Per call: a size budget tighter than the limits' (what is left of the submission's). */
export interface ExtractOptions {
  maxEvidenceBytes?: number;
  sizeScope?: 'file' | 'submission';
}

/** A result and the size of the JSON it came in (what the caller now holds). */
export interface MeasuredResult {
  result: ExtractResult;
  bytes: number;
}

function failed(note: string): MeasuredResult {
  return { result: { detection: { format: null, type: 'unparsed' }, evidence: null, notes: [note] }, bytes: 0 };
}

function vmSizeKb(pid: number): number | null {
  try {
    const m = /^VmSize:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** Caps the process's address space at its current size plus `mb`; false when that is not possible. */
function capAddressSpace(pid: number, mb: number): Promise<boolean> {
  const size = vmSizeKb(pid);
  if (size === null) return Promise.resolve(false);
  const bytes = (size + mb * 1024) * 1024;
  return new Promise((resolve) =>
    execFile('prlimit', ['--pid', String(pid), `--as=${bytes}:${bytes}`], { timeout: 10_000 }, (err) => resolve(!err)),
  );
}

/** What building a view needs of a parser (a pool's on-demand member has only this). */
export type Extractor = Pick<IsolatedExtractor, 'limits' | 'extractMeasured'>;

export class IsolatedExtractor {
  private child: ChildProcess | null = null;
  private ready: Promise<ChildProcess> | null = null;
  private nextId = 1;
  private stderrTail = '';
  /** V8's out-of-memory lines, seen anywhere in stderr: a native backtrace can push them out of the tail. */
  private sawHeapLimit = false;
  private sawOutOfMemory = false;
  private capped = false;
  private queue: Promise<unknown> = Promise.resolve();
  private statsAfterLast: ParserStats | null = null;
  readonly limits: EvidenceLimits;

  /** `entry`: the parser process's entry (default: the built one when there is one, see parserChildPath). */
  constructor(
    limits?: Partial<EvidenceLimits>,
    private readonly entry: string = PARSER_CHILD,
  ) {
    this.limits = resolveLimits(limits);
  }

  private start(): Promise<ChildProcess> {
    if (this.ready) return this.ready;
    this.stderrTail = '';
    this.sawHeapLimit = false;
    this.sawOutOfMemory = false;
    const child = fork(this.entry, [], {
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
      // "Reached heap limit" / "Ineffective mark-compacts near heap limit": the V8 heap cap itself.
      if (/heap limit/i.test(text)) this.sawHeapLimit = true;
      if (/out of memory|Allocation failed|bad_alloc|Failed to reserve|Cannot allocate/i.test(text))
        this.sawOutOfMemory = true;
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
        if (!m.ready) return reject(new Error('parser process sent an unexpected first message'));
        // The cap goes on once the process idles after start-up, before it reads any file.
        void capAddressSpace(child.pid ?? 0, this.limits.childAddressSpaceMb).then((ok) => {
          this.capped = ok;
          resolve(child);
        });
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`parser process exited on start (${signal ?? `code ${code}`}): ${this.stderrTail.trim()}`));
      });
    });
    this.ready.catch(() => this.reset());
    return this.ready;
  }

  /** The parser process's resource use after its last reply (null before one, or after a restart). */
  get lastStats(): ParserStats | null {
    return this.statsAfterLast;
  }

  /** True while a parser process is started or starting. */
  get running(): boolean {
    return this.child !== null;
  }

  private reset(): void {
    this.statsAfterLast = null;
    const child = this.child;
    this.child = null;
    this.ready = null;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  /** Extracts one file; never rejects. Calls are served one at a time. */
  async extract(absPath: string, name: string, opts: ExtractOptions = {}): Promise<ExtractResult> {
    return (await this.extractMeasured(absPath, name, opts)).result;
  }

  /** As extract, with the size of the reply (for a caller that keeps a budget over many files). */
  extractMeasured(absPath: string, name: string, opts: ExtractOptions = {}): Promise<MeasuredResult> {
    const run = this.queue.then(() => this.runOne(absPath, name, opts));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async runOne(absPath: string, name: string, opts: ExtractOptions): Promise<MeasuredResult> {
    let child: ChildProcess;
    try {
      child = await this.start();
    } catch (err) {
      return failed(msg.childFailed(err));
    }
    const maxEvidenceBytes = Math.min(this.limits.maxEvidenceBytes, opts.maxEvidenceBytes ?? Infinity);
    const job: ChildJob = {
      id: this.nextId++,
      absPath,
      name,
      limits: { ...this.limits, maxEvidenceBytes },
      ...(opts.sizeScope ? { sizeScope: opts.sizeScope } : {}),
    };
    return this.awaitReply(child, job);
  }

  /** Collects the chunks of one reply; a reply past the size budget, a death or a time-out become notes. */
  private awaitReply(child: ChildProcess, job: ChildJob): Promise<MeasuredResult> {
    const max = job.limits.maxEvidenceBytes;
    const timeoutMs = this.limits.perFileTimeoutMs;
    return new Promise<MeasuredResult>((resolve) => {
      const chunks: string[] = [];
      let chars = 0;
      const done = (r: MeasuredResult) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('close', onExit);
        resolve(r);
      };
      const onMessage = (m: Reply) => {
        if (m.id !== job.id) return;
        if (m.chunk !== undefined) {
          chars += m.chunk.length;
          // Characters never outnumber UTF-8 bytes: past the budget in characters is past it in bytes.
          if (chars <= max) return void chunks.push(m.chunk);
          this.reset();
          return done(failed(msg.replyTooLarge(max)));
        }
        if (!m.done) return done(failed(msg.childFailed(m.error ?? 'no result')));
        if (m.stats) this.statsAfterLast = m.stats;
        const json = chunks.join('');
        chunks.length = 0;
        try {
          done({ result: JSON.parse(json) as ExtractResult, bytes: Buffer.byteLength(json) });
        } catch (err) {
          done(failed(msg.childFailed(err)));
        }
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        const note = this.deathNote(code, signal);
        this.reset();
        done(failed(note));
      };
      const timer = setTimeout(() => {
        this.reset();
        done(failed(msg.timedOut(timeoutMs)));
      }, timeoutMs);
      child.on('message', onMessage);
      child.once('close', onExit);
      try {
        child.send(job);
      } catch (err) {
        this.reset();
        done(failed(msg.childFailed(err)));
      }
    });
  }

  /** Why the parser died, from its words on stderr: the heap cap, the address-space cap, or a signal. */
  private deathNote(code: number | null, signal: NodeJS.Signals | null): string {
    if (this.sawHeapLimit) return msg.crashed(msg.heapCap(this.limits.childMemoryMb));
    // Under RLIMIT_AS a failed allocation surfaces as bad_alloc (SIGABRT) or a fault in V8 (SIGSEGV, SIGTRAP).
    const memory = this.sawOutOfMemory;
    if (this.capped && (memory || signal === 'SIGABRT' || signal === 'SIGSEGV' || signal === 'SIGTRAP'))
      return msg.crashed(msg.addressCap(this.limits.childAddressSpaceMb, signal ?? `exit code ${code}`));
    // Without the address-space cap, only the heap cap can run the parser out of memory.
    if (memory) return msg.crashed(msg.heapCap(this.limits.childMemoryMb));
    return msg.crashed(signal ?? `exit code ${code}`);
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
          resolve(
            m.stats ? { ...m.stats, addressSpaceCapMb: this.capped ? this.limits.childAddressSpaceMb : null } : null,
          );
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
