// The budget on what extraction produces, charged as evidence is built: every unit (cell, slide,
// page, paragraph, chart series, ...) counts against its own cap where it has one, and its strings
// against the file's text budget and serialized-size budget. A unit is kept whole or not at all;
// once the text or size budget is spent nothing more is kept (a clean prefix), but units are still
// counted, so the note can say "N of M". Reading caps bound the work; this bounds the result.
import { msg } from '../messages.js';
import type { EvidenceLimits } from '../limits.js';

export type BudgetUnit =
  | 'cells'
  | 'merges'
  | 'sheets'
  | 'names'
  | 'charts'
  | 'series'
  | 'points'
  | 'slides'
  | 'images'
  | 'blocks'
  | 'comments'
  | 'parts'
  | 'pages'
  | 'rows'
  | 'text';

type CountCap = 'maxCells' | 'maxSlides' | 'maxPages' | 'maxImages' | 'maxChartPoints';

const CAP_OF: Partial<Record<BudgetUnit, CountCap>> = {
  cells: 'maxCells',
  slides: 'maxSlides',
  pages: 'maxPages',
  images: 'maxImages',
  points: 'maxChartPoints',
};

/** JSON structure one unit adds around its strings (keys, quotes, numbers), in bytes: an estimate. */
const OVERHEAD: Record<BudgetUnit, number> = {
  cells: 80,
  merges: 4,
  sheets: 120,
  names: 40,
  charts: 120,
  series: 60,
  points: 8,
  slides: 110,
  images: 30,
  blocks: 50,
  comments: 40,
  parts: 8,
  pages: 24,
  rows: 4,
  text: 60,
};

/** Room left for the result's envelope: detection, up to 50 notes of a few hundred bytes, JSON keys. */
const ENVELOPE_BYTES = 16 * 1024;

type BudgetName = 'text' | 'size' | 'time' | CountCap;

export type BudgetLimits = Pick<EvidenceLimits, CountCap | 'maxTextChars' | 'maxEvidenceBytes'>;

export interface BudgetOptions {
  /** The size budget is what is left of the submission's rather than the per-file cap. */
  sizeScope?: 'file' | 'submission';
  /** Enforce the text and size budgets at this fraction (a re-run after the estimate fell short). */
  scale?: number;
  /** Extraction stops keeping units after this many ms (a soft deadline before the hard kill). */
  timeMs?: number;
}

export class OutputBudget {
  chars = 0;
  bytes = 0;
  /** Set once the text, size or time budget refused a unit: nothing more is kept. */
  private spent: 'text' | 'size' | 'time' | null = null;
  private readonly kept = new Map<BudgetUnit, number>();
  private readonly seen = new Map<BudgetUnit, number>();
  /** Units cut, by the budget that cut them first. */
  private readonly cutBy = new Map<BudgetUnit, BudgetName>();
  /** Units for which "M" is a lower bound (not all were counted). */
  private readonly atLeast = new Set<BudgetUnit>();
  private textCut: { kept: number; total: number; by: BudgetName; atLeast: boolean } | null = null;
  private readonly maxChars: number;
  private readonly maxBytes: number;
  private readonly deadline: number;

  constructor(
    readonly limits: BudgetLimits,
    private readonly opts: BudgetOptions = {},
  ) {
    const scale = opts.scale ?? 1;
    this.maxChars = Math.floor(limits.maxTextChars * scale);
    // What the result carries besides the evidence (detection, notes, keys) comes off the top.
    this.maxBytes = Math.max(0, Math.floor(limits.maxEvidenceBytes * scale) - ENVELOPE_BYTES);
    this.deadline = opts.timeMs !== undefined ? performance.now() + opts.timeMs : Infinity;
  }

  get full(): boolean {
    return this.spent !== null;
  }

  /** Milliseconds left before the time budget stops keeping units (Infinity: none). */
  msLeft(): number {
    return this.deadline - performance.now();
  }

  /** The time budget ran out inside one unit (a PDF page): nothing more is kept. */
  expire(): void {
    this.spent ??= 'time';
  }

  keptOf(unit: BudgetUnit): number {
    return this.kept.get(unit) ?? 0;
  }

  /** True when a unit of this kind would be refused whatever its size (check before building it). */
  closed(unit: BudgetUnit): boolean {
    const cap = CAP_OF[unit];
    if (this.spent === null && performance.now() > this.deadline) this.spent = 'time';
    return this.spent !== null || (cap !== undefined && this.keptOf(unit) >= this.limits[cap]);
  }

  /**
   * Charges `count` units (kept together or not at all) whose strings total `chars` characters;
   * `overhead` replaces the unit's usual JSON structure estimate (bytes for all `count`).
   */
  take(unit: BudgetUnit, chars = 0, count = 1, overhead = OVERHEAD[unit] * count): boolean {
    this.seen.set(unit, (this.seen.get(unit) ?? 0) + count);
    const refused = this.refusal(unit, chars, count, overhead);
    if (refused) {
      if (!this.cutBy.has(unit)) this.cutBy.set(unit, refused);
      return false;
    }
    this.kept.set(unit, this.keptOf(unit) + count);
    this.chars += chars;
    this.bytes += chars + overhead;
    return true;
  }

  /** Counts `n` units that were not read at all (the budget had run out); `exact` false: more may exist. */
  skip(unit: BudgetUnit, n: number, exact = true): void {
    if (n <= 0 && exact) return;
    this.seen.set(unit, (this.seen.get(unit) ?? 0) + n);
    if (!this.cutBy.has(unit)) this.cutBy.set(unit, this.spent ?? CAP_OF[unit] ?? 'size');
    if (!exact) this.atLeast.add(unit);
  }

  /** Strings that repeat text already kept (a kept body's headings): counted, never refused. */
  addCopy(chars: number, overhead = 0): void {
    this.bytes += chars + overhead;
  }

  /** Characters a text may still have and fit (the text budget and the size budget left). */
  room(unit: BudgetUnit = 'text'): number {
    if (this.spent) return 0;
    return Math.max(0, Math.min(this.maxChars - this.chars, this.maxBytes - this.bytes - OVERHEAD[unit]));
  }

  /** The longest prefix of `text` that still fits (one long text: a page, a file's body); null: not kept. */
  cut(unit: BudgetUnit, text: string): string | null {
    if (this.closed(unit)) {
      this.take(unit);
      return null;
    }
    const room = this.room(unit);
    if (text.length <= room) return this.take(unit, text.length) ? text : null;
    this.cutText(unit, room, text.length);
    return text.slice(0, room);
  }

  /**
   * Records that a text of `total` characters was kept to its first `kept`, and charges those to
   * `unit` (unless `charge` is false: the caller charges what it made of them, e.g. csv rows).
   */
  cutText(unit: BudgetUnit, kept: number, total: number, charge = true, atLeast = false, late = false): void {
    const by: BudgetName =
      this.spent ?? (late ? 'time' : this.maxChars - this.chars <= this.maxBytes - this.bytes ? 'text' : 'size');
    this.textCut ??= { kept, total, by, atLeast };
    if (charge) {
      this.kept.set(unit, this.keptOf(unit) + 1);
      this.seen.set(unit, (this.seen.get(unit) ?? 0) + 1);
      this.chars += kept;
      this.bytes += kept + OVERHEAD[unit];
    }
    if (by === 'text' || by === 'size' || by === 'time') this.spent ??= by;
  }

  private refusal(unit: BudgetUnit, chars: number, count: number, overhead: number): BudgetName | null {
    if (this.spent) return this.spent;
    const cap = CAP_OF[unit];
    if (cap && this.keptOf(unit) + count > this.limits[cap]) return cap;
    if (this.chars + chars > this.maxChars) this.spent = 'text';
    else if (this.bytes + chars + overhead > this.maxBytes) this.spent = 'size';
    else if (performance.now() > this.deadline) this.spent = 'time';
    return this.spent;
  }

  /** One note per budget that cut something: which budget, and what was kept of how much. */
  notes(): string[] {
    const byBudget = new Map<BudgetName, string[]>();
    const add = (budget: BudgetName, part: string) => byBudget.set(budget, [...(byBudget.get(budget) ?? []), part]);
    for (const [unit, budget] of this.cutBy)
      add(budget, msg.keptOf(this.keptOf(unit), this.seen.get(unit) ?? 0, unit, this.atLeast.has(unit)));
    const t = this.textCut;
    if (t) add(t.by, t.atLeast ? msg.keptPartial(t.kept) : msg.keptOf(t.kept, t.total, 'characters', false));
    return [...byBudget].map(([budget, parts]) => msg.budgetCut(this.describe(budget), parts));
  }

  private describe(budget: BudgetName): string {
    if (budget === 'text') return msg.textBudget(this.limits.maxTextChars);
    if (budget === 'size') return msg.sizeBudget(this.limits.maxEvidenceBytes, this.opts.sizeScope ?? 'file');
    if (budget === 'time') return msg.timeBudget(this.opts.timeMs ?? 0);
    return msg.countBudget(budget, this.limits[budget]);
  }
}
