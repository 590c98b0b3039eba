// A minimal PDF writer for hostile PDFs at test and bench time: pages with their own content
// streams (plain or deflated, possibly pre-compressed bombs), any MediaBox, one standard font, and an
// exact cross-reference table so real readers (poppler, pdfjs) open the file without repair.
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';

export interface PdfPageInput {
  /** Content stream as written (operators), or already-compressed bytes via `deflated`. */
  content?: string;
  /** zlib-compressed content (FlateDecode), e.g. a bomb made by deflatedStream. */
  deflated?: Buffer;
  /** Page size in points; default US letter. */
  mediaBox?: [number, number];
  /** Reuse the content stream of an earlier page (0-based) instead of writing one. */
  sameContentAs?: number;
  /** Content already encoded with these filters (e.g. ['LZWDecode'] over lzwEncode's bytes). */
  encoded?: { data: Buffer; filters: string[] };
}

/** LZW as PDF readers decode it (9- to 12-bit codes, early change, a clear code when the table fills). */
export function lzwEncode(data: Buffer): Buffer {
  const out: number[] = [];
  let [acc, bits, width, next] = [0, 0, 9, 258];
  const emit = (code: number) => {
    acc = (acc << width) | code;
    bits += width;
    while (bits >= 8) {
      out.push((acc >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
    acc &= (1 << bits) - 1;
  };
  let dict = new Map<number, number>();
  emit(256);
  let w = data[0] ?? -1;
  for (let i = 1; i < data.length; i++) {
    const c = data[i]!;
    const found = dict.get(w * 256 + c);
    if (found !== undefined) {
      w = found;
      continue;
    }
    emit(w);
    dict.set(w * 256 + c, next++);
    // The reader adds its entry one code later: it widens when its table reaches what ours just did.
    if (next >= 1 << width && width < 12) width++;
    if (next >= 4000) {
      emit(256);
      [dict, width, next] = [new Map(), 9, 258];
    }
    w = c;
  }
  if (w >= 0) emit(w);
  emit(257);
  if (bits > 0) out.push((acc << (8 - bits)) & 0xff);
  return Buffer.from(out);
}

/** Text drawing each line at 12 pt, 50 lines a column down a letter page, then from the top again
 * (text off the page is dropped by readers, so every line stays on it). */
export function textContent(lines: string[]): string {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  return lines.map((l, i) => `BT /F1 12 Tf 72 ${720 - (i % 50) * 14} Td (${esc(l)}) Tj ET`).join('\n');
}

/** The standard security handler's password padding (PDF 32000-1, 7.6.3.3). */
const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

/**
 * RC4 40-bit (V 1, R 2) with an empty user password, as producers write "protected" PDFs that any
 * reader opens without asking: readers decrypt every stream before decoding it.
 */
function emptyPasswordEncryption() {
  const id = createHash('md5').update('assay hostile pdf').digest();
  const owner = createHash('md5').update('owner').digest();
  const O = Buffer.concat([owner, owner]);
  const P = Buffer.alloc(4);
  P.writeInt32LE(-4);
  const key = createHash('md5')
    .update(Buffer.concat([PAD, O, P, id]))
    .digest()
    .subarray(0, 5);
  const objectKey = (n: number) =>
    createHash('md5')
      .update(Buffer.concat([key, Buffer.from([n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, 0, 0])]))
      .digest()
      .subarray(0, 10);
  return {
    dict: `<< /Filter /Standard /V 1 /R 2 /O <${O.toString('hex')}> /U <${rc4(key, PAD).toString('hex')}> /P -4 >>`,
    id: id.toString('hex'),
    encrypt: (n: number, data: Buffer) => rc4(objectKey(n), data),
  };
}

export function makePdf(pages: PdfPageInput[], opts: { emptyPassword?: boolean } = {}): Buffer {
  const objects: Buffer[] = [];
  const add = (body: Buffer | string) => {
    objects.push(typeof body === 'string' ? Buffer.from(body, 'latin1') : body);
    return objects.length;
  };
  const crypt = opts.emptyPassword ? emptyPasswordEncryption() : null;
  // Called right before `add`: the stream belongs to the next object number.
  const stream = (dict: string, plain: Buffer) => {
    const data = crypt ? crypt.encrypt(objects.length + 1, plain) : plain;
    return Buffer.concat([
      Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, 'latin1'),
      data,
      Buffer.from('\nendstream', 'latin1'),
    ]);
  };
  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(''); // the page tree, written once the kids are known
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const contentIds: number[] = [];
  const kids: number[] = [];
  for (const p of pages) {
    let contentId: number;
    if (p.sameContentAs !== undefined) contentId = contentIds[p.sameContentAs] ?? 0;
    else if (p.encoded)
      contentId = add(stream(`/Filter [${p.encoded.filters.map((f) => `/${f}`).join(' ')}]`, p.encoded.data));
    else if (p.deflated) contentId = add(stream('/Filter /FlateDecode', p.deflated));
    else contentId = add(stream('/Filter /FlateDecode', deflateSync(Buffer.from(p.content ?? '', 'latin1'))));
    contentIds.push(contentId);
    const [w, h] = p.mediaBox ?? [612, 792];
    kids.push(
      add(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${contentId} 0 R >>`,
      ),
    );
  }
  objects[1] = Buffer.from(`<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`);
  const trailerCrypt = crypt ? ` /Encrypt ${add(crypt.dict)} 0 R /ID [<${crypt.id}> <${crypt.id}>]` : '';
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(obj);
    offset += obj.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`];
  for (const o of offsets) xref.push(`${String(o).padStart(10, '0')} 00000 n \n`);
  xref.push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${trailerCrypt} >>\nstartxref\n${offset}\n%%EOF\n`);
  parts.push(Buffer.from(xref.join(''), 'latin1'));
  return Buffer.concat(parts);
}
