// A minimal zip writer for building hostile packages at test time: honest or lying sizes, deflated
// or stored entries, the "encrypted" flag, any entry names.
import { crc32, createDeflate, createDeflateRaw, deflateRawSync } from 'node:zlib';

export interface ZipEntryInput {
  name: string;
  data: Buffer;
  /** Store instead of deflate. */
  store?: boolean;
  /** Override the uncompressed size written in both headers (a lying header). */
  declaredSize?: number;
  /** Set general-purpose bit 0 (traditional encryption). */
  encrypted?: boolean;
  /** Already-deflated bytes (with the real uncompressed size/crc given). */
  raw?: DeflatedData;
}

export function makeZip(entries: ZipEntryInput[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const compressed = e.raw ? e.raw.compressed : e.store ? e.data : deflateRawSync(e.data, { level: 1 });
    const crc = e.raw ? e.raw.crc : crc32(e.data);
    const size = e.declaredSize ?? (e.raw ? e.raw.size : e.data.length);
    const method = e.store && !e.raw ? 0 : 8;
    const flags = (e.encrypted ? 1 : 0) | 0x800;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(size >>> 0, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, compressed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(size >>> 0, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + compressed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** Deflates `size` zero bytes through a stream, 1 MiB at a time, for zip-bomb entries. */
export function deflatedZeros(size: number): Promise<DeflatedData> {
  return deflateStreamed(repeatTo(Buffer.alloc(1 << 20), size));
}

export interface DeflatedData {
  compressed: Buffer;
  /** Uncompressed size and CRC-32, as a zip header needs them. */
  size: number;
  crc: number;
}

/** `chunk` repeated up to `size` bytes in total, the last copy cut. */
export function* repeatTo(chunk: Buffer, size: number): Generator<Buffer> {
  for (let left = size; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
}

/**
 * Deflates `pieces` as one stream, so the expanded bytes never exist at once: raw deflate for zip
 * entries (`raw` of an entry), or `zlib` framing for PDF FlateDecode streams.
 */
export async function deflateStreamed(
  pieces: Iterable<Buffer>,
  opts: { zlib?: boolean; level?: number } = {},
): Promise<DeflatedData> {
  const level = opts.level ?? 1;
  const z = opts.zlib ? createDeflate({ level }) : createDeflateRaw({ level });
  const out: Buffer[] = [];
  z.on('data', (d: Buffer) => out.push(d));
  const done = new Promise<void>((resolve, reject) => {
    z.on('end', resolve);
    z.on('error', reject);
  });
  let crc = 0;
  let size = 0;
  for (const part of pieces) {
    crc = crc32(part, crc);
    size += part.length;
    if (!z.write(part)) await new Promise((r) => z.once('drain', r));
  }
  z.end();
  await done;
  return { compressed: Buffer.concat(out), size, crc };
}

const CT_DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';
const CT_XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml';
const CT_PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml';

export function contentTypes(main: 'docx' | 'xlsx' | 'pptx' | string): Buffer {
  const [part, type] =
    main === 'docx'
      ? ['/word/document.xml', CT_DOCX]
      : main === 'xlsx'
        ? ['/xl/workbook.xml', CT_XLSX]
        : main === 'pptx'
          ? ['/ppt/presentation.xml', CT_PPTX]
          : ['/word/document.xml', main];
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
      `<Override PartName="${part}" ContentType="${type}"/></Types>`,
  );
}

export const ROOT_RELS_DOCX = Buffer.from(
  `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
    `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
);

export function docxWithBody(bodyXml: string): Buffer {
  return makeZip([
    { name: '[Content_Types].xml', data: contentTypes('docx') },
    { name: '_rels/.rels', data: ROOT_RELS_DOCX },
    {
      name: 'word/document.xml',
      data: Buffer.from(
        `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${bodyXml}</w:body></w:document>`,
      ),
    },
  ]);
}

/** A minimal xlsx with one sheet whose <sheetData> is `sheetData` (and optional workbook override). */
export function xlsxWithSheet(sheetData: string, workbookXml?: string): Buffer {
  const wb =
    workbookXml ??
    `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`;
  return makeZip([
    { name: '[Content_Types].xml', data: contentTypes('xlsx') },
    {
      name: '_rels/.rels',
      data: Buffer.from(
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ),
    },
    { name: 'xl/workbook.xml', data: Buffer.from(wb) },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: Buffer.from(
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      ),
    },
    {
      name: 'xl/worksheets/sheet1.xml',
      data: Buffer.from(
        `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheetData}</sheetData></worksheet>`,
      ),
    },
  ]);
}
