// A small, iterative XML reader for OOXML parts. Hostile input is expected: a DOCTYPE (entity
// expansion, external entities) is refused outright — OOXML never needs one — nesting depth is
// capped, and so is the node count of a tree, so neither a billion-laughs part, a deeply nested one
// nor a few hundred KB that inflate to millions of nodes can exhaust memory or the stack.
import { msg } from '../messages.js';

export class XmlError extends Error {
  constructor(
    readonly code: 'doctype' | 'depth' | 'malformed' | 'size',
    message: string,
  ) {
    super(message);
  }
}

export interface XmlElement {
  /** Local name, prefix dropped (`w:p` -> `p`): producers do not all use the same prefixes. */
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

export interface SaxHandlers {
  open?(name: string, attrs: Record<string, string>, selfClosing: boolean): void;
  close?(name: string): void;
  text?(text: string): void;
}

const ENTITY: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITY[body] ?? whole;
  });
}

function localName(qname: string): string {
  const i = qname.indexOf(':');
  return i === -1 ? qname : qname.slice(i + 1);
}

const ATTR = /\s*([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;
const TAG_END = /\s*(\/?)>/y;
const NAME = /[^\s/>]+/y;

/** Streams `xml` through the handlers; throws XmlError on DOCTYPE, excess depth or malformed markup. */
export function saxXml(xml: string, handlers: SaxHandlers, maxDepth = 256): void {
  const n = xml.length;
  const stack: string[] = [];
  let i = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < n) {
    const lt = xml.indexOf('<', i);
    if (lt === -1) {
      if (stack.length > 0) handlers.text?.(decodeEntities(xml.slice(i)));
      break;
    }
    if (lt > i && stack.length > 0) handlers.text?.(decodeEntities(xml.slice(i, lt)));
    const next = xml.charCodeAt(lt + 1);
    if (next === 0x21 /* ! */) {
      if (xml.startsWith('<!--', lt)) {
        const end = xml.indexOf('-->', lt + 4);
        if (end === -1) throw new XmlError('malformed', 'unterminated comment');
        i = end + 3;
      } else if (xml.startsWith('<![CDATA[', lt)) {
        const end = xml.indexOf(']]>', lt + 9);
        if (end === -1) throw new XmlError('malformed', 'unterminated CDATA');
        if (stack.length > 0) handlers.text?.(xml.slice(lt + 9, end));
        i = end + 3;
      } else if (/^<!DOCTYPE/i.test(xml.slice(lt, lt + 9))) {
        throw new XmlError('doctype', 'DOCTYPE declarations are refused');
      } else {
        throw new XmlError('malformed', `unexpected markup at offset ${lt}`);
      }
      continue;
    }
    if (next === 0x3f /* ? */) {
      const end = xml.indexOf('?>', lt + 2);
      if (end === -1) throw new XmlError('malformed', 'unterminated processing instruction');
      i = end + 2;
      continue;
    }
    if (next === 0x2f /* / */) {
      const end = xml.indexOf('>', lt + 2);
      if (end === -1) throw new XmlError('malformed', 'unterminated end tag');
      const name = localName(xml.slice(lt + 2, end).trim());
      const open = stack.pop();
      if (open !== name) throw new XmlError('malformed', `end tag </${name}> does not match <${open ?? ''}>`);
      handlers.close?.(name);
      i = end + 1;
      continue;
    }
    NAME.lastIndex = lt + 1;
    const nameMatch = NAME.exec(xml);
    if (!nameMatch) throw new XmlError('malformed', `bad tag at offset ${lt}`);
    const name = localName(nameMatch[0]);
    const attrs: Record<string, string> = {};
    let pos = NAME.lastIndex;
    for (;;) {
      ATTR.lastIndex = pos;
      const m = ATTR.exec(xml);
      if (!m) break;
      attrs[m[1]!] = decodeEntities(m[2] ?? m[3] ?? '');
      pos = ATTR.lastIndex;
    }
    TAG_END.lastIndex = pos;
    const end = TAG_END.exec(xml);
    if (!end) throw new XmlError('malformed', `unterminated tag <${name}> at offset ${lt}`);
    const selfClosing = end[1] === '/';
    if (!selfClosing) {
      if (stack.length >= maxDepth) throw new XmlError('depth', `elements nested deeper than ${maxDepth} levels`);
      stack.push(name);
    }
    handlers.open?.(name, attrs, selfClosing);
    if (selfClosing) handlers.close?.(name);
    i = TAG_END.lastIndex;
  }
  if (stack.length > 0) throw new XmlError('malformed', `unclosed element <${stack[stack.length - 1]}>`);
}

/** Nodes (elements and texts) that the trees of one file may still hold: shared by all its parts. */
export interface NodeBudget {
  left: number;
  readonly max: number;
}

/** Parses a whole part into a tree (documents, slides, charts, rels), charging its nodes to `nodes`. */
export function parseXml(xml: string, maxDepth = 256, nodes?: NodeBudget): XmlElement {
  const root: XmlElement = { name: '#document', attrs: {}, children: [] };
  const stack: XmlElement[] = [root];
  const count = () => {
    if (nodes && --nodes.left < 0) throw new XmlError('size', msg.xmlTooManyNodes(nodes.max));
  };
  saxXml(
    xml,
    {
      open(name, attrs) {
        count();
        const el: XmlElement = { name, attrs, children: [] };
        stack[stack.length - 1]!.children.push(el);
        stack.push(el);
      },
      close() {
        stack.pop();
      },
      text(t) {
        count();
        stack[stack.length - 1]!.children.push(t);
      },
    },
    maxDepth,
  );
  const top = root.children.find((c): c is XmlElement => typeof c !== 'string');
  if (!top) throw new XmlError('malformed', 'no root element');
  return top;
}

// --- navigation helpers (iterative: trees may be up to maxDepth deep) ---

export function attr(el: XmlElement, local: string): string | undefined {
  if (local in el.attrs) return el.attrs[local];
  for (const [k, v] of Object.entries(el.attrs)) if (localName(k) === local) return v;
  return undefined;
}

export function child(el: XmlElement | undefined, name: string): XmlElement | undefined {
  if (!el) return undefined;
  for (const c of el.children) if (typeof c !== 'string' && c.name === name) return c;
  return undefined;
}

export function childrenNamed(el: XmlElement | undefined, name: string): XmlElement[] {
  if (!el) return [];
  return el.children.filter((c): c is XmlElement => typeof c !== 'string' && c.name === name);
}

/** Follows a path of child names: `path(el, 'plotArea', 'barChart')`. */
export function path(el: XmlElement | undefined, ...names: string[]): XmlElement | undefined {
  let cur = el;
  for (const n of names) cur = child(cur, n);
  return cur;
}

/** All descendants named `name`, in document order; does not descend into matches unless `nested`. */
export function descendants(el: XmlElement, name: string, nested = false): XmlElement[] {
  const out: XmlElement[] = [];
  const stack: XmlNode[] = [...el.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (typeof node === 'string') continue;
    if (node.name === name) {
      out.push(node);
      if (!nested) continue;
    }
    for (let k = node.children.length - 1; k >= 0; k--) stack.push(node.children[k]!);
  }
  return out;
}

/** Concatenated text of the elements named `textName` under `el` (e.g. every `t` of a paragraph). */
export function textOf(el: XmlElement, textName = 't'): string {
  return descendants(el, textName)
    .map((t) => t.children.filter((c): c is string => typeof c === 'string').join(''))
    .join('');
}

export function ownText(el: XmlElement | undefined): string {
  if (!el) return '';
  return el.children.filter((c): c is string => typeof c === 'string').join('');
}

/** A relationship id attribute (`r:id`), never a plain `id` that may sit beside it. */
export function relIdOf(el: XmlElement): string | undefined {
  for (const [k, v] of Object.entries(el.attrs)) if (k.endsWith(':id')) return v;
  return undefined;
}
