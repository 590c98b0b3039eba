// The decoded size of a PDF's streams, measured before pdfjs sees the file: pdfjs decodes a
// content stream whole into memory, so a few KB of FlateDecode can become gigabytes. Every stream
// but images (which text extraction never decodes) is decoded here through its filter chain, up
// to what is left of the budget, and the file is refused once the total passes it.
import { CountSink, KeepSink, PDF_FILTERS } from './pdf-filters.js';

const DICT_WINDOW = 4096;

/** Filter names of a stream dictionary, in order (`/Filter /A` or `/Filter [/A /B]`). */
function filtersOf(dict: string): string[] {
  const m = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(dict);
  if (!m) return [];
  return [...m[1]!.matchAll(/\/([A-Za-z0-9]+)/g)].map((x) => x[1]!);
}

/** The dictionary before the `stream` keyword at `at`: from its object header (or a window) to there. */
function dictBefore(data: Buffer, at: number): string {
  const window = data.toString('latin1', Math.max(0, at - DICT_WINDOW), at);
  const obj = window.lastIndexOf(' obj');
  return obj === -1 ? window : window.slice(obj);
}

/** Where the data of the stream whose keyword ends at `end` starts (after its end-of-line). */
function dataStart(data: Buffer, end: number): number | null {
  if (data[end] === 0x0d) return data[end + 1] === 0x0a ? end + 2 : end + 1;
  if (data[end] === 0x0a) return end + 1;
  return null;
}

/** Decoded size of one stream through its filter chain, or null past `left` bytes. */
async function decodedSize(raw: Buffer, filters: string[], left: number): Promise<number | null> {
  // The chain up to the first filter that does not expand (image codecs, Crypt): not measured further.
  const unknown = filters.findIndex((f) => !PDF_FILTERS[f]);
  const known = unknown === -1 ? filters : filters.slice(0, unknown);
  let bytes = raw;
  for (let i = 0; i < known.length; i++) {
    const last = i === known.length - 1;
    const sink = last ? new CountSink(left) : new KeepSink(left);
    if (!(await PDF_FILTERS[known[i]!]!(bytes, sink))) return null;
    if (last) return sink.length;
    bytes = sink.bytes();
  }
  return 0;
}

/** True when all non-image streams of `data` decode to at most `max` bytes together. */
export async function pdfStreamsWithin(data: Buffer, max: number): Promise<boolean> {
  let total = 0;
  let pos = 0;
  for (;;) {
    const at = data.indexOf('stream', pos, 'latin1');
    if (at === -1) return true;
    pos = at + 6;
    if (data.toString('latin1', Math.max(0, at - 3), at) === 'end') continue;
    const start = dataStart(data, at + 6);
    if (start === null) continue;
    const end = data.indexOf('endstream', start, 'latin1');
    const stop = end === -1 ? data.length : end;
    pos = stop;
    const dict = dictBefore(data, at);
    if (/\/Subtype\s*\/Image\b/.test(dict)) continue;
    const size = await decodedSize(data.subarray(start, stop), filtersOf(dict), max - total);
    if (size === null) return false;
    total += size;
  }
}
