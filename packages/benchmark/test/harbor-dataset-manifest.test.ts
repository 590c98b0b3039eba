// A Harbor dataset.toml as a benchmark (`benchmark: harbor:PATH`): the tasks it pins, in its order, each found
// by its [task] name and refused unless its content has the pinned digest, computed as Harbor 0.25 computes it
// (the fixture's digests were computed by Harbor 0.25's Packager.compute_content_hash).
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { harborTaskDigest } from '../src/harbor/harbor-task-digest.js';
import { formatIssue, inspectBenchmark } from '../src/index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PINNED = path.join(ROOT, 'test/fixtures/harbor/manifest');
/** Harbor 0.25's digests of the fixture's tasks (also pinned in its dataset.toml). */
const SHOUT = 'sha256:1443588dbbc121aecbb95b9e842e80068a8f43e2113b592c257763d512ee569f';
const ADD = 'sha256:0956c4a964dd72171f1f476d991a9bd46906ee42fa23323261e84b9e4b20afe0';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A copy of the pinned dataset, its manifest replaced when given; the copy's folder. */
function copy(manifest?: string): string {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'assay-manifest-')), 'pinned');
  dirs.push(path.dirname(dir));
  cpSync(PINNED, dir, { recursive: true });
  if (manifest !== undefined) writeFileSync(path.join(dir, 'dataset.toml'), manifest);
  return dir;
}

function problemsOf(root: string): { issues: string[]; warnings: string[] } {
  const r = inspectBenchmark(`harbor:${root}`, root);
  return { issues: r.issues.map(formatIssue), warnings: (r.warnings ?? []).map(formatIssue) };
}

const manifestOf = (tasks: string) => `[dataset]\nname = "assay-fixtures/pinned"\n${tasks}`;
const ref = (name: string, digest: string) => `[[tasks]]\nname = "${name}"\ndigest = "${digest}"\n`;

describe('Harbor dataset.toml', () => {
  it('runs the tasks it pins, in its order, named and versioned by its [dataset]', () => {
    for (const given of [PINNED, path.join(PINNED, 'dataset.toml')]) {
      const r = inspectBenchmark(`harbor:${given}`, ROOT);
      expect(r.issues).toEqual([]);
      expect(r.warnings).toEqual([]);
      expect(r.benchmark?.index).toMatchObject({
        id: 'pinned',
        title: 'assay-fixtures/pinned',
        version: '1.0',
        tasks: ['shout', 'add-numbers'],
      });
      expect(r.benchmark?.root).toBe(`harbor:${PINNED}`);
    }
  });

  it("computes a task's digest as Harbor 0.25 does, ignoring what Harbor's packager ignores", () => {
    expect(harborTaskDigest(path.join(PINNED, 'shout'))).toEqual({ digest: SHOUT });
    expect(harborTaskDigest(path.join(PINNED, 'add-numbers'))).toEqual({ digest: ADD });
    // Harbor 0.25 gave the same digest with these added (checked with its Packager).
    const shout = path.join(copy(), 'shout');
    mkdirSync(path.join(shout, 'tests', '__pycache__'));
    writeFileSync(path.join(shout, 'tests', '__pycache__', 't.cpython-312.pyc'), 'x');
    writeFileSync(path.join(shout, 'environment', '.DS_Store'), 'y');
    writeFileSync(path.join(shout, 'environment', 'keep.pyc'), 'w');
    writeFileSync(path.join(shout, 'solution', 'solve.sh~'), 'z');
    writeFileSync(path.join(shout, 'tests', '.harborignore'), '');
    writeFileSync(path.join(shout, 'notes.txt'), 'outside the folders Harbor packs');
    expect(harborTaskDigest(shout)).toEqual({ digest: SHOUT });
    // Any packed file's content changes it.
    appendFileSync(path.join(shout, 'tests', 'README.md'), 'more\n');
    expect(harborTaskDigest(shout)).not.toEqual({ digest: SHOUT });
  });

  it('refuses a task whose content is not the pinned content, naming the entry, the folder and both digests', () => {
    const root = copy();
    appendFileSync(path.join(root, 'add-numbers', 'tests', 'test.sh'), '# edited\n');
    const { issues } = problemsOf(root);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(
      /^dataset\.toml:tasks\[1\]\.digest: task "assay-fixtures\/add-numbers" \(add-numbers\/\) has content sha256:[0-9a-f]{64}, not the pinned sha256:0956c4a9[0-9a-f]{56}: its files changed since the manifest was written \(`harbor sync` pins the new content\)$/,
    );
  });

  it('names a pinned task that is not here, and warns of a task folder it does not list', () => {
    const root = copy(manifestOf(ref('assay-fixtures/shout', SHOUT) + ref('someone/elsewhere', ADD)));
    expect(problemsOf(root)).toEqual({
      issues: [
        `dataset.toml:tasks[1].name: task "someone/elsewhere" is not a folder here (no sub-folder's task.toml has [task] name = "someone/elsewhere"); assay runs local task folders and does not fetch Harbor's registry`,
      ],
      warnings: ['add-numbers:(file): is not listed in dataset.toml: not run'],
    });
  });

  it('names every malformed field of the manifest as file:field: reason', () => {
    const root = copy(
      '[dataset]\nname = "no-slash"\ncolour = "blue"\n' +
        ref('assay-fixtures/shout', 'sha256:abc') +
        ref('assay-fixtures/shout', SHOUT) +
        '[[tasks]]\ndigest = "' +
        ADD +
        '"\n[[files]]\npath = "metric.py"\n',
    );
    expect(problemsOf(root)).toEqual({
      issues: [
        'dataset.toml:dataset.name: must be "org/name" with letters, digits, "-", "_" and "." (got "no-slash")',
        "dataset.toml:files: is not supported yet: a dataset's own files (a metric.py) would change how Harbor aggregates rewards; remove [[files]] to run the tasks",
        'dataset.toml:tasks[0].digest: must be "sha256:" and 64 lowercase hex digits (got "sha256:abc")',
        'dataset.toml:tasks[2].name: is required: the pinned task\'s "org/name" (its task.toml [task] name)',
      ],
      warnings: [
        "dataset.toml:dataset.colour: is not a field of Harbor 0.25's dataset.toml: kept as written, not used by assay",
      ],
    });
  });

  it("says when a task's own ignore rules keep its digest from being checked", () => {
    const root = copy();
    writeFileSync(path.join(root, 'shout', '.gitignore'), '*.log\n');
    expect(problemsOf(root).issues).toEqual([
      `dataset.toml:tasks[0].digest: task "assay-fixtures/shout": its digest cannot be checked: .gitignore has ignore patterns, which assay does not apply to a task's digest yet`,
    ]);
  });
});
