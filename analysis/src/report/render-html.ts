// The report as one self-contained HTML file: narrative, tables and interactive
// Vega-Lite charts; vega, vega-lite and vega-embed are inlined from node_modules and
// the font is embedded, so it works from file:// with no network.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { FONT_FAMILY } from '../figures/figure-config.js';
import { messages } from '../messages.js';
import { fontFaceRules } from '../render/render-figure.js';
import { escapeHtml, toHtmlTable } from '../render/format-table.js';
import { markdownToHtml } from './markdown.js';
import type { ReportDocument } from './report-document.js';

const require = createRequire(import.meta.url);

/** Minified browser builds shipped inside the npm packages. */
function vendorScripts(): { name: string; file: string }[] {
  const list = [
    { name: 'vega', file: path.join(path.dirname(require.resolve('vega')), 'vega.min.js') },
    { name: 'vega-lite', file: path.join(path.dirname(require.resolve('vega-lite')), 'vega-lite.min.js') },
    { name: 'vega-embed', file: path.join(path.dirname(require.resolve('vega-embed')), 'vega-embed.min.js') },
  ];
  for (const s of list) if (!existsSync(s.file)) throw new Error(messages.vegaAssetMissing(s.file));
  return list;
}

/** Safe inside <script>: no "</script" or "<!--" can close or confuse the element. */
function scriptSafe(code: string): string {
  return code.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

const CSS = `
body{font-family:'${FONT_FAMILY}',sans-serif;margin:0;background:#fafafa;color:#222;line-height:1.45}
main{max-width:1100px;margin:0 auto;padding:24px 32px 64px;background:#fff;min-height:100vh}
header.meta{color:#555;font-size:13px;border-bottom:1px solid #ddd;padding-bottom:12px;margin-bottom:8px}
header.meta span{margin-right:16px;white-space:nowrap}
h1{font-size:26px;margin:8px 0}h2{font-size:20px;margin-top:36px;border-bottom:1px solid #eee;padding-bottom:4px}h3{font-size:16px}
.cell{margin:16px 0}
figure{margin:20px 0;padding:12px;border:1px solid #eee;border-radius:6px;overflow-x:auto}
figcaption{font-size:13px;color:#555;margin-top:6px}
table{border-collapse:collapse;font-size:12.5px;margin:8px 0}
th,td{padding:3px 9px;border-bottom:1px solid #eee;text-align:left;white-space:nowrap}
thead th{border-bottom:2px solid #999}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.table-cell{overflow-x:auto;margin:18px 0}
.table-title{font-weight:bold;font-size:14px}
.table-caption{font-size:13px;color:#555;margin:2px 0 6px}
code{background:#f3f3f3;padding:0 3px;border-radius:3px}
`;

export async function renderHtml(doc: ReportDocument): Promise<string> {
  const specs: Record<string, unknown> = {};
  const parts: string[] = [];
  for (const b of doc.blocks) {
    if (b.kind === 'markdown') parts.push(`<section class="cell markdown">${markdownToHtml(b.text)}</section>`);
    else if (b.kind === 'table') {
      const t = b.table;
      parts.push(
        `<section class="cell table-cell" id="table-${t.id}"><div class="table-title">${escapeHtml(t.title)}</div>` +
          `<div class="table-caption">${escapeHtml(t.caption)}</div>${toHtmlTable(t)}</section>`,
      );
    } else {
      const f = b.figure;
      specs[f.id] = f.spec;
      parts.push(
        `<figure class="cell" id="figure-${f.id}"><div class="chart" id="chart-${f.id}" data-figure="${f.id}"></div>` +
          `<figcaption><strong>${escapeHtml(f.title)}.</strong> ${escapeHtml(f.caption)}</figcaption></figure>`,
      );
    }
  }
  const meta = Object.entries(doc.meta)
    .map(([k, v]) => `<span><strong>${escapeHtml(k)}:</strong> ${escapeHtml(String(v))}</span>`)
    .join('');
  const scripts = vendorScripts()
    .map((s) => `<script data-lib="${s.name}">${scriptSafe(readFileSync(s.file, 'utf8'))}</script>`)
    .join('\n');
  const body = parts.join('\n');
  const fonts = await fontFaceRules(`${doc.title} ${meta} ${body} ${JSON.stringify(specs)}`, ['normal', 'bold']);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.title)}</title>
<style>
${fonts}
${CSS}
</style>
</head>
<body>
<main>
<h1>${escapeHtml(doc.title)}</h1>
<header class="meta">${meta}</header>
${body}
</main>
${scripts}
<script type="application/json" id="assay-specs">${jsonForScript(specs)}</script>
<script>
(function () {
  var specs = JSON.parse(document.getElementById('assay-specs').textContent);
  var ids = Object.keys(specs);
  var state = window.__assayCharts = { total: ids.length, rendered: 0, failed: [], done: false };
  var fontsReady = document.fonts && document.fonts.load ? Promise.all([document.fonts.load("12px '${FONT_FAMILY}'"), document.fonts.load("bold 12px '${FONT_FAMILY}'")]) : Promise.resolve();
  fontsReady.catch(function () {}).then(function () {
    return ids.reduce(function (p, id) {
      return p.then(function () {
        return vegaEmbed('#chart-' + id, specs[id], { renderer: 'svg', actions: { export: true, source: false, compiled: false, editor: false } })
          .then(function () { state.rendered += 1; })
          .catch(function (err) { state.failed.push(id); console.error('chart ' + id + ': ' + err); });
      });
    }, Promise.resolve());
  }).then(function () { state.done = true; document.body.setAttribute('data-charts-done', String(state.rendered)); });
})();
</script>
</body>
</html>
`;
}
