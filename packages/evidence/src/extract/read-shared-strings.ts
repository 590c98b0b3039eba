// The workbook's shared string table (`t="s"` cells index it); phonetic runs are left out.
import type { OoxmlPackage } from '../ooxml/package-parts.js';
import { saxXml } from '../xml/parse-xml.js';

export function readSharedStrings(pkg: OoxmlPackage, part: string | undefined, maxDepth: number): string[] {
  const text = part ? pkg.text(part) : null;
  if (text === null) return [];
  const out: string[] = [];
  let cur: string[] | null = null;
  let inT = false;
  let skipDepth = 0;
  saxXml(
    text,
    {
      open(name, _a, selfClosing) {
        if (name === 'si') cur = [];
        else if (name === 'rPh' || name === 'phoneticPr') skipDepth += selfClosing ? 0 : 1;
        else if (name === 't' && !selfClosing) inT = true;
      },
      close(name) {
        if (name === 'si') {
          out.push((cur ?? []).join(''));
          cur = null;
        } else if (name === 'rPh') skipDepth = Math.max(0, skipDepth - 1);
        else if (name === 't') inT = false;
      },
      text(t) {
        if (inT && skipDepth === 0 && cur) cur.push(t);
      },
    },
    maxDepth,
  );
  return out;
}
