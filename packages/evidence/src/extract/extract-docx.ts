// docx -> evidence: body paragraphs (with heading levels and list marks) and tables in document
// order, comments, headers, footers and footnotes. Deleted text (tracked changes), field codes and
// the fallback copies of alternate content are left out, as a reader of the document would.
// Everything is charged to the output budget; a part that several relationships name is read once.
import { attr, child, childrenNamed, descendants } from '../xml/parse-xml.js';
import type { XmlElement, XmlNode } from '../xml/parse-xml.js';
import { OoxmlPackage } from '../ooxml/package-parts.js';
import { msg } from '../messages.js';
import type { EvidenceLimits } from '../limits.js';
import type { DocBlock, DocxEvidence } from '../types.js';
import type { OutputBudget } from './output-budget.js';

const SKIP = new Set(['del', 'delText', 'instrText', 'Fallback', 'rPr', 'pPr', 'sectPr', 'commentReference']);

/** Text of a paragraph: runs' text, tabs and breaks, in order. */
function paragraphText(p: XmlElement): string {
  const out: string[] = [];
  const stack: XmlNode[] = [...p.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (typeof node === 'string') continue;
    if (SKIP.has(node.name)) continue;
    if (node.name === 't') {
      out.push(node.children.filter((c): c is string => typeof c === 'string').join(''));
      continue;
    }
    if (node.name === 'tab') out.push('\t');
    else if (node.name === 'br' || node.name === 'cr') out.push('\n');
    else if (node.name === 'p' && out.length > 0) out.push('\n');
    for (let k = node.children.length - 1; k >= 0; k--) stack.push(node.children[k]!);
  }
  return out.join('');
}

interface StyleInfo {
  name: string;
  level?: number;
  list: boolean;
}

function readStyles(pkg: OoxmlPackage, part: string | undefined): Map<string, StyleInfo> {
  const map = new Map<string, StyleInfo>();
  const root = part ? pkg.xml(part) : null;
  for (const s of childrenNamed(root ?? undefined, 'style')) {
    const id = attr(s, 'styleId');
    if (!id) continue;
    const name = attr(child(s, 'name') ?? s, 'val') ?? id;
    const outline = attr(child(child(s, 'pPr'), 'outlineLvl') ?? s, 'val');
    const h = /^heading\s*(\d)$/i.exec(name);
    const level = /^title$/i.test(name)
      ? 0
      : h
        ? Number(h[1])
        : outline !== undefined
          ? Number(outline) + 1
          : undefined;
    map.set(id, { name, ...(level !== undefined ? { level } : {}), list: /list/i.test(name) });
  }
  return map;
}

function tableRows(tbl: XmlElement): string[][] {
  return childrenNamed(tbl, 'tr').map((tr) =>
    childrenNamed(tr, 'tc').map((tc) => descendants(tc, 'p').map(paragraphText).join('\n').trim()),
  );
}

/** Body children in order, unwrapping content controls (sdt) and custom XML wrappers. */
function bodyBlocks(body: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  const stack: XmlNode[] = [...body.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (typeof node === 'string') continue;
    if (node.name === 'p' || node.name === 'tbl') out.push(node);
    else if (
      node.name === 'sdt' ||
      node.name === 'sdtContent' ||
      node.name === 'customXml' ||
      node.name === 'AlternateContent' ||
      node.name === 'Choice'
    ) {
      for (let k = node.children.length - 1; k >= 0; k--) stack.push(node.children[k]!);
    }
  }
  return out;
}

function partParagraphs(pkg: OoxmlPackage, part: string): string {
  const root = pkg.xml(part);
  if (!root) return '';
  return descendants(root, 'p')
    .map(paragraphText)
    .filter((t) => t.trim() !== '')
    .join('\n');
}

/** Body paragraphs (with style, heading level, list mark) and tables, in order, within the budget. */
function readBlocks(doc: XmlElement, styles: Map<string, StyleInfo>, budget: OutputBudget): DocBlock[] {
  const blocks: DocBlock[] = [];
  let paragraphs = 0;
  let tables = 0;
  for (const el of bodyBlocks(child(doc, 'body') ?? doc)) {
    if (budget.closed('blocks')) {
      budget.take('blocks');
      continue;
    }
    if (el.name === 'tbl') {
      const rows = tableRows(el);
      const chars = rows.reduce((n, r) => n + r.reduce((m, c) => m + c.length + 3, 0), 0);
      if (budget.take('blocks', chars)) blocks.push({ type: 'table', index: ++tables, rows });
      continue;
    }
    const text = paragraphText(el);
    if (text.trim() === '') continue;
    const pPr = child(el, 'pPr');
    const styleId = attr(child(pPr, 'pStyle') ?? el, 'val');
    const style = styleId ? styles.get(styleId) : undefined;
    const outline = attr(child(pPr, 'outlineLvl') ?? el, 'val');
    const level = style?.level ?? (outline !== undefined ? Number(outline) + 1 : undefined);
    const list = Boolean(child(pPr, 'numPr')) || Boolean(style?.list);
    const styleName = style ? style.name : styleId;
    if (!budget.take('blocks', text.length + (styleName?.length ?? 0))) continue;
    blocks.push({
      type: 'paragraph',
      index: ++paragraphs,
      text,
      ...(styleName ? { style: styleName } : {}),
      ...(level !== undefined && level < 10 ? { headingLevel: level } : {}),
      ...(list ? { list } : {}),
    });
  }
  return blocks;
}

function readComments(pkg: OoxmlPackage, parts: string[], budget: OutputBudget): DocxEvidence['comments'] {
  const comments: DocxEvidence['comments'] = [];
  for (const part of parts) {
    for (const c of childrenNamed(pkg.xml(part) ?? undefined, 'comment')) {
      const comment = {
        id: attr(c, 'id') ?? '',
        author: attr(c, 'author') ?? '',
        text: descendants(c, 'p').map(paragraphText).join('\n').trim(),
      };
      if (budget.take('comments', comment.id.length + comment.author.length + comment.text.length))
        comments.push(comment);
    }
  }
  return comments;
}

function readNotes(pkg: OoxmlPackage, parts: string[], budget: OutputBudget): string[] {
  const footnotes: string[] = [];
  for (const part of parts) {
    const root = pkg.xml(part);
    for (const n of [...childrenNamed(root ?? undefined, 'footnote'), ...childrenNamed(root ?? undefined, 'endnote')]) {
      if (attr(n, 'type')) continue; // separators
      const text = descendants(n, 'p').map(paragraphText).join('\n').trim();
      if (text && budget.take('parts', text.length)) footnotes.push(text);
    }
  }
  return footnotes;
}

export function extractDocx(
  files: Map<string, Buffer>,
  limits: EvidenceLimits,
  budget: OutputBudget,
): { evidence: DocxEvidence; notes: string[] } {
  const pkg = new OoxmlPackage(files, limits.maxXmlDepth, limits.maxXmlNodes);
  const rel = pkg.rels('').find((r) => r.type === 'officeDocument');
  const docPart = rel && pkg.has(rel.target) ? rel.target : 'word/document.xml';
  const doc = pkg.xml(docPart, true);
  if (!doc) throw new Error(msg.missingPart(docPart));
  const rels = pkg.rels(docPart);
  const styles = readStyles(pkg, rels.find((r) => r.type === 'styles')?.target);
  const blocks = readBlocks(doc, styles, budget);
  // Each part once, however many relationships name it.
  const byType = (type: string) => [
    ...new Set(rels.filter((r) => r.type === type && !r.external).map((r) => r.target)),
  ];
  const texts = (parts: string[]) => {
    const out = new Set<string>();
    for (const p of parts) {
      const t = partParagraphs(pkg, p);
      if (t.trim() !== '' && !out.has(t) && budget.take('parts', t.length)) out.add(t);
    }
    return [...out];
  };
  return {
    evidence: {
      format: 'docx',
      blocks,
      comments: readComments(pkg, byType('comments'), budget),
      headers: texts(byType('header')),
      footers: texts(byType('footer')),
      footnotes: readNotes(pkg, [...new Set([...byType('footnotes'), ...byType('endnotes')])], budget),
    },
    notes: pkg.notes.list(),
  };
}
