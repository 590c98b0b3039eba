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
import type { ReportDocument } from './report-document.js';

export interface WrittenReport {
  outDir: string;
  html: string;
  notebook: string;
  manifest: string;
  figures: { id: string; title: string; svg: string; png: string; spec: string }[];
  tables: { id: string; title: string; csv: string; markdown: string; latex: string }[];
}

export async function writeDocument(doc: ReportDocument, outDir: string): Promise<WrittenReport> {
  const figDir = path.join(outDir, 'figures');
  const tabDir = path.join(outDir, 'tables');
  await mkdir(figDir, { recursive: true });
  await mkdir(tabDir, { recursive: true });
  const pngs = new Map<string, Buffer>();
  const figures: WrittenReport['figures'] = [];
  const tables: WrittenReport['tables'] = [];
  for (const b of doc.blocks) {
    if (b.kind === 'figure') {
      const f = b.figure;
      let svg: string;
      let png: Buffer;
      try {
        svg = await renderSvg(f.spec);
        png = renderPng(svg);
      } catch (err) {
        throw new Error(messages.figureFailed(f.id, (err as Error).message));
      }
      pngs.set(f.id, png);
      const files = {
        svg: path.join(figDir, `${f.id}.svg`),
        png: path.join(figDir, `${f.id}.png`),
        spec: path.join(figDir, `${f.id}.vl.json`),
      };
      await writeFile(files.svg, svg);
      await writeFile(files.png, png);
      await writeFile(files.spec, JSON.stringify(f.spec, null, 2));
      figures.push({ id: f.id, title: f.title, ...files });
    } else if (b.kind === 'table') {
      const t = b.table;
      const files = {
        csv: path.join(tabDir, `${t.id}.csv`),
        markdown: path.join(tabDir, `${t.id}.md`),
        latex: path.join(tabDir, `${t.id}.tex`),
      };
      // CSV keeps every column at full precision; Markdown and LaTeX show the display columns.
      await writeFile(files.csv, toCsv({ table: t.table }));
      await writeFile(files.markdown, `**${t.title}.** ${t.caption}\n\n${toMarkdown(t)}`);
      await writeFile(files.latex, toLatex({ ...t, caption: `${t.title}. ${t.caption}`, label: `tab:${t.id}` }));
      tables.push({ id: t.id, title: t.title, ...files });
    }
  }
  const html = path.join(outDir, 'report.html');
  const notebook = path.join(outDir, 'report.ipynb');
  const manifest = path.join(outDir, 'manifest.json');
  await writeFile(html, await renderHtml(doc));
  await writeFile(notebook, JSON.stringify(renderNotebook(doc, pngs), null, 1));
  const written: WrittenReport = { outDir, html, notebook, manifest, figures, tables };
  const rel = (p: string): string => path.relative(outDir, p);
  await writeFile(
    manifest,
    JSON.stringify(
      {
        schema: 'assay.report-manifest/v1',
        title: doc.title,
        meta: doc.meta,
        html: rel(html),
        notebook: rel(notebook),
        figures: figures.map((f) => ({
          id: f.id,
          title: f.title,
          svg: rel(f.svg),
          png: rel(f.png),
          spec: rel(f.spec),
        })),
        tables: tables.map((t) => ({
          id: t.id,
          title: t.title,
          csv: rel(t.csv),
          markdown: rel(t.markdown),
          latex: rel(t.latex),
        })),
      },
      null,
      2,
    ),
  );
  return written;
}
