// The one font family of every figure, read from Debian's fonts-dejavu-core, and a
// minimal TrueType reader (cmap format 4 + hmtx) so that Vega lays out text in Node
// with the real glyph advances instead of its crude length estimate.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { messages } from '../messages.js';

export interface FontFiles {
  regular: string;
  bold: string;
}

export function fontFiles(): FontFiles {
  const dir = process.env.ASSAY_FONT_DIR ?? '/usr/share/fonts/truetype/dejavu';
  const files = { regular: path.join(dir, 'DejaVuSans.ttf'), bold: path.join(dir, 'DejaVuSans-Bold.ttf') };
  for (const f of Object.values(files)) if (!existsSync(f)) throw new Error(messages.fontMissing(f));
  return files;
}

export interface FontMetrics {
  /** Advance width of `text` at `size` px. */
  measure(text: string, size: number): number;
}

const cache = new Map<string, FontMetrics>();

export function fontMetrics(file: string): FontMetrics {
  const hit = cache.get(file);
  if (hit) return hit;
  const m = parseMetrics(readFileSync(file));
  cache.set(file, m);
  return m;
}

function parseMetrics(buf: Buffer): FontMetrics {
  const numTables = buf.readUInt16BE(4);
  const tables = new Map<string, number>();
  for (let i = 0; i < numTables; i++) {
    const rec = 12 + 16 * i;
    tables.set(buf.toString('latin1', rec, rec + 4), buf.readUInt32BE(rec + 8));
  }
  const need = (tag: string): number => {
    const off = tables.get(tag);
    if (off === undefined) throw new Error(`font lacks table ${tag}`);
    return off;
  };
  const unitsPerEm = buf.readUInt16BE(need('head') + 18);
  const numberOfHMetrics = buf.readUInt16BE(need('hhea') + 34);
  const hmtx = need('hmtx');
  const advance = (glyph: number): number => buf.readUInt16BE(hmtx + 4 * Math.min(glyph, numberOfHMetrics - 1));
  const glyphOf = cmapFormat4(buf, need('cmap'));
  const widths = new Map<number, number>();
  const fallback = advance(glyphOf(0x6e) || 0); // "n"
  const width = (cp: number): number => {
    let w = widths.get(cp);
    if (w === undefined) {
      const g = glyphOf(cp);
      w = g === 0 ? fallback : advance(g);
      widths.set(cp, w);
    }
    return w;
  };
  return {
    measure(text: string, size: number): number {
      let units = 0;
      for (const ch of text) units += width(ch.codePointAt(0) as number);
      return (units * size) / unitsPerEm;
    },
  };
}

/** Glyph lookup from the Unicode BMP cmap subtable (platform 3/1 or 0/x, format 4). */
function cmapFormat4(buf: Buffer, cmap: number): (cp: number) => number {
  const n = buf.readUInt16BE(cmap + 2);
  let sub = -1;
  for (let i = 0; i < n; i++) {
    const rec = cmap + 4 + 8 * i;
    const platform = buf.readUInt16BE(rec);
    const encoding = buf.readUInt16BE(rec + 2);
    const off = cmap + buf.readUInt32BE(rec + 4);
    if (buf.readUInt16BE(off) === 4 && (platform === 0 || (platform === 3 && encoding === 1))) {
      sub = off;
      break;
    }
  }
  if (sub < 0) return () => 0;
  const segX2 = buf.readUInt16BE(sub + 6);
  const ends = sub + 14;
  const starts = ends + segX2 + 2;
  const deltas = starts + segX2;
  const rangeOffsets = deltas + segX2;
  return (cp: number): number => {
    if (cp > 0xffff) return 0;
    for (let i = 0; i < segX2; i += 2) {
      if (cp > buf.readUInt16BE(ends + i)) continue;
      const start = buf.readUInt16BE(starts + i);
      if (cp < start) return 0;
      const delta = buf.readInt16BE(deltas + i);
      const ro = buf.readUInt16BE(rangeOffsets + i);
      if (ro === 0) return (cp + delta) & 0xffff;
      const g = buf.readUInt16BE(rangeOffsets + i + ro + 2 * (cp - start));
      return g === 0 ? 0 : (g + delta) & 0xffff;
    }
    return 0;
  };
}
