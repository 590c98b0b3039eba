// xlsx -> evidence, straight from the package XML: every sheet's cells with formulas and cached
// results kept apart (a formula whose <v> is empty has NO cached value — openpyxl writes those),
// number formats and displayed text, merges, comments, defined names and charts.
import { attr, childrenNamed, ownText, textOf, child, relIdOf, type XmlElement } from '../xml/parse-xml.js';
import { OoxmlPackage, type Relationship } from '../ooxml/package-parts.js';
import { chartsOf } from '../ooxml/read-chart.js';
import { cellName, parseCell } from '../a1.js';
import { msg } from '../messages.js';
import type { EvidenceLimits } from '../limits.js';
import type { ChartEvidence, SheetEvidence, XlsxEvidence } from '../types.js';
import { readNumberFormats } from './read-number-formats.js';
import { readSharedStrings } from './read-shared-strings.js';
import { CellBudget, emptySheet, readSheet, type WorkbookContext } from './read-sheet.js';

function officeDocument(pkg: OoxmlPackage, fallback: string): string {
  const rel = pkg.rels('').find((r) => r.type === 'officeDocument');
  return rel && pkg.has(rel.target) ? rel.target : fallback;
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

/** Every sheet in workbook order (chartsheets as empty sheets), and the charts drawn on them. */
function readSheets(
  pkg: OoxmlPackage,
  sheetEls: XmlElement[],
  rels: Relationship[],
  wb: WorkbookContext,
): { sheets: SheetEvidence[]; charts: ChartEvidence[] } {
  const sheets: SheetEvidence[] = [];
  const charts: ChartEvidence[] = [];
  for (const el of sheetEls) {
    const name = attr(el, 'name') ?? `sheet${sheets.length + 1}`;
    const stateAttr = attr(el, 'state');
    const state: SheetEvidence['state'] = stateAttr === 'hidden' || stateAttr === 'veryHidden' ? stateAttr : 'visible';
    const rel = rels.find((r) => r.id === relIdOf(el));
    if (!rel) {
      pkg.notes.push(msg.missingPart(`sheet ${name}`));
      continue;
    }
    const sheet =
      rel.type === 'chartsheet' ? emptySheet(name, state) : readSheet(pkg, { name, state, part: rel.target }, wb);
    if (rel.type !== 'chartsheet') attachComments(pkg, rel.target, sheet);
    sheets.push(sheet);
    for (const d of pkg.rels(rel.target).filter((r) => r.type === 'drawing'))
      charts.push(...chartsOf(pkg, d.target, name));
  }
  return { sheets, charts };
}

/** Defined names users gave (hidden and built-in `_xlnm.` ones left out), with their sheet scope. */
function readDefinedNames(wb: XmlElement, sheetEls: XmlElement[]): XlsxEvidence['definedNames'] {
  return childrenNamed(child(wb, 'definedNames'), 'definedName')
    .filter((d) => attr(d, 'hidden') !== '1' && !(attr(d, 'name') ?? '').startsWith('_xlnm.'))
    .map((d) => {
      const local = attr(d, 'localSheetId');
      const scope = local !== undefined ? attr(sheetEls[Number(local)] ?? wb, 'name') : undefined;
      return { name: attr(d, 'name') ?? '', refersTo: ownText(d), ...(scope ? { scope } : {}) };
    });
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
  const budget = new CellBudget(limits.maxCells);
  const context: WorkbookContext = {
    shared: readSharedStrings(pkg, rels.find((r) => r.type === 'sharedStrings')?.target, limits.maxXmlDepth),
    numFmtOfXf: readNumberFormats(pkg, rels.find((r) => r.type === 'styles')?.target),
    date1904,
    budget,
    maxDepth: limits.maxXmlDepth,
  };
  const sheetEls = childrenNamed(child(wb, 'sheets'), 'sheet');
  const { sheets, charts } = readSheets(pkg, sheetEls, rels, context);
  const definedNames = readDefinedNames(wb, sheetEls);
  const notes = [...pkg.notes];
  if (budget.total > budget.kept) notes.push(msg.cellsTruncated(budget.kept, budget.total));
  return { evidence: { format: 'xlsx', sheets, definedNames, charts, date1904 }, notes };
}
