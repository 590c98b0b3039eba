// xlsx -> evidence, straight from the package XML: every sheet's cells with formulas and cached
// results kept apart (a formula whose <v> is empty has NO cached value — openpyxl writes those),
// number formats and displayed text, merges, comments, defined names and charts.
import SSF from 'ssf';
import { attr, childrenNamed, ownText, saxXml, textOf, child, relIdOf } from '../xml/parse-xml.js';
import { OoxmlPackage } from '../ooxml/package-parts.js';
import { chartsOf } from '../ooxml/read-chart.js';
import { cellName, parseCell, shiftFormula } from '../a1.js';
import { msg } from '../messages.js';
import type { EvidenceLimits } from '../limits.js';
import type { CellEvidence, ChartEvidence, SheetEvidence, XlsxEvidence } from '../types.js';

interface Styles {
  numFmtOfXf: string[];
}

function officeDocument(pkg: OoxmlPackage, fallback: string): string {
  const rel = pkg.rels('').find((r) => r.type === 'officeDocument');
  return rel && pkg.has(rel.target) ? rel.target : fallback;
}

function readSharedStrings(pkg: OoxmlPackage, part: string | undefined, maxDepth: number): string[] {
  const text = part ? pkg.text(part) : null;
  if (text === null) return [];
  const out: string[] = [];
  let cur: string[] | null = null;
  let inT = false;
  let skipDepth = 0;
  saxXml(
    text,
    {
      open(name, _a, selfClosing) {
        if (name === 'si') cur = [];
        else if (name === 'rPh' || name === 'phoneticPr') skipDepth += selfClosing ? 0 : 1;
        else if (name === 't' && !selfClosing) inT = true;
      },
      close(name) {
        if (name === 'si') {
          out.push((cur ?? []).join(''));
          cur = null;
        } else if (name === 'rPh') skipDepth = Math.max(0, skipDepth - 1);
        else if (name === 't') inT = false;
      },
      text(t) {
        if (inT && skipDepth === 0 && cur) cur.push(t);
      },
    },
    maxDepth,
  );
  return out;
}

function readStyles(pkg: OoxmlPackage, part: string | undefined): Styles {
  const root = part ? pkg.xml(part) : null;
  if (!root) return { numFmtOfXf: [] };
  const custom = new Map<number, string>();
  for (const f of childrenNamed(child(root, 'numFmts'), 'numFmt'))
    custom.set(Number(attr(f, 'numFmtId')), attr(f, 'formatCode') ?? 'General');
  const table = SSF.get_table();
  const numFmtOfXf = childrenNamed(child(root, 'cellXfs'), 'xf').map((xf) => {
    const id = Number(attr(xf, 'numFmtId') ?? 0);
    return custom.get(id) ?? table[id] ?? 'General';
  });
  return { numFmtOfXf };
}

function isoDate(serial: number, date1904: boolean): string | undefined {
  try {
    const d = SSF.parse_date_code(serial, { date1904 });
    if (!d) return undefined;
    const p = (n: number, w = 2) => String(n).padStart(w, '0');
    const day = `${p(d.y, 4)}-${p(d.m)}-${p(d.d)}`;
    return d.H || d.M || d.S ? `${day}T${p(d.H)}:${p(d.M)}:${p(d.S)}` : day;
  } catch {
    return undefined;
  }
}

const dateFormats = new Map<string, boolean>();

/** Whether a number format shows dates (cached: formats repeat across thousands of cells). */
function isDateFormat(numFmt: string): boolean {
  let v = dateFormats.get(numFmt);
  if (v === undefined) {
    try {
      v = SSF.is_date(numFmt);
    } catch {
      v = false;
    }
    dateFormats.set(numFmt, v);
  }
  return v;
}

function display(value: CellEvidence['value'], kind: CellEvidence['kind'], numFmt: string, date1904: boolean): string {
  if (value === null) return '';
  if (kind === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value !== 'number') return String(value);
  // Fast path: General shows integers below 1e11 as written.
  if (numFmt === 'General' && Number.isInteger(value) && Math.abs(value) < 1e11) return String(value);
  try {
    return SSF.format(numFmt, value, { date1904 });
  } catch {
    return String(value);
  }
}

interface RawCell {
  ref?: string;
  s?: string;
  t?: string;
  f?: { text: string; t?: string; ref?: string; si?: string };
  v?: string;
  inline?: string;
}

interface SheetContext {
  name: string;
  state: SheetEvidence['state'];
  part: string;
}

class CellBudget {
  kept = 0;
  total = 0;
  constructor(readonly max: number) {}
}

function readSheet(
  pkg: OoxmlPackage,
  ctx: SheetContext,
  shared: string[],
  styles: Styles,
  date1904: boolean,
  budget: CellBudget,
  maxDepth: number,
): SheetEvidence {
  const sheet: SheetEvidence = {
    name: ctx.name,
    state: ctx.state,
    dimension: null,
    rowCount: 0,
    cellCount: 0,
    cells: [],
    merges: [],
  };
  const text = pkg.text(ctx.part);
  if (text === null) {
    pkg.notes.push(msg.missingPart(ctx.part));
    return sheet;
  }
  const sharedFormulas = new Map<string, { formula: string; row: number; col: number }>();
  const rowsWithData = new Set<number>();
  let row = 0;
  let col = 0;
  let cell: RawCell | null = null;
  let field: 'f' | 'v' | 't' | null = null;
  let inInline = false;
  const buf: string[] = [];

  const finishCell = (c: RawCell) => {
    const pos = c.ref ? parseCell(c.ref) : null;
    if (pos) {
      row = pos.row;
      col = pos.col;
    }
    const ref = cellName(row, col);
    let formula: string | undefined;
    if (c.f) {
      if (c.f.t === 'shared' && c.f.si !== undefined) {
        if (c.f.text) sharedFormulas.set(c.f.si, { formula: c.f.text, row, col });
        const master = sharedFormulas.get(c.f.si);
        formula = c.f.text || (master ? shiftFormula(master.formula, row - master.row, col - master.col) : undefined);
      } else if (c.f.text) formula = c.f.text;
    }
    const numFmt = styles.numFmtOfXf[Number(c.s ?? 0)] ?? 'General';
    // Widened on purpose: `set` assigns them from a closure, which narrowing does not see.
    let kind = 'empty' as CellEvidence['kind'];
    let value = null as CellEvidence['value'];
    const v = c.v;
    const set = (k: CellEvidence['kind'], x: CellEvidence['value']) => {
      kind = k;
      value = x;
    };
    switch (c.t) {
      case 's': {
        const s = v !== undefined && v !== '' ? shared[Number(v)] : undefined;
        if (s !== undefined) set('string', s);
        break;
      }
      case 'inlineStr':
        if (c.inline !== undefined) set('string', c.inline);
        break;
      case 'str':
        if (v !== undefined) set('string', v);
        break;
      case 'b':
        if (v !== undefined && v !== '') set('boolean', v === '1' || v.toLowerCase() === 'true');
        break;
      case 'e':
        if (v !== undefined && v !== '') set('error', v);
        break;
      case 'd':
        if (v) set('date', v);
        break;
      default:
        if (v !== undefined && v.trim() !== '') {
          const n = Number(v);
          if (Number.isFinite(n)) set('number', n);
          else set('string', v);
        }
    }
    if (kind === 'empty' && formula === undefined) return;
    budget.total++;
    sheet.cellCount++;
    rowsWithData.add(row);
    if (budget.kept >= budget.max) {
      sheet.truncated = true;
      return;
    }
    budget.kept++;
    let date: string | undefined;
    if (kind === 'number' && isDateFormat(numFmt)) {
      date = isoDate(value as number, date1904);
      if (date) kind = 'date';
    } else if (kind === 'date') date = String(value);
    const out: CellEvidence = { ref, row, col, kind, value, text: display(value, kind, numFmt, date1904) };
    if (formula !== undefined) {
      out.formula = formula;
      out.cached = kind !== 'empty';
    }
    if (numFmt !== 'General') out.numFmt = numFmt;
    if (date) out.date = date;
    sheet.cells.push(out);
  };

  saxXml(
    text,
    {
      open(name, a, selfClosing) {
        switch (name) {
          case 'row':
            row = a.r ? Number(a.r) : row + 1;
            col = 0;
            break;
          case 'c':
            col++;
            cell = {};
            if (a.r) cell.ref = a.r;
            if (a.s) cell.s = a.s;
            if (a.t) cell.t = a.t;
            if (selfClosing) {
              finishCell(cell);
              cell = null;
            }
            break;
          case 'f':
            if (cell) {
              cell.f = { text: '' };
              if (a.t) cell.f.t = a.t;
              if (a.ref) cell.f.ref = a.ref;
              if (a.si) cell.f.si = a.si;
              field = selfClosing ? null : 'f';
              buf.length = 0;
            }
            break;
          case 'v':
            if (cell) {
              cell.v = '';
              field = selfClosing ? null : 'v';
              buf.length = 0;
            }
            break;
          case 'is':
            if (cell) {
              inInline = true;
              cell.inline = '';
            }
            break;
          case 't':
            if (cell && inInline && !selfClosing) {
              field = 't';
              buf.length = 0;
            }
            break;
          case 'dimension':
            sheet.dimension = a.ref ?? null;
            break;
          case 'mergeCell':
            if (a.ref) sheet.merges.push(a.ref);
            break;
        }
      },
      close(name) {
        if (!cell) return;
        const c: RawCell = cell;
        if (name === 'f' && field === 'f' && c.f) c.f.text = buf.join('');
        else if (name === 'v' && field === 'v') c.v = buf.join('');
        else if (name === 't' && field === 't') c.inline = (c.inline ?? '') + buf.join('');
        else if (name === 'is') inInline = false;
        else if (name === 'c') {
          finishCell(c);
          cell = null;
        }
        if (name === 'f' || name === 'v' || name === 't') field = null;
      },
      text(t) {
        if (field) buf.push(t);
      },
    },
    maxDepth,
  );
  sheet.rowCount = rowsWithData.size;
  return sheet;
}

function attachComments(pkg: OoxmlPackage, sheetPart: string, sheet: SheetEvidence): void {
  for (const rel of pkg.rels(sheetPart).filter((r) => r.type === 'comments')) {
    const root = pkg.xml(rel.target);
    for (const c of childrenNamed(child(root ?? undefined, 'commentList'), 'comment')) {
      const ref = attr(c, 'ref');
      const pos = ref ? parseCell(ref) : null;
      if (!pos) continue;
      const text = textOf(c).trim();
      const existing = sheet.cells.find((x) => x.row === pos.row && x.col === pos.col);
      if (existing) existing.comment = text;
      else
        sheet.cells.push({
          ref: cellName(pos.row, pos.col),
          row: pos.row,
          col: pos.col,
          kind: 'empty',
          value: null,
          text: '',
          comment: text,
        });
    }
  }
  sheet.cells.sort((a, b) => a.row - b.row || a.col - b.col);
}

export function extractXlsx(
  files: Map<string, Buffer>,
  limits: EvidenceLimits,
): { evidence: XlsxEvidence; notes: string[] } {
  const pkg = new OoxmlPackage(files, limits.maxXmlDepth);
  const wbPart = officeDocument(pkg, 'xl/workbook.xml');
  const wb = pkg.xml(wbPart, true);
  if (!wb) throw new Error(msg.missingPart(wbPart));
  const date1904 = ['1', 'true'].includes(attr(child(wb, 'workbookPr') ?? wb, 'date1904') ?? '');
  const rels = pkg.rels(wbPart);
  const shared = readSharedStrings(pkg, rels.find((r) => r.type === 'sharedStrings')?.target, limits.maxXmlDepth);
  const styles = readStyles(pkg, rels.find((r) => r.type === 'styles')?.target);
  const budget = new CellBudget(limits.maxCells);
  const sheets: SheetEvidence[] = [];
  const charts: ChartEvidence[] = [];
  const sheetEls = childrenNamed(child(wb, 'sheets'), 'sheet');
  for (const el of sheetEls) {
    const name = attr(el, 'name') ?? `sheet${sheets.length + 1}`;
    const stateAttr = attr(el, 'state');
    const state: SheetEvidence['state'] = stateAttr === 'hidden' || stateAttr === 'veryHidden' ? stateAttr : 'visible';
    const rel = rels.find((r) => r.id === relIdOf(el));
    if (!rel) {
      pkg.notes.push(msg.missingPart(`sheet ${name}`));
      continue;
    }
    const ctx = { name, state, part: rel.target };
    const sheet =
      rel.type === 'chartsheet'
        ? { name, state, dimension: null, rowCount: 0, cellCount: 0, cells: [], merges: [] }
        : readSheet(pkg, ctx, shared, styles, date1904, budget, limits.maxXmlDepth);
    if (rel.type !== 'chartsheet') attachComments(pkg, rel.target, sheet);
    sheets.push(sheet);
    for (const d of pkg.rels(rel.target).filter((r) => r.type === 'drawing'))
      charts.push(...chartsOf(pkg, d.target, name));
  }
  const definedNames = childrenNamed(child(wb, 'definedNames'), 'definedName')
    .filter((d) => attr(d, 'hidden') !== '1' && !(attr(d, 'name') ?? '').startsWith('_xlnm.'))
    .map((d) => {
      const local = attr(d, 'localSheetId');
      const scope = local !== undefined ? attr(sheetEls[Number(local)] ?? wb, 'name') : undefined;
      return { name: attr(d, 'name') ?? '', refersTo: ownText(d), ...(scope ? { scope } : {}) };
    });
  const notes = [...pkg.notes];
  if (budget.total > budget.kept) notes.push(msg.cellsTruncated(budget.kept, budget.total));
  return { evidence: { format: 'xlsx', sheets, definedNames, charts, date1904 }, notes };
}
