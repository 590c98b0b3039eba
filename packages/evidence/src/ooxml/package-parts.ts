// OOXML package navigation: parts by name, relationships, and targets resolved against their source.
import { posix } from 'node:path';
import { attr, childrenNamed, parseXml } from '../xml/parse-xml.js';
import type { NodeBudget, XmlElement } from '../xml/parse-xml.js';
import { msg } from '../messages.js';
import { NoteList } from '../extract/note-list.js';

export interface Relationship {
  id: string;
  type: string;
  /** Resolved part name (no leading slash), or the raw target for external links. */
  target: string;
  external: boolean;
}

export class OoxmlPackage {
  readonly notes = new NoteList();
  private readonly xmlCache = new Map<string, XmlElement | null>();

  private readonly nodes: NodeBudget;

  constructor(
    readonly files: Map<string, Buffer>,
    private readonly maxDepth: number,
    /** Nodes all parsed parts of this package may hold together (trees stay cached). */
    maxNodes = Infinity,
  ) {
    this.nodes = { left: maxNodes, max: maxNodes };
  }

  has(part: string): boolean {
    return this.files.has(part);
  }

  text(part: string): string | null {
    const buf = this.files.get(part);
    return buf ? buf.toString('utf8') : null;
  }

  /** Parsed part, or null (with a note) when it is missing or refused. */
  xml(part: string, required = false): XmlElement | null {
    if (this.xmlCache.has(part)) return this.xmlCache.get(part)!;
    const text = this.text(part);
    let el: XmlElement | null = null;
    if (text === null) {
      if (required) this.notes.push(msg.missingPart(part));
    } else {
      try {
        el = parseXml(text, this.maxDepth, this.nodes);
      } catch (err) {
        this.notes.push(msg.xmlRefused(part, err));
        if (required) throw err;
      }
    }
    this.xmlCache.set(part, el);
    return el;
  }

  /** Relationships of `part` (from `dir/_rels/name.rels`), targets resolved to part names. */
  rels(part: string): Relationship[] {
    const dir = posix.dirname(part);
    const relsPart = posix.join(dir === '.' ? '' : dir, '_rels', `${posix.basename(part)}.rels`);
    const root = this.xml(relsPart);
    if (!root) return [];
    return childrenNamed(root, 'Relationship').map((r) => {
      const target = attr(r, 'Target') ?? '';
      const external = attr(r, 'TargetMode') === 'External';
      return {
        id: attr(r, 'Id') ?? '',
        type: (attr(r, 'Type') ?? '').split('/').pop() ?? '',
        target: external ? target : resolveTarget(part, target),
        external,
      };
    });
  }

  relById(part: string, id: string): Relationship | undefined {
    return this.rels(part).find((r) => r.id === id);
  }
}

/** Resolves a relationship target against its source part; absolute targets start at the package root. */
function resolveTarget(source: string, target: string): string {
  const raw = target.split('#')[0] ?? '';
  let clean = raw;
  try {
    clean = decodeURIComponent(raw);
  } catch {
    // a malformed escape: keep the target as written
  }
  if (clean.startsWith('/')) return posix.normalize(clean.slice(1));
  const base = posix.dirname(source);
  return posix.normalize(posix.join(base === '.' ? '' : base, clean)).replace(/^(\.\.\/)+/, '');
}
