// pptx -> evidence: slides in presentation order with title, shape text, tables, pictures' alt
// text, speaker notes and charts (series with cached values). Hidden slides are kept and marked.
// Slides are charged to the output budget; a slide part listed twice is read once and copied.
import { attr, child, childrenNamed, descendants, path, relIdOf } from '../xml/parse-xml.js';
import type { XmlElement, XmlNode } from '../xml/parse-xml.js';
import { OoxmlPackage } from '../ooxml/package-parts.js';
import { chartsOf } from '../ooxml/read-chart.js';
import { msg } from '../messages.js';
import type { EvidenceLimits } from '../limits.js';
import type { PptxEvidence, SlideEvidence } from '../types.js';
import type { OutputBudget } from './output-budget.js';

/** Text of a DrawingML text body: paragraphs joined by newlines, line breaks kept. */
function bodyText(txBody: XmlElement | undefined): string {
  if (!txBody) return '';
  return childrenNamed(txBody, 'p')
    .map((p) => {
      const out: string[] = [];
      for (const node of p.children) {
        if (typeof node === 'string') continue;
        if (node.name === 'r' || node.name === 'fld')
          out.push(
            descendants(node, 't')
              .map((t) => t.children.join(''))
              .join(''),
          );
        else if (node.name === 'br') out.push('\n');
      }
      return out.join('');
    })
    .join('\n')
    .trim();
}

function placeholderType(shape: XmlElement): string | undefined {
  const nv = child(shape, 'nvSpPr') ?? child(shape, 'nvGraphicFramePr') ?? child(shape, 'nvPicPr');
  const ph = path(nv, 'nvPr', 'ph');
  if (!ph) return undefined;
  return attr(ph, 'type') ?? 'body';
}

/** Shapes of a shape tree in drawing order, groups and alternate content unwrapped. */
function shapes(tree: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  const stack: XmlNode[] = [...tree.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (typeof node === 'string') continue;
    if (node.name === 'grpSp' || node.name === 'AlternateContent' || node.name === 'Choice') {
      for (let k = node.children.length - 1; k >= 0; k--) stack.push(node.children[k]!);
    } else if (node.name === 'sp' || node.name === 'graphicFrame' || node.name === 'pic' || node.name === 'cxnSp') {
      out.push(node);
    }
  }
  return out;
}

function readSlide(pkg: OoxmlPackage, part: string, index: number, budget: OutputBudget): SlideEvidence {
  const slide: SlideEvidence = {
    index,
    title: null,
    hidden: false,
    texts: [],
    tables: [],
    notes: '',
    charts: [],
    images: [],
  };
  const root = pkg.xml(part);
  if (!root) {
    pkg.notes.push(msg.missingPart(part));
    return slide;
  }
  slide.hidden = attr(root, 'show') === '0';
  const tree = path(root, 'cSld', 'spTree');
  for (const shape of tree ? shapes(tree) : []) {
    const ph = placeholderType(shape);
    if (ph === 'sldNum') continue;
    if (shape.name === 'sp') {
      const text = bodyText(child(shape, 'txBody'));
      if (!text) continue;
      if ((ph === 'title' || ph === 'ctrTitle') && slide.title === null) slide.title = text;
      else slide.texts.push(text);
    } else if (shape.name === 'graphicFrame') {
      for (const tbl of descendants(shape, 'tbl')) {
        slide.tables.push(
          childrenNamed(tbl, 'tr').map((tr) => childrenNamed(tr, 'tc').map((tc) => bodyText(child(tc, 'txBody')))),
        );
      }
    } else if (shape.name === 'pic') {
      const c = path(shape, 'nvPicPr', 'cNvPr');
      const image = { name: c ? (attr(c, 'name') ?? '') : '', alt: c ? (attr(c, 'descr') ?? '') : '' };
      if (budget.take('images', image.name.length + image.alt.length)) slide.images.push(image);
    }
  }
  slide.charts = chartsOf(pkg, part, `slide ${index}`, budget);
  const notesRel = pkg.rels(part).find((r) => r.type === 'notesSlide');
  const notesRoot = notesRel ? pkg.xml(notesRel.target) : null;
  const notesTree = notesRoot ? path(notesRoot, 'cSld', 'spTree') : undefined;
  if (notesTree) {
    slide.notes = shapes(notesTree)
      .filter((s) => s.name === 'sp' && placeholderType(s) === 'body')
      .map((s) => bodyText(child(s, 'txBody')))
      .filter(Boolean)
      .join('\n');
  }
  return slide;
}

/** Characters of a slide's own strings (its charts and pictures are charged as they are read). */
function slideChars(s: SlideEvidence): number {
  const tables = s.tables.reduce((n, t) => n + t.reduce((m, r) => m + r.reduce((k, c) => k + c.length + 3, 0), 0), 0);
  return (s.title?.length ?? 0) + s.texts.reduce((n, t) => n + t.length + 3, 0) + tables + s.notes.length;
}

export function extractPptx(
  files: Map<string, Buffer>,
  limits: EvidenceLimits,
  budget: OutputBudget,
): { evidence: PptxEvidence; notes: string[] } {
  const pkg = new OoxmlPackage(files, limits.maxXmlDepth, limits.maxXmlNodes);
  const rel = pkg.rels('').find((r) => r.type === 'officeDocument');
  const presPart = rel && pkg.has(rel.target) ? rel.target : 'ppt/presentation.xml';
  const pres = pkg.xml(presPart, true);
  if (!pres) throw new Error(msg.missingPart(presPart));
  const rels = new Map(pkg.rels(presPart).map((r) => [r.id, r]));
  const ids = childrenNamed(child(pres, 'sldIdLst'), 'sldId');
  // A part read once, with what it cost, so a copy is charged the same.
  const read = new Map<string, { slide: SlideEvidence; cost: number }>();
  const slides: SlideEvidence[] = [];
  let copies = 0;
  let copied = '';
  for (let i = 0; i < ids.length; i++) {
    if (budget.closed('slides')) {
      budget.skip('slides', ids.length - i);
      break;
    }
    const r = rels.get(relIdOf(ids[i]!) ?? '');
    if (!r || r.external) continue;
    const index = slides.length + 1;
    const first = read.get(r.target);
    if (first) [copies, copied] = [copies + 1, r.target];
    const before = budget.bytes;
    const slide = first ? { ...first.slide, index } : readSlide(pkg, r.target, index, budget);
    if (!first) read.set(r.target, { slide, cost: budget.bytes - before + slideChars(slide) });
    if (budget.take('slides', first ? first.cost : slideChars(slide))) slides.push(slide);
  }
  if (copies) pkg.notes.push(msg.duplicateSlides(copies, copied));
  return { evidence: { format: 'pptx', slides }, notes: pkg.notes.list() };
}
