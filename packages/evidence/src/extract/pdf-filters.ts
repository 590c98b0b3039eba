// The PDF stream filters that can expand their input (Flate, LZW, RunLength) and the text encodings
// that often wrap them (ASCIIHex, ASCII85), each decoding into a sink that refuses to pass `max`
// bytes: a Keep sink holds the bytes (for the next filter of a chain), a Count sink only counts
// them (the last filter), so measuring a stream never holds its decoded size.
import { constants, createInflate } from 'node:zlib';

interface ByteSink {
  readonly length: number;
  /** False once the sink would pass its maximum (the byte is then not taken). */
  push(b: number): boolean;
  pushBuffer(buf: Buffer): boolean;
  bytes(): Buffer;
}

/** Holds the bytes, growing by doubling, up to `max`. */
export class KeepSink implements ByteSink {
  private buf = Buffer.alloc(1 << 16);
  length = 0;
  constructor(private readonly max: number) {}
  push(b: number): boolean {
    if (this.length >= this.max) return false;
    if (this.length === this.buf.length) this.grow(this.length + 1);
    this.buf[this.length++] = b;
    return true;
  }
  pushBuffer(buf: Buffer): boolean {
    if (this.length + buf.length > this.max) return false;
    if (this.length + buf.length > this.buf.length) this.grow(this.length + buf.length);
    buf.copy(this.buf, this.length);
    this.length += buf.length;
    return true;
  }
  bytes(): Buffer {
    return this.buf.subarray(0, this.length);
  }
  private grow(need: number): void {
    let size = this.buf.length;
    while (size < need) size *= 2;
    const bigger = Buffer.alloc(Math.min(size, Math.max(this.max, need)));
    this.buf.copy(bigger, 0, 0, this.length);
    this.buf = bigger;
  }
}

/** Counts bytes up to `max`, keeping none. */
export class CountSink implements ByteSink {
  length = 0;
  constructor(private readonly max: number) {}
  push(): boolean {
    return ++this.length <= this.max;
  }
  pushBuffer(buf: Buffer): boolean {
    this.length += buf.length;
    return this.length <= this.max;
  }
  bytes(): Buffer {
    return Buffer.alloc(0);
  }
}

/** Decodes `input` into `sink`; false when the sink refused (the stream decodes past its maximum). */
export type PdfFilter = (input: Buffer, sink: ByteSink) => Promise<boolean> | boolean;

function flate(input: Buffer, sink: ByteSink): Promise<boolean> {
  return new Promise((resolve) => {
    // Sync flush: a truncated stream yields what it holds, as readers decode it; corrupt data ends it.
    const z = createInflate({ finishFlush: constants.Z_SYNC_FLUSH });
    z.on('data', (d: Buffer) => {
      if (sink.pushBuffer(d)) return;
      z.destroy();
      resolve(false);
    });
    z.on('end', () => resolve(true));
    z.on('error', () => resolve(true));
    z.end(input);
  });
}

/** LZW as PDF writes it: 9- to 12-bit codes, 256 clear, 257 end, early change on. */
function lzw(input: Buffer, sink: ByteSink): boolean {
  const prefix = new Int32Array(4096);
  const suffix = new Uint8Array(4096);
  const stack = new Uint8Array(4096);
  let [next, width, prev, bits, acc] = [258, 9, -1, 0, 0];
  for (const byte of input) {
    acc = ((acc << 8) | byte) & 0xfffff;
    bits += 8;
    while (bits >= width) {
      const code = (acc >>> (bits - width)) & ((1 << width) - 1);
      bits -= width;
      if (code === 256) [next, width, prev] = [258, 9, -1];
      else if (code === 257) return true;
      else {
        const known = code < next;
        if (!known && (prev < 0 || code !== next)) return true; // corrupt: readers stop here
        let c = known ? code : prev;
        let n = 0;
        while (c >= 256) [stack[n++], c] = [suffix[c]!, prefix[c]!];
        stack[n++] = c;
        const first = c;
        if (prev >= 0 && next < 4096) [prefix[next], suffix[next], next] = [prev, first, next + 1];
        for (let k = n - 1; k >= 0; k--) if (!sink.push(stack[k]!)) return false;
        if (!known && !sink.push(first)) return false;
        prev = code;
        if (next + 1 >= 1 << width && width < 12) width++;
      }
    }
  }
  return true;
}

function runLength(input: Buffer, sink: ByteSink): boolean {
  for (let i = 0; i < input.length; ) {
    const n = input[i++]!;
    if (n === 128) break;
    if (n < 128) {
      for (let k = 0; k <= n && i < input.length; k++) if (!sink.push(input[i++]!)) return false;
    } else {
      const b = input[i++] ?? 0;
      for (let k = 0; k < 257 - n; k++) if (!sink.push(b)) return false;
    }
  }
  return true;
}

function asciiHex(input: Buffer, sink: ByteSink): boolean {
  const hex = input
    .toString('latin1')
    .replace(/>.*$/s, '')
    .replace(/[^0-9A-Fa-f]/g, '');
  return sink.pushBuffer(Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex'));
}

function ascii85(input: Buffer, sink: ByteSink): boolean {
  const text = input.toString('latin1').replace(/~>.*$/s, '').replace(/\s/g, '');
  let group: number[] = [];
  const flush = (n: number) => {
    let v = 0;
    for (const d of [...group, 84, 84, 84, 84].slice(0, 5)) v = v * 85 + d;
    group = [];
    for (let k = 0; k < n; k++) if (!sink.push(Math.floor(v / 256 ** (3 - k)) & 0xff)) return false;
    return true;
  };
  for (const ch of text) {
    if (ch === 'z' && group.length === 0) {
      for (let k = 0; k < 4; k++) if (!sink.push(0)) return false;
      continue;
    }
    const d = ch.charCodeAt(0) - 33;
    if (d < 0 || d > 84) continue;
    group.push(d);
    if (group.length === 5 && !flush(4)) return false;
  }
  return group.length > 1 ? flush(group.length - 1) : true;
}

/** Decoders by filter name (full and abbreviated); filters absent here end the measurement. */
export const PDF_FILTERS: Record<string, PdfFilter> = {
  FlateDecode: flate,
  Fl: flate,
  LZWDecode: lzw,
  LZW: lzw,
  RunLengthDecode: runLength,
  RL: runLength,
  ASCIIHexDecode: asciiHex,
  AHx: asciiHex,
  ASCII85Decode: ascii85,
  A85: ascii85,
};
