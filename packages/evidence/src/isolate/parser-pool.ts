// A bounded pool of warm parser processes, so an evaluation does not pay a Node start-up (pdfjs,
// tsx: ~0.5 s of CPU and ~100 MB) per submission. Each member is an IsolatedExtractor: a parser that
// dies or hangs is killed, its file gets a note, and the member starts a fresh process on its next
// use. A member whose peak RSS went past `recycleRssMb` is stopped when it is handed back, so a
// worker's memory stays bounded by size x (start-up RSS + recycle budget) over any number of trials.
import os from 'node:os';
import { resolveLimits, type EvidenceLimits } from '../limits.js';
import { IsolatedExtractor, type Extractor } from './run-isolated.js';

export interface ParserPoolOptions {
  /** Parser processes at most (default: defaultParserPoolSize()). */
  size?: number;
  limits?: Partial<EvidenceLimits>;
  /** Peak RSS after which a member's process is replaced (default 400 MB). */
  recycleRssMb?: number;
}

const DEFAULT_RECYCLE_RSS_MB = 400;

/**
 * One parser per core, as many as a quarter of the machine's memory holds at the recycle budget
 * (a parser may grow to its heap cap while it reads a file; it is replaced after that file).
 */
export function defaultParserPoolSize(
  totalMemoryBytes = os.totalmem(),
  cores = os.availableParallelism(),
  perParserMb = DEFAULT_RECYCLE_RSS_MB,
): number {
  const byMemory = Math.floor(totalMemoryBytes / 4 / (perParserMb * 1024 * 1024));
  return Math.max(1, Math.min(cores, byMemory));
}

export class ParserPool {
  readonly size: number;
  readonly limits: EvidenceLimits;
  private readonly recycleRssMb: number;
  private readonly idle: IsolatedExtractor[] = [];
  private readonly waiting: Array<(ex: IsolatedExtractor) => void> = [];
  private readonly members: IsolatedExtractor[] = [];
  /** Members stopped for going past the recycle budget (for benches and tests). */
  recycled = 0;

  constructor(opts: ParserPoolOptions = {}) {
    this.size = Math.max(1, Math.floor(opts.size ?? defaultParserPoolSize()));
    this.limits = resolveLimits(opts.limits);
    this.recycleRssMb = opts.recycleRssMb ?? DEFAULT_RECYCLE_RSS_MB;
  }

  /** Starts the idle members' processes now (making members up to `size`), so evaluations do not wait for one. */
  async warm(): Promise<void> {
    const members = this.idle.splice(0);
    while (this.members.length < this.size) members.push(this.newMember());
    await Promise.all(members.map((m) => m.stats()));
    for (const m of members) this.release(m);
  }

  /** Members whose parser process is up now (for benches and tests). */
  get running(): number {
    return this.members.filter((m) => m.running).length;
  }

  /** Runs `work` with a member of its own; waits while all members are busy. */
  async use<T>(work: (extractor: IsolatedExtractor) => Promise<T>): Promise<T> {
    const member = await this.acquire();
    try {
      return await work(member);
    } finally {
      this.release(member);
    }
  }

  /**
   * Runs `work` with an extractor that takes a member only at its first extraction, and gives it
   * back when `work` is done. A view with no file to parse, or only files the extraction cache
   * holds, never waits for a member: not while the pool warms, nor while every member is busy.
   */
  async useOnDemand<T>(work: (extractor: Extractor) => Promise<T>): Promise<T> {
    let member: Promise<IsolatedExtractor> | null = null;
    const extractor: Extractor = {
      limits: this.limits,
      extractMeasured: async (...args) => (await (member ??= this.acquire())).extractMeasured(...args),
    };
    try {
      return await work(extractor);
    } finally {
      if (member) this.release(await member);
    }
  }

  /** Stops the idle members' processes; the pool stays usable (a member restarts its process on next use). */
  close(): void {
    for (const m of this.idle) m.close();
  }

  private acquire(): Promise<IsolatedExtractor> {
    const idle = this.idle.pop();
    if (idle) return Promise.resolve(idle);
    if (this.members.length < this.size) return Promise.resolve(this.newMember());
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(member: IsolatedExtractor): void {
    const peak = member.lastStats?.maxRssMb ?? 0;
    if (peak > this.recycleRssMb) {
      member.close();
      this.recycled++;
    }
    const next = this.waiting.shift();
    if (next) next(member);
    else this.idle.push(member);
  }

  private newMember(): IsolatedExtractor {
    const member = new IsolatedExtractor(this.limits);
    this.members.push(member);
    return member;
  }
}
