// The number format of each cell style (cellXfs index): custom formats from styles.xml,
// else the built-in table.
import SSF from 'ssf';
import type { OoxmlPackage } from '../ooxml/package-parts.js';
import { attr, child, childrenNamed } from '../xml/parse-xml.js';

export function readNumberFormats(pkg: OoxmlPackage, part: string | undefined): string[] {
  const root = part ? pkg.xml(part) : null;
  if (!root) return [];
  const custom = new Map<number, string>();
  for (const f of childrenNamed(child(root, 'numFmts'), 'numFmt'))
    custom.set(Number(attr(f, 'numFmtId')), attr(f, 'formatCode') ?? 'General');
  const table = SSF.get_table();
  return childrenNamed(child(root, 'cellXfs'), 'xf').map((xf) => {
    const id = Number(attr(xf, 'numFmtId') ?? 0);
    return custom.get(id) ?? table[id] ?? 'General';
  });
}
