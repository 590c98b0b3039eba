// The guide (docs/writing-a-benchmark.md) shows only real files: its examples under docs/examples/
// validate, each YAML block in it is a verbatim part of the file it names, and the validation output it
// shows is what validation prints for the change it describes.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { formatIssue, inspectBenchmark, inspectJob } from '../src/index.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const EXAMPLES = path.join(ROOT, 'docs/examples');
const GUIDE = readFileSync(path.join(ROOT, 'docs/writing-a-benchmark.md'), 'utf8');

/** Fenced blocks of one language, each with the offset where it starts. */
function blocks(lang: string): { text: string; at: number }[] {
  return [...GUIDE.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => ({
    text: m[1]!,
    at: m.index,
  }));
}

describe('docs/examples', () => {
  it('validates: a task and a project', () => {
    const { benchmark, issues } = inspectBenchmark(EXAMPLES, ROOT);
    expect(issues.map(formatIssue)).toEqual([]);
    expect(benchmark?.tasks.map((t) => t.spec.id)).toEqual(['fin-expense-variance']);
    expect(benchmark?.projects.map((p) => p.spec.id)).toEqual(['office-move']);
  });

  it.each(['job.yaml', 'job-command.yaml'])('%s validates', (file) => {
    // job-command.yaml names OPENAI_API_KEY: validation checks it is set where the worker runs.
    vi.stubEnv('OPENAI_API_KEY', 'set-on-the-worker');
    const { job, issues } = inspectJob(path.join(EXAMPLES, file), { repoRoot: ROOT, cwd: ROOT });
    vi.unstubAllEnvs();
    expect(issues.map(formatIssue)).toEqual([]);
    expect(job?.benchmark.index.id).toBe('guide-examples');
  });

  it('has the gates, negative criteria, dependency chains and reuses the guide describes', () => {
    const project = inspectBenchmark(EXAMPLES, ROOT).benchmark!.projects[0]!;
    const { checkpoints, final } = project.evaluator.criteria;
    const all = [...Object.values(checkpoints).flat(), ...final];
    expect(final.filter((c) => c.fatal).map((c) => c.id)).toEqual(['fatal-old-quote']);
    expect(all.filter((c) => c.weight < 0).length).toBeGreaterThanOrEqual(3);
    const chain = (list: readonly { id: string; dependsOn: string[] }[], id: string): string[] => {
      const c = list.find((x) => x.id === id);
      return c?.dependsOn[0] ? [id, ...chain(list, c.dependsOn[0])] : [id];
    };
    expect(chain(checkpoints['t1-budget']!, 'total-cached')).toEqual(['total-cached', 'total-right', 'movers-quote']);
    expect(chain(final, 'cf-change-logged')).toEqual(['cf-change-logged', 'cf-memo-total', 'aq-quote']);
    expect(final.filter((c) => c.reuses).map((c) => c.reuses)).toEqual([
      't3-apply-correction/quote-corrected',
      't1-budget/total-cached',
    ]);
    expect(project.spec.stages.flatMap((s) => s.releases.map((r) => r.kind))).toEqual(['material', 'feedback']);
  });
});

describe('docs/writing-a-benchmark.md', () => {
  it('is linked from the README', () => {
    expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toContain('(docs/writing-a-benchmark.md)');
  });

  it('names only files that exist', () => {
    const named = [...GUIDE.matchAll(/`(docs\/examples\/[^`\s]*)`/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((p) => !existsSync(path.join(ROOT, p)))).toEqual([]);
  });

  it('shows in each YAML block a verbatim part of the last example file it named before the block', () => {
    const yaml = blocks('yaml');
    expect(yaml.length).toBeGreaterThan(10);
    for (const block of yaml) {
      const before = [...GUIDE.slice(0, block.at).matchAll(/`(docs\/examples\/[^`\s]*\.yaml)`/g)].at(-1)?.[1];
      expect(before, block.text).toBeDefined();
      const file = `\n${readFileSync(path.join(ROOT, before!), 'utf8')}`;
      expect(file.includes(`\n${block.text}`), `not a part of ${before}:\n${block.text}`).toBe(true);
    }
  });

  it('shows the validation output of the change it describes', () => {
    const shown = blocks('text').find((b) => b.text.includes('my-bench/projects'));
    expect(shown).toBeDefined();
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'assay-guide-'));
    const bench = path.join(tmp, 'my-bench');
    cpSync(EXAMPLES, bench, { recursive: true });
    const file = path.join(bench, 'projects/office-move/evaluator/criteria.yaml');
    let text = readFileSync(file, 'utf8');
    const change = (from: string, to: string) => {
      expect(text.split(from).length - 1, from).toBe(1);
      text = text.replace(from, to);
    };
    change(
      '      weight: 6\n      dimension: correctness\n      check: { kind: cell-value',
      '      weight: 12\n      dimension: correctness\n      check: { kind: cell-value',
    );
    change('      dependsOn: [total-corrected]', '      dependsOn: [total-right]');
    change('    dependsOn: [aq-quote]', '    dependsOn: [quote-corrected]');
    writeFileSync(file, text);
    const { issues } = inspectBenchmark(bench, tmp);
    rmSync(tmp, { recursive: true, force: true });
    const lines = shown!.text.trim().split('\n');
    // The last line is the CLI's own summary; the problems above it are the loader's.
    expect(issues.map(formatIssue)).toEqual(lines.filter((l) => !l.startsWith('assay: ')));
  });
});
