// LibreOffice imports and lays out a whole deck whatever page range it exports (2,000 slide entries
// took 11-50 s here), so the copy it converts lists only the slides that get an image: the first
// `maxSlides` entries of presentation.xml's slide list. Every other part is copied as its raw
// compressed bytes (nothing else is decompressed or held), so the copy costs about the file's size.
import { crc32, deflateRawSync } from 'node:zlib';
import yauzl from 'yauzl';
import type { Entry } from 'yauzl';

const PRESENTATION = 'ppt/presentation.xml';
/** The slide list and its entries, in any namespace prefix (`<p:sldId .../>` or with an extLst child). */
const SLIDE_LIST = /<((?:[\w.-]+:)?)sldIdLst\b[^>]*>([\s\S]*?)<\/\1sldIdLst>/;
const SLIDE_ENTRY = /<((?:[\w.-]+:)?)sldId\b[^>]*?(?:\/>|>[\s\S]*?<\/\1sldId>)/g;

export interface TrimmedDeck {
  data: Buffer;
  kept: number;
  slides: number;
}

/** The deck cut to its first `maxSlides` slides, or null when it has no more than that (or no list). */
export async function trimDeck(buf: Buffer, presentationXml: string, maxSlides: number): Promise<TrimmedDeck | null> {
  const list = SLIDE_LIST.exec(presentationXml);
  if (!list) return null;
  const entries = [...(list[2] ?? '').matchAll(SLIDE_ENTRY)].map((m) => m[0]);
  if (entries.length <= maxSlides) return null;
  const open = list[0].slice(0, list[0].indexOf('>') + 1);
  const cut = `${open}${entries.slice(0, maxSlides).join('')}</${list[1] ?? ''}sldIdLst>`;
  const xml = Buffer.from(
    presentationXml.replace(list[0], () => cut),
    'utf8',
  );
  return { data: await rewriteZip(buf, PRESENTATION, xml), kept: maxSlides, slides: entries.length };
}

interface Written {
  name: Buffer;
  method: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** The zip with one entry's content replaced; the others' compressed bytes copied as they are. */
async function rewriteZip(buf: Buffer, replace: string, content: Buffer): Promise<Buffer> {
  const zip = await yauzl.fromBufferPromise(buf, { lazyEntries: true, strictFileNames: false });
  const parts: Buffer[] = [];
  const written: Written[] = [];
  let offset = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      const replaced = entry.fileName === replace;
      const body = replaced ? deflateRawSync(content) : rawBytes(buf, entry);
      const w: Written = {
        name: Buffer.from(entry.fileName, 'utf8'),
        method: replaced ? 8 : entry.compressionMethod,
        crc: replaced ? crc32(content) : entry.crc32,
        compressed: body.length,
        size: replaced ? content.length : entry.uncompressedSize,
        offset,
      };
      const local = header(0x04034b50, w, false);
      parts.push(local, body);
      offset += local.length + body.length;
      written.push(w);
    }
  } finally {
    zip.close();
  }
  const central = written.map((w) => header(0x02014b50, w, true));
  const size = central.reduce((n, c) => n + c.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(written.length, 8);
  end.writeUInt16LE(written.length, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...central, end]);
}

/** An entry's compressed bytes, found through its local header (whose name/extra lengths may differ). */
function rawBytes(buf: Buffer, e: Entry): Buffer {
  const at = e.relativeOffsetOfLocalHeader;
  const start = at + 30 + buf.readUInt16LE(at + 26) + buf.readUInt16LE(at + 28);
  return buf.subarray(start, start + e.compressedSize);
}

/** A local (30 bytes) or central (46 bytes) header with UTF-8 names and no data descriptor. */
function header(signature: number, w: Written, central: boolean): Buffer {
  const h = Buffer.alloc(central ? 46 : 30);
  h.writeUInt32LE(signature, 0);
  // The central header has "version made by" before the fields both share.
  const at = central ? 6 : 4;
  if (central) h.writeUInt16LE(20, 4);
  h.writeUInt16LE(20, at);
  h.writeUInt16LE(0x0800, at + 2);
  h.writeUInt16LE(w.method, at + 4);
  h.writeUInt16LE(0x21, at + 8); // 1980-01-01
  h.writeUInt32LE(w.crc >>> 0, at + 10);
  h.writeUInt32LE(w.compressed, at + 14);
  h.writeUInt32LE(w.size, at + 18);
  h.writeUInt16LE(w.name.length, at + 22);
  if (central) h.writeUInt32LE(w.offset, 42);
  return Buffer.concat([h, w.name]);
}
