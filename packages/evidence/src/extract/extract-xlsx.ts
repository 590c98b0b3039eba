// xlsx -> evidence, straight from the package XML: every sheet's cells with formulas and cached
// results kept apart (a formula whose <v> is empty has NO cached value — openpyxl writes those),
// number formats and displayed text, merges, comments, defined names and charts. All of it is
// charged to the file's output budget; a part that two sheets (or drawings) share is read once.
import { attr, childrenNamed, ownText, textOf, child, relIdOf, type XmlElement } from '../xml/parse-xml.js';
import { OoxmlPackage, type Relationship } from '../ooxml/package-parts.js';
import { chartsOf } from '../ooxml/read-chart.js';
import { cellName, parseCell } from '../a1.js';
import { msg } from '../messages.js';
import type { EvidenceLimits } from '../limits.js';
import type { ChartEvidence, SheetEvidence, XlsxEvidence } from '../types.js';
import { readNumberFormats } from './read-number-formats.js';
import { readSharedStrings } from './read-shared-strings.js';
import { cellChars, emptySheet, readSheet, type WorkbookContext } from './read-sheet.js';
import type { OutputBudget } from './output-budget.js';

function officeDocument(pkg: OoxmlPackage, fallback: string): string {
  const rel = pkg.rels('').find((r) => r.type === 'officeDocument');
  return rel && pkg.has(rel.target) ? rel.target : fallback;
}

function attachComments(pkg: OoxmlPackage, sheetPart: string, sheet: SheetEvidence, budget: OutputBudget): void {
  const parts = new Set(
    pkg
      .rels(sheetPart)
      .filter((r) => r.type === 'comments')
      .map((r) => r.target),
  );
  if (parts.size === 0) return;
  const byPos = new Map(sheet.cells.map((c) => [`${c.row}:${c.col}`, c]));
  for (const part of parts) {
    const root = pkg.xml(part);
    for (const c of childrenNamed(child(root ?? undefined, 'commentList'), 'comment')) {
      const ref = attr(c, 'ref');
      const pos = ref ? parseCell(ref) : null;
      if (!pos) continue;
      const text = textOf(c).trim();
      if (!budget.take('comments', text.length)) continue;
      const existing = byPos.get(`${pos.row}:${pos.col}`);
      if (existing) existing.comment = text;
      else {
        const cell = {
          ref: cellName(pos.row, pos.col),
          row: pos.row,
          col: pos.col,
          kind: 'empty' as const,
          value: null,
          text: '',
          comment: text,
        };
        if (!budget.take('cells', cellChars(cell))) continue;
        byPos.set(`${pos.row}:${pos.col}`, cell);
        sheet.cells.push(cell);
      }
    }
  }
  sheet.cells.sort((a, b) => a.row - b.row || a.col - b.col);
}

/** Every sheet in workbook order (chartsheets as empty sheets), and the charts drawn on them. */
function readSheets(
  pkg: OoxmlPackage,
  sheetEls: XmlElement[],
  rels: Relationship[],
  wb: WorkbookContext,
): { sheets: SheetEvidence[]; charts: ChartEvidence[] } {
  const charts: ChartEvidence[] = [];
  // Every sheet's entry first, so the names survive even when the cells fill the budget.
  const listed = listSheets(sheetEls, wb.budget);
  const readBy = new Map<string, string>();
  const byId = new Map(rels.map((r) => [r.id, r]));
  const sheets: SheetEvidence[] = [];
  for (const { el, sheet } of listed) {
    const name = sheet.name;
    const rel = byId.get(relIdOf(el) ?? '');
    const first = rel ? readBy.get(rel.target) : undefined;
    if (!rel || first !== undefined) {
      pkg.notes.push(rel ? msg.duplicatePart(`sheet ${name}`, rel.target, first!) : msg.missingPart(`sheet ${name}`));
      if (rel) sheets.push(sheet);
      continue;
    }
    readBy.set(rel.target, name);
    const read = rel.type === 'chartsheet' ? sheet : readSheet(pkg, { name, state: sheet.state, part: rel.target }, wb);
    if (rel.type !== 'chartsheet') attachComments(pkg, rel.target, read, wb.budget);
    sheets.push(read);
    for (const d of pkg.rels(rel.target).filter((r) => r.type === 'drawing')) {
      if (readBy.has(d.target)) continue;
      readBy.set(d.target, name);
      charts.push(...chartsOf(pkg, d.target, name, wb.budget));
    }
  }
  return { sheets, charts };
}

/** The sheet entries the budget holds, as empty sheets (the cells of the rest are not read). */
function listSheets(sheetEls: XmlElement[], budget: OutputBudget): Array<{ el: XmlElement; sheet: SheetEvidence }> {
  const out: Array<{ el: XmlElement; sheet: SheetEvidence }> = [];
  for (const el of sheetEls) {
    const name = attr(el, 'name') ?? `sheet${out.length + 1}`;
    // Sheet names are structure (31 characters at most in Excel): sized, not charged as text.
    if (!budget.take('sheets', 0, 1, 120 + name.length)) {
      budget.skip('cells', 0, false);
      continue;
    }
    const stateAttr = attr(el, 'state');
    const state: SheetEvidence['state'] = stateAttr === 'hidden' || stateAttr === 'veryHidden' ? stateAttr : 'visible';
    out.push({ el, sheet: emptySheet(name, state) });
  }
  return out;
}

/** Defined names users gave (hidden and built-in `_xlnm.` ones left out), with their sheet scope. */
function readDefinedNames(wb: XmlElement, sheetEls: XmlElement[], budget: OutputBudget): XlsxEvidence['definedNames'] {
  return childrenNamed(child(wb, 'definedNames'), 'definedName')
    .filter((d) => attr(d, 'hidden') !== '1' && !(attr(d, 'name') ?? '').startsWith('_xlnm.'))
    .map((d) => {
      const local = attr(d, 'localSheetId');
      const scope = local !== undefined ? attr(sheetEls[Number(local)] ?? wb, 'name') : undefined;
      return { name: attr(d, 'name') ?? '', refersTo: ownText(d), ...(scope ? { scope } : {}) };
    })
    .filter((d) => budget.take('names', d.name.length + d.refersTo.length + (d.scope?.length ?? 0)));
}

export function extractXlsx(
  files: Map<string, Buffer>,
  limits: EvidenceLimits,
  budget: OutputBudget,
): { evidence: XlsxEvidence; notes: string[] } {
  const pkg = new OoxmlPackage(files, limits.maxXmlDepth, limits.maxXmlNodes);
  const wbPart = officeDocument(pkg, 'xl/workbook.xml');
  const wb = pkg.xml(wbPart, true);
  if (!wb) throw new Error(msg.missingPart(wbPart));
  const date1904 = ['1', 'true'].includes(attr(child(wb, 'workbookPr') ?? wb, 'date1904') ?? '');
  const rels = pkg.rels(wbPart);
  const context: WorkbookContext = {
    shared: readSharedStrings(pkg, rels.find((r) => r.type === 'sharedStrings')?.target, limits.maxXmlDepth),
    numFmtOfXf: readNumberFormats(pkg, rels.find((r) => r.type === 'styles')?.target),
    date1904,
    budget,
    maxDepth: limits.maxXmlDepth,
  };
  const sheetEls = childrenNamed(child(wb, 'sheets'), 'sheet');
  const { sheets, charts } = readSheets(pkg, sheetEls, rels, context);
  const definedNames = readDefinedNames(wb, sheetEls, budget);
  return { evidence: { format: 'xlsx', sheets, definedNames, charts, date1904 }, notes: pkg.notes.list() };
}
