// Whether a PDF is encrypted, found cheaply before any reader opens it. The streams of an encrypted
// PDF cannot be measured before they are decrypted (scan-pdf-streams sees ciphertext), while pdfjs
// and poppler open one with an empty user password without asking and then inflate its streams:
// so an encrypted PDF is never handed to them. Readers find the handler through the trailer's (or
// the cross-reference stream's) /Encrypt entry, which is never itself encrypted; a name may spell
// any of its characters as #xx, so every spelling is matched. Scanned in windows: no copy of the file.

const WINDOW = 1 << 20;
/** Longest spelling of /Encrypt: the slash and seven #xx escapes. */
const OVERLAP = 1 + 7 * 3;

const spell = (c: string) =>
  `(?:${c}|#${c
    .charCodeAt(0)
    .toString(16)
    .replace(/[a-f]/g, (h) => `[${h}${h.toUpperCase()}]`)})`;
// Ends where the name ends: at white space, a delimiter or the end of the file.
const ENCRYPT = new RegExp(`/${[...'Encrypt'].map(spell).join('')}(?=[\\s()<>\\[\\]{}/%]|$)`);

/** True when the file names an /Encrypt dictionary anywhere (a false positive only costs its text). */
export function pdfEncrypted(data: Buffer): boolean {
  for (let at = 0; at < data.length; at += WINDOW) {
    const end = Math.min(data.length, at + WINDOW + OVERLAP);
    if (ENCRYPT.test(data.toString('latin1', at, end))) return true;
  }
  return false;
}
