// Notes of one file, bounded like the rest of its evidence: repeats are kept once, and past `max`
// distinct notes only a count is kept (a hostile package can make a note per part or per slide).
import { msg } from '../messages.js';

export class NoteList {
  private readonly items: string[] = [];
  private readonly seen = new Set<string>();
  private dropped = 0;

  constructor(private readonly max = 50) {}

  push(...notes: string[]): void {
    for (const n of notes) {
      if (this.seen.has(n)) continue;
      if (this.items.length >= this.max) this.dropped++;
      else {
        this.items.push(n);
        this.seen.add(n);
      }
    }
  }

  list(): string[] {
    return this.dropped ? [...this.items, msg.moreNotes(this.dropped)] : [...this.items];
  }
}
