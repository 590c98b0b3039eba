// DrawingML charts (xlsx and pptx): chart types, title, and each series' references and cached
// points. A series' declared point count is not trusted: its points are charged to the output
// budget (kept whole or not at all) before the array is made.
import { child, childrenNamed, descendants, ownText, path, textOf, attr, relIdOf } from '../xml/parse-xml.js';
import type { XmlElement } from '../xml/parse-xml.js';
import type { ChartEvidence, ChartSeries } from '../types.js';
import type { OutputBudget } from '../extract/output-budget.js';
import type { OoxmlPackage } from './package-parts.js';

function cachePoints(ref: XmlElement | undefined, budget: OutputBudget): Array<string | null> {
  // strRef/numRef hold a cache; strLit/numLit hold literal points.
  if (!ref) return [];
  const cache = child(ref, 'strCache') ?? child(ref, 'numCache') ?? ref;
  const count = Number(attr(child(cache, 'ptCount') ?? cache, 'val') ?? 0);
  const pts = childrenNamed(cache, 'pt');
  const size = Math.min(Math.max(Number.isFinite(count) ? count : 0, pts.length), 100_000);
  const chars = pts.reduce((n, pt) => n + ownText(child(pt, 'v')).length, 0);
  if (size === 0 || !budget.take('points', chars, size)) return [];
  const out: Array<string | null> = new Array<string | null>(size).fill(null);
  for (const pt of pts) {
    const idx = Number(attr(pt, 'idx') ?? -1);
    if (idx >= 0 && idx < size) out[idx] = ownText(child(pt, 'v'));
  }
  return out;
}

function refOf(el: XmlElement | undefined): { ref?: string; data?: XmlElement } {
  if (!el) return {};
  const data =
    child(el, 'strRef') ??
    child(el, 'numRef') ??
    child(el, 'multiLvlStrRef') ??
    child(el, 'strLit') ??
    child(el, 'numLit');
  const f = ownText(child(data, 'f'));
  return { ...(f ? { ref: f } : {}), ...(data ? { data } : {}) };
}

function toNumber(v: string | null): number | null {
  if (v === null || v.trim() === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

function readSeries(ser: XmlElement, budget: OutputBudget): ChartSeries {
  const tx = refOf(child(ser, 'tx'));
  const txValue = child(child(ser, 'tx'), 'v');
  const cat = refOf(child(ser, 'cat') ?? child(ser, 'xVal'));
  const val = refOf(child(ser, 'val') ?? child(ser, 'yVal'));
  const name = txValue ? ownText(txValue) : (cachePoints(tx.data, budget)[0] ?? null);
  const catIsNum = cat.data?.name === 'numRef' || cat.data?.name === 'numLit';
  return {
    name,
    ...(tx.ref ? { nameRef: tx.ref } : {}),
    ...(cat.ref ? { categoriesRef: cat.ref } : {}),
    ...(val.ref ? { valuesRef: val.ref } : {}),
    categories: cachePoints(cat.data, budget).map((v) => (catIsNum ? toNumber(v) : v)),
    values: cachePoints(val.data, budget).map(toNumber),
  };
}

const seriesChars = (s: ChartSeries) =>
  (s.name?.length ?? 0) + (s.nameRef?.length ?? 0) + (s.categoriesRef?.length ?? 0) + (s.valuesRef?.length ?? 0);

function readChart(
  pkg: OoxmlPackage,
  part: string,
  location: string | null,
  budget: OutputBudget,
): ChartEvidence | null {
  const root = pkg.xml(part);
  if (!root) return null;
  const chart = child(root, 'chart');
  const plot = child(chart, 'plotArea');
  const titleEl = path(chart, 'title', 'tx');
  const title = titleEl ? textOf(titleEl).trim() || null : null;
  const kinds = (plot?.children ?? []).filter(
    (el): el is XmlElement => typeof el !== 'string' && el.name.endsWith('Chart'),
  );
  const types = kinds.map((el) => el.name);
  if (!budget.take('charts', part.length + (location?.length ?? 0) + (title?.length ?? 0) + types.join('').length))
    return null;
  const series: ChartSeries[] = [];
  for (const el of kinds) {
    for (const ser of childrenNamed(el, 'ser')) {
      if (budget.closed('series')) budget.take('series');
      else {
        const s = readSeries(ser, budget);
        if (budget.take('series', seriesChars(s))) series.push(s);
      }
    }
  }
  return { part, location, types, title, series };
}

/** Chart parts referenced from a drawing (xlsx) or slide (pptx) part, via its graphic frames. */
export function chartsOf(
  pkg: OoxmlPackage,
  source: string,
  location: string | null,
  budget: OutputBudget,
): ChartEvidence[] {
  const root = pkg.xml(source);
  if (!root) return [];
  const out: ChartEvidence[] = [];
  const rels = new Map(pkg.rels(source).map((r) => [r.id, r]));
  for (const c of descendants(root, 'chart')) {
    const id = relIdOf(c);
    const rel = id ? rels.get(id) : undefined;
    if (!rel || rel.external) continue;
    const chart = readChart(pkg, rel.target, location, budget);
    if (chart) out.push(chart);
  }
  return out;
}
