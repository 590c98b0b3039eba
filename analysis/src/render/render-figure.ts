// Vega-Lite spec -> SVG (Vega's headless View.toSVG, text laid out with the real
// DejaVu Sans advances, the used glyphs embedded as a WOFF2 @font-face subset) and
// -> PNG (resvg, the same TTFs loaded explicitly, no system fonts). No canvas needed.
import { readFileSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';
import subsetFont from 'subset-font';
import * as vega from 'vega';
import { compile } from 'vega-lite';
import type { TopLevelSpec } from 'vega-lite';
import { FONT_FAMILY } from '../figures/figure-config.js';
import type { VlSpec } from '../figures/figure-config.js';
import { fontFiles, fontMetrics } from './font-files.js';

let metricsInstalled = false;

/** Make Vega measure text with the embedded font's advances (process-wide, idempotent). */
function installTextMetrics(): void {
  if (metricsInstalled) return;
  const files = fontFiles();
  const regular = fontMetrics(files.regular);
  const bold = fontMetrics(files.bold);
  // vega exports textMetrics at runtime but not in its types.
  const tm = (vega as unknown as { textMetrics: { width: (item: Record<string, unknown>, text: unknown) => number } })
    .textMetrics;
  tm.width = (item, text) => {
    const size = item.fontSize != null ? Number(item.fontSize) || 0 : 11;
    const weight = item.fontWeight;
    const isBold = weight === 'bold' || weight === 'bolder' || Number(weight) >= 600;
    const t = text == null ? '' : String(text).trim();
    const w = (isBold ? bold : regular).measure(t, size);
    const limit = Number(item.limit);
    return limit > 0 && w > limit ? limit : w;
  };
  metricsInstalled = true;
}

export async function renderSvg(spec: VlSpec): Promise<string> {
  installTextMetrics();
  const vg = compile(spec as unknown as TopLevelSpec).spec;
  const view = new vega.View(vega.parse(vg), { renderer: 'none' });
  try {
    const svg = await view.toSVG();
    return await embedFonts(svg);
  } finally {
    view.finalize();
  }
}

/** PNG of an SVG at `scale` x its size, white background, only the bundled fonts. */
export function renderPng(svg: string, scale = 2): Buffer {
  const files = fontFiles();
  const r = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: scale },
    background: 'white',
    font: {
      fontFiles: [files.regular, files.bold],
      loadSystemFonts: false,
      defaultFontFamily: FONT_FAMILY,
      sansSerifFamily: FONT_FAMILY,
    },
  });
  return r.render().asPng();
}

const fontData = new Map<string, Buffer>();
const subsets = new Map<string, Promise<string>>();

/** Printable Latin-1 and common typographic symbols: almost every figure needs no more. */
const BASE_CHARS = (() => {
  let s = '';
  for (let c = 0x20; c <= 0x7e; c++) s += String.fromCharCode(c);
  for (let c = 0xa0; c <= 0xff; c++) s += String.fromCharCode(c);
  return s + '–—−≥≤×…•·‘’“”';
})();

/** A WOFF2 subset as base64, cached by font and character set (subsetting runs harfbuzz). */
function fontSubset(file: string, chars: string): Promise<string> {
  const key = `${file}\u0000${chars}`;
  let hit = subsets.get(key);
  if (!hit) {
    let data = fontData.get(file);
    if (!data) {
      data = readFileSync(file);
      fontData.set(file, data);
    }
    hit = subsetFont(data, chars, { targetFormat: 'woff2' }).then((b) => b.toString('base64'));
    subsets.set(key, hit);
  }
  return hit;
}

/**
 * Insert @font-face rules with WOFF2 subsets of the figure font: the base set plus any
 * other character the SVG's text uses, so the SVG renders the same anywhere.
 */
async function embedFonts(svg: string): Promise<string> {
  const bold = /font-weight="(bold|[6-9]00)"/.test(svg);
  const rules = await fontFaceRules(usedCharacters(svg), bold ? ['normal', 'bold'] : ['normal']);
  const style = `<defs><style type="text/css">${rules}</style></defs>`;
  return svg.replace(/^(<svg[^>]*>)/, `$1${style}`);
}

/** @font-face rules (base64 WOFF2 subsets) covering the base set plus every character of `text`. */
export async function fontFaceRules(text: string, weights: readonly ('normal' | 'bold')[]): Promise<string> {
  const files = fontFiles();
  const extra = [...new Set(text)]
    .filter((ch) => !BASE_CHARS.includes(ch) && ch >= ' ')
    .sort()
    .join('');
  const rules: string[] = [];
  for (const weight of weights) {
    const b64 = await fontSubset(weight === 'bold' ? files.bold : files.regular, BASE_CHARS + extra);
    rules.push(
      `@font-face{font-family:'${FONT_FAMILY}';font-weight:${weight};src:url(data:font/woff2;base64,${b64}) format('woff2');}`,
    );
  }
  return rules.join('');
}

/** Characters inside <text> elements (entities decoded), plus digits and basic punctuation. */
function usedCharacters(svg: string): string {
  const set = new Set<string>('0123456789.,-–—%()+ ');
  for (const m of svg.matchAll(/<text[^>]*>([\s\S]*?)<\/text>/g)) {
    const inner = (m[1] ?? '').replace(/<[^>]+>/g, '');
    for (const ch of decodeEntities(inner)) set.add(ch);
  }
  return [...set].join('');
}

function decodeEntities(s: string): string {
  return s
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
