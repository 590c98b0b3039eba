// The results layout doc (docs/results-layout.md; any README.md or docs/ page with a "Results layout" heading) against
// results-layout.ts: every file name its code block shows is one the module exports, so the doc cannot name a
// file the code does not write under that name.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RESULT_FILE_NAMES as exported } from './result-file-names.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The extensions of the exported names (json, log, txt, ...): a doc token with another one is not a result file. */
const extensions = [...new Set(exported.map((n) => n.slice(n.lastIndexOf('.') + 1)))];

function markdownFiles(): string[] {
  const docs = path.join(ROOT, 'docs');
  const under = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? under(path.join(dir, e.name)) : e.name.endsWith('.md') ? [path.join(dir, e.name)] : [],
    );
  return [path.join(ROOT, 'README.md'), ...(existsSync(docs) ? under(docs) : [])].filter((f) => existsSync(f));
}

/** The first code block after each heading that names the results layout, with the file it is in. */
function layoutBlocks(): { file: string; block: string }[] {
  const out: { file: string; block: string }[] = [];
  for (const file of markdownFiles()) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (!/^#{1,6} .*results layout/i.test(line)) return;
      const start = lines.findIndex((l, j) => j > i && l.startsWith('```'));
      const end = lines.findIndex((l, j) => j > start && l.startsWith('```'));
      if (start > i && end > start)
        out.push({ file: path.relative(ROOT, file), block: lines.slice(start + 1, end).join('\n') });
    });
  }
  return out;
}

/** File names in a block: `agent-result.json`, `final/evaluation.json` (not `<id>.json`, a pattern). */
function namesIn(block: string): string[] {
  const re = new RegExp(`(?<![\\w<>.-])[a-z][a-z0-9-]*\\.(?:${extensions.join('|')})(?![\\w-])`, 'g');
  return [...new Set(block.match(re) ?? [])];
}

describe('the results layout doc', () => {
  const blocks = layoutBlocks();

  it('is found: a "Results layout" heading with a code block, in README.md or docs/', () => {
    expect(blocks.map((b) => b.file)).not.toEqual([]);
  });

  it('names only files results-layout.ts exports', () => {
    for (const { file, block } of blocks) {
      const names = namesIn(block);
      expect(names.length, `${file}: no file names found in its results layout block`).toBeGreaterThan(5);
      expect(
        names.filter((n) => !exported.includes(n)),
        `${file} names these, results-layout.ts exports none of them`,
      ).toEqual([]);
    }
  });
});
