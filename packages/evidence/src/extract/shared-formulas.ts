// The formula of a cell. A shared formula is written once, on its master cell; the other
// cells of the group carry only its `si`, and get the master's text shifted to their position.
import { shiftFormula } from '../a1.js';
import type { RawCell } from './scan-sheet-xml.js';

export class SharedFormulas {
  private readonly masters = new Map<string, { formula: string; row: number; col: number }>();

  /** Call for every cell in document order (masters come before the cells that share them). */
  formulaOf(f: RawCell['f'], row: number, col: number): string | undefined {
    if (!f) return undefined;
    if (f.t === 'shared' && f.si !== undefined) {
      if (f.text) this.masters.set(f.si, { formula: f.text, row, col });
      const master = this.masters.get(f.si);
      return f.text || (master ? shiftFormula(master.formula, row - master.row, col - master.col) : undefined);
    }
    return f.text ? f.text : undefined;
  }
}
