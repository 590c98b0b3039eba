// The XML walk of one worksheet part: cells as the file stores them (type, style, formula,
// cached <v>, inline string) with their position, plus the dimension and merged ranges.
import { parseCell } from '../a1.js';
import { saxXml } from '../xml/parse-xml.js';

export interface RawCell {
  ref?: string;
  s?: string;
  t?: string;
  f?: { text: string; t?: string; ref?: string; si?: string };
  v?: string;
  inline?: string;
}

export interface SheetXmlSink {
  /** A finished cell at its position (its own `r`, else the next column of the current row). */
  cell(c: RawCell, row: number, col: number): void;
  dimension(ref: string | null): void;
  merge(ref: string): void;
}

export function scanSheetXml(text: string, sink: SheetXmlSink, maxDepth: number): void {
  const scanner = new SheetScanner(sink);
  saxXml(
    text,
    {
      open: (name, a, selfClosing) => scanner.open(name, a, selfClosing),
      close: (name) => scanner.close(name),
      text: (t) => scanner.text(t),
    },
    maxDepth,
  );
}

class SheetScanner {
  private row = 0;
  private col = 0;
  private cell: RawCell | null = null;
  /** The cell part whose text is being collected. */
  private field: 'f' | 'v' | 't' | null = null;
  private inInline = false;
  private readonly buf: string[] = [];

  constructor(private readonly sink: SheetXmlSink) {}

  open(name: string, a: Record<string, string>, selfClosing: boolean): void {
    switch (name) {
      case 'row':
        this.row = a.r ? Number(a.r) : this.row + 1;
        this.col = 0;
        break;
      case 'c':
        this.openCell(a, selfClosing);
        break;
      case 'f':
      case 'v':
      case 'is':
      case 't':
        if (this.cell) this.openCellPart(this.cell, name, a, selfClosing);
        break;
      case 'dimension':
        this.sink.dimension(a.ref ?? null);
        break;
      case 'mergeCell':
        if (a.ref) this.sink.merge(a.ref);
        break;
    }
  }

  close(name: string): void {
    const c = this.cell;
    if (!c) return;
    if (name === 'f' && this.field === 'f' && c.f) c.f.text = this.buf.join('');
    else if (name === 'v' && this.field === 'v') c.v = this.buf.join('');
    else if (name === 't' && this.field === 't') c.inline = (c.inline ?? '') + this.buf.join('');
    else if (name === 'is') this.inInline = false;
    else if (name === 'c') this.finishCell(c);
    if (name === 'f' || name === 'v' || name === 't') this.field = null;
  }

  text(t: string): void {
    if (this.field) this.buf.push(t);
  }

  private openCell(a: Record<string, string>, selfClosing: boolean): void {
    this.col++;
    const cell: RawCell = {};
    if (a.r) cell.ref = a.r;
    if (a.s) cell.s = a.s;
    if (a.t) cell.t = a.t;
    this.cell = cell;
    if (selfClosing) this.finishCell(cell);
  }

  private openCellPart(cell: RawCell, name: 'f' | 'v' | 'is' | 't', a: Record<string, string>, selfClosing: boolean) {
    if (name === 'f') {
      cell.f = { text: '' };
      if (a.t) cell.f.t = a.t;
      if (a.ref) cell.f.ref = a.ref;
      if (a.si) cell.f.si = a.si;
      this.collect(selfClosing ? null : 'f');
    } else if (name === 'v') {
      cell.v = '';
      this.collect(selfClosing ? null : 'v');
    } else if (name === 'is') {
      this.inInline = true;
      cell.inline = '';
    } else if (this.inInline && !selfClosing) this.collect('t');
  }

  private collect(field: 'f' | 'v' | 't' | null): void {
    this.field = field;
    this.buf.length = 0;
  }

  private finishCell(c: RawCell): void {
    const pos = c.ref ? parseCell(c.ref) : null;
    if (pos) {
      this.row = pos.row;
      this.col = pos.col;
    }
    this.cell = null;
    this.sink.cell(c, this.row, this.col);
  }
}
