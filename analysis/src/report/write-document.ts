// File I/O edge for reports: writes one document as
//   <out>/report.html                 self-contained, interactive
//   <out>/report.ipynb                nbformat 4.5
//   <out>/figures/<id>.{svg,png,vl.json}
//   <out>/tables/<id>.{csv,md,tex}
//   <out>/manifest.json               what was written
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { messages } from '../messages.js';
import { renderPng, renderSvg } from '../render/render-figure.js';
import { toCsv, toLatex, toMarkdown } from '../render/format-table.js';
import { renderHtml } from './render-html.js';
import { renderNotebook } from './render-notebook.js';
import type { ReportBlock, ReportDocument, ReportFigure, ReportTable } from './report-document.js';

export interface WrittenReport {
  outDir: string;
  html: string;
  notebook: string;
  manifest: string;
  figures: { id: string; title: string; svg: string; png: string; spec: string }[];
  tables: { id: string; title: string; csv: string; markdown: string; latex: string }[];
}

export async function writeDocument(doc: ReportDocument, outDir: string): Promise<WrittenReport> {
  const { figures, tables, pngs } = await writeBlocks(doc.blocks, outDir);
  const html = path.join(outDir, 'report.html');
  const notebook = path.join(outDir, 'report.ipynb');
  const manifest = path.join(outDir, 'manifest.json');
  await writeFile(html, await renderHtml(doc));
  await writeFile(notebook, JSON.stringify(renderNotebook(doc, pngs), null, 1));
  const written: WrittenReport = { outDir, html, notebook, manifest, figures, tables };
  await writeFile(manifest, JSON.stringify(describeManifest(doc, written), null, 2));
  return written;
}

/** Every figure and table in document order; the PNGs are kept for the notebook's fallbacks. */
async function writeBlocks(
  blocks: readonly ReportBlock[],
  outDir: string,
): Promise<Pick<WrittenReport, 'figures' | 'tables'> & { pngs: Map<string, Buffer> }> {
  const figDir = path.join(outDir, 'figures');
  const tabDir = path.join(outDir, 'tables');
  await mkdir(figDir, { recursive: true });
  await mkdir(tabDir, { recursive: true });
  const pngs = new Map<string, Buffer>();
  const figures: WrittenReport['figures'] = [];
  const tables: WrittenReport['tables'] = [];
  for (const b of blocks) {
    if (b.kind === 'figure') {
      const { png, figure } = await writeFigure(b.figure, figDir);
      pngs.set(b.figure.id, png);
      figures.push(figure);
    } else if (b.kind === 'table') tables.push(await writeTable(b.table, tabDir));
  }
  return { figures, tables, pngs };
}

async function writeFigure(
  f: ReportFigure,
  figDir: string,
): Promise<{ png: Buffer; figure: WrittenReport['figures'][number] }> {
  let svg: string;
  let png: Buffer;
  try {
    svg = await renderSvg(f.spec);
    png = renderPng(svg);
  } catch (err) {
    throw new Error(messages.figureFailed(f.id, (err as Error).message));
  }
  const files = {
    svg: path.join(figDir, `${f.id}.svg`),
    png: path.join(figDir, `${f.id}.png`),
    spec: path.join(figDir, `${f.id}.vl.json`),
  };
  await writeFile(files.svg, svg);
  await writeFile(files.png, png);
  await writeFile(files.spec, JSON.stringify(f.spec, null, 2));
  return { png, figure: { id: f.id, title: f.title, ...files } };
}

async function writeTable(t: ReportTable, tabDir: string): Promise<WrittenReport['tables'][number]> {
  const files = {
    csv: path.join(tabDir, `${t.id}.csv`),
    markdown: path.join(tabDir, `${t.id}.md`),
    latex: path.join(tabDir, `${t.id}.tex`),
  };
  // CSV keeps every column at full precision; Markdown and LaTeX show the display columns.
  await writeFile(files.csv, toCsv({ table: t.table }));
  await writeFile(files.markdown, `**${t.title}.** ${t.caption}\n\n${toMarkdown(t)}`);
  await writeFile(files.latex, toLatex({ ...t, caption: `${t.title}. ${t.caption}`, label: `tab:${t.id}` }));
  return { id: t.id, title: t.title, ...files };
}

/** manifest.json: what was written, with paths relative to the report folder. */
function describeManifest(doc: ReportDocument, written: WrittenReport): Record<string, unknown> {
  const rel = (p: string): string => path.relative(written.outDir, p);
  return {
    schema: 'assay.report-manifest/v1',
    title: doc.title,
    meta: doc.meta,
    html: rel(written.html),
    notebook: rel(written.notebook),
    figures: written.figures.map((f) => ({
      id: f.id,
      title: f.title,
      svg: rel(f.svg),
      png: rel(f.png),
      spec: rel(f.spec),
    })),
    tables: written.tables.map((t) => ({
      id: t.id,
      title: t.title,
      csv: rel(t.csv),
      markdown: rel(t.markdown),
      latex: rel(t.latex),
    })),
  };
}
