// Images: dimensions from the header only (pixels are never decoded, so an image bomb costs nothing).
import { attr, parseXml } from '../xml/parse-xml.js';
import { msg } from '../messages.js';
import type { ImageEvidence } from '../types.js';

const HUGE_PIXELS = 2 ** 28;

function pngSize(b: Buffer): { width: number; height: number } | null {
  if (b.length < 24 || b.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function jpegSize(b: Buffer): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const len = b.readUInt16BE(i + 2);
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    if (len < 2) return null;
    i += 2 + len;
  }
  return null;
}

function svgLength(v: string | undefined): number | null {
  if (!v) return null;
  const m = /^\s*([0-9.]+)\s*(px)?\s*$/.exec(v);
  return m ? Number(m[1]) : null;
}

function svgSize(text: string, maxDepth: number): { width: number | null; height: number | null } {
  // A plain DOCTYPE (common in SVG) is harmless; one with an internal subset (entities) stays refused.
  const root = parseXml(text.replace(/<!DOCTYPE[^[>]*>/i, ''), maxDepth);
  let width = svgLength(attr(root, 'width'));
  let height = svgLength(attr(root, 'height'));
  const box = attr(root, 'viewBox')
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  if (box && box.length === 4 && box.every(Number.isFinite)) {
    width ??= box[2]!;
    height ??= box[3]!;
  }
  return { width, height };
}

export function extractImage(
  format: 'png' | 'jpg' | 'svg',
  data: Buffer,
  maxDepth: number,
): { evidence: ImageEvidence; notes: string[] } {
  const notes: string[] = [];
  if (format === 'svg') {
    const { width, height } = svgSize(data.toString('utf8'), maxDepth);
    return { evidence: { format, width, height }, notes };
  }
  const size = format === 'png' ? pngSize(data) : jpegSize(data);
  if (!size) return { evidence: { format, width: null, height: null }, notes: [msg.imageCorrupt(format)] };
  if (size.width * size.height > HUGE_PIXELS) notes.push(msg.imageHuge(size.width, size.height));
  return { evidence: { format, width: size.width, height: size.height }, notes };
}
