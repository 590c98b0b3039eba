// The report as a Jupyter notebook (nbformat 4.5): markdown cells for the narrative,
// code cells whose saved outputs carry each figure as Vega-Lite 5 JSON with a PNG
// fallback, and each table as HTML and text. Re-running a cell reloads the files
// written beside the notebook (figures/<id>.vl.json, tables/<id>.csv).
import { toHtmlTable, toMarkdown } from '../render/format-table.js';
import type { ReportDocument } from './report-document.js';

const VEGALITE_MIME = 'application/vnd.vegalite.v5+json';

/** Notebook source lines: each line keeps its newline except the last. */
function lines(text: string): string[] {
  const parts = text.split('\n');
  return parts
    .map((l, i) => (i < parts.length - 1 ? `${l}\n` : l))
    .filter((l, i, a) => !(i === a.length - 1 && l === ''));
}

export function renderNotebook(doc: ReportDocument, pngs: ReadonlyMap<string, Buffer>): Record<string, unknown> {
  const cells: Record<string, unknown>[] = [];
  let n = 0;
  const id = (kind: string): string => `${kind}-${String(++n).padStart(3, '0')}`;
  const meta = Object.entries(doc.meta)
    .map(([k, v]) => `- **${k}:** ${v}`)
    .join('\n');
  cells.push({ cell_type: 'markdown', id: id('md'), metadata: {}, source: lines(`# ${doc.title}\n\n${meta}`) });
  for (const b of doc.blocks) {
    if (b.kind === 'markdown') {
      cells.push({ cell_type: 'markdown', id: id('md'), metadata: {}, source: lines(b.text) });
    } else if (b.kind === 'figure') {
      const f = b.figure;
      const png = pngs.get(f.id);
      const data: Record<string, unknown> = {
        [VEGALITE_MIME]: f.spec,
        'text/plain': [`<VegaLite 5 chart: ${f.title}>`],
      };
      if (png) data['image/png'] = png.toString('base64');
      cells.push({
        cell_type: 'code',
        id: id('fig'),
        metadata: { tags: ['figure'] },
        execution_count: null,
        source: lines(
          `# ${f.title}: ${f.caption}\nimport json\nfrom IPython.display import display\ndisplay({${JSON.stringify(VEGALITE_MIME)}: json.load(open('figures/${f.id}.vl.json'))}, raw=True)`,
        ),
        outputs: [{ output_type: 'display_data', data, metadata: {} }],
      });
    } else {
      const t = b.table;
      cells.push({
        cell_type: 'code',
        id: id('tab'),
        metadata: { tags: ['table'] },
        execution_count: null,
        source: lines(`# ${t.title}: ${t.caption}\nimport pandas as pd\npd.read_csv('tables/${t.id}.csv')`),
        outputs: [
          {
            output_type: 'display_data',
            data: {
              'text/html': lines(toHtmlTable(t)),
              'text/markdown': lines(toMarkdown(t)),
              'text/plain': lines(toMarkdown(t)),
            },
            metadata: {},
          },
        ],
      });
    }
  }
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' },
      language_info: { name: 'python' },
      assay: { generator: '@assay/analysis', ...doc.meta },
    },
    cells,
  };
}
