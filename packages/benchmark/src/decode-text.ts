import { messages } from './messages.js';

const startsWith = (bytes: Uint8Array, ...prefix: number[]) => prefix.every((b, i) => bytes[i] === b);

/** The byte-order mark's encoding, when the file starts with one other than UTF-8's. */
function bomEncoding(bytes: Uint8Array): string | null {
  if (startsWith(bytes, 0xff, 0xfe, 0, 0)) return 'UTF-32 (little-endian)';
  if (startsWith(bytes, 0, 0, 0xfe, 0xff)) return 'UTF-32 (big-endian)';
  if (startsWith(bytes, 0xff, 0xfe)) return 'UTF-16 (little-endian)';
  if (startsWith(bytes, 0xfe, 0xff)) return 'UTF-16 (big-endian)';
  return null;
}

/** A file's bytes as UTF-8 text, or why they are not: another encoding, binary data, invalid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { problem: string } {
  const bom = bomEncoding(bytes);
  if (bom !== null) return { problem: messages.otherEncoding(bom) };
  const nul = bytes.indexOf(0);
  if (nul >= 0) return { problem: messages.nulBytes(nul) };
  try {
    // The decoder drops a UTF-8 byte-order mark.
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { problem: messages.notUtf8 };
  }
}
