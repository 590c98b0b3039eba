// Agent-visible benchmark material is regular files only: a link, a hard link, a device, a FIFO or a
// socket is refused at validation in one line about itself, and the worker's copies refuse it again.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyBenchmarkFile, copyBenchmarkTree, formatIssue, inspectBenchmark } from '../src/index.js';
import { validParts, writeBenchmark } from './benchmark-fixture.js';

const REGULAR = 'benchmark files must be regular files';
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The valid fixture, changed on disk by `change`; every problem as file:field: reason (no positions). */
function problemsAfter(change: (dir: string) => void): string[] {
  const dir = writeBenchmark(validParts());
  dirs.push(dir);
  change(dir);
  const { benchmark, issues } = inspectBenchmark(dir, dir);
  expect(benchmark).toBeNull();
  return issues.map(({ line: _l, column: _c, ...rest }) => formatIssue(rest));
}

describe('benchmark files that are not regular files', () => {
  it('refuses a symbolic link in the inputs, also one that stays inside the benchmark', () => {
    const problems = problemsAfter((dir) => {
      symlinkSync('/etc/passwd', path.join(dir, 'tasks/t1/inputs/passwd'));
      symlinkSync('facts.md', path.join(dir, 'tasks/t1/inputs/again.md'));
    });
    expect(problems).toEqual([
      `tasks/t1/inputs:again.md: is a symbolic link to facts.md; ${REGULAR} (copy what it points to in instead)`,
      `tasks/t1/inputs:passwd: is a symbolic link to /etc/passwd; ${REGULAR} (copy what it points to in instead)`,
    ]);
  });

  it('says one line about an inputs folder that is a link, nothing about what it points to', () => {
    const problems = problemsAfter((dir) => {
      rmSync(path.join(dir, 'tasks/t1/inputs'), { recursive: true });
      symlinkSync('/etc', path.join(dir, 'tasks/t1/inputs'));
    });
    expect(problems).toEqual([
      `tasks/t1:inputs: is a symbolic link to /etc; ${REGULAR} (copy what it points to in instead)`,
    ]);
  });

  it('says one line about a task folder that is a link, and does not read through it', () => {
    const problems = problemsAfter((dir) => {
      const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'assay-elsewhere-'));
      dirs.push(elsewhere);
      execFileSync('cp', ['-r', path.join(dir, 'tasks/t1'), elsewhere]);
      rmSync(path.join(dir, 'tasks/t1'), { recursive: true });
      symlinkSync(path.join(elsewhere, 't1'), path.join(dir, 'tasks/t1'));
    });
    expect(problems).toEqual([expect.stringMatching(/^tasks:t1: is a symbolic link to \/.*\/t1; benchmark files/)]);
  });

  it('refuses a hard link, a FIFO and (as root) a device in the inputs', () => {
    const problems = problemsAfter((dir) => {
      const inputs = path.join(dir, 'tasks/t1/inputs');
      linkSync(path.join(inputs, 'facts.md'), path.join(inputs, 'facts-too.md'));
      execFileSync('mkfifo', [path.join(inputs, 'pipe')]);
      if (process.getuid?.() === 0) execFileSync('mknod', [path.join(inputs, 'null'), 'c', '1', '3']);
    });
    expect(problems).toEqual([
      `tasks/t1/inputs:facts-too.md: is a hard link (the file has 2 names); ${REGULAR} (copy the file in instead of linking it)`,
      `tasks/t1/inputs:facts.md: is a hard link (the file has 2 names); ${REGULAR} (copy the file in instead of linking it)`,
      ...(process.getuid?.() === 0 ? [`tasks/t1/inputs:null: is a character device; ${REGULAR}`] : []),
      `tasks/t1/inputs:pipe: is a FIFO (named pipe); ${REGULAR}`,
    ]);
  });

  it('refuses a socket in a project release folder', async () => {
    const dir = writeBenchmark(validParts());
    dirs.push(dir);
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(dir, 'projects/p1/releases/sock'), resolve));
    try {
      const { issues } = inspectBenchmark(dir, dir);
      expect(issues.map(formatIssue)).toEqual([`projects/p1/releases:sock: is a socket; ${REGULAR}`]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('reports a release that is a link where the link is, not again at the release', () => {
    const problems = problemsAfter((dir) => {
      unlinkSync(path.join(dir, 'projects/p1/releases/brief.md'));
      symlinkSync('/etc/hostname', path.join(dir, 'projects/p1/releases/brief.md'));
    });
    expect(problems).toEqual([
      `projects/p1/releases:brief.md: is a symbolic link to /etc/hostname; ${REGULAR} (copy what it points to in instead)`,
    ]);
  });

  it('refuses a release that is a folder: the worker copies one file per release', () => {
    const problems = problemsAfter((dir) => {
      unlinkSync(path.join(dir, 'projects/p1/releases/brief.md'));
      mkdirSync(path.join(dir, 'projects/p1/releases/brief.md'));
      writeFileSync(path.join(dir, 'projects/p1/releases/brief.md/part.md'), 'x');
    });
    expect(problems).toEqual([
      'projects/p1/project.yaml:stages[s1].releases[brief].path: is a folder; a release is one file (list each file of the folder as a release of its own)',
    ]);
  });

  it('refuses a task.yaml that is a link', () => {
    const problems = problemsAfter((dir) => {
      const real = path.join(dir, 'task-copy.yaml');
      writeFileSync(real, readFileSync(path.join(dir, 'tasks/t1/task.yaml')));
      unlinkSync(path.join(dir, 'tasks/t1/task.yaml'));
      symlinkSync(real, path.join(dir, 'tasks/t1/task.yaml'));
    });
    expect(problems).toEqual([
      expect.stringMatching(/^tasks\/t1\/task\.yaml:\(file\): is a symbolic link to \/.*task-copy\.yaml; benchmark/),
    ]);
  });
});

describe('benchmark file caps', () => {
  it('refuses an input file above 256 MiB (sparse, so the test writes nothing)', () => {
    const problems = problemsAfter((dir) => {
      const big = path.join(dir, 'tasks/t1/inputs/big.bin');
      writeFileSync(big, '');
      truncateSync(big, 256 * 1024 ** 2 + 1);
    });
    expect(problems).toEqual(['tasks/t1/inputs:big.bin: is 256 MiB; a benchmark file is at most 256 MiB']);
  });

  it('refuses folders nested more than 32 deep', () => {
    const problems = problemsAfter((dir) => {
      const deep = path.join(dir, 'tasks/t1/inputs', ...Array.from({ length: 33 }, (_, i) => `d${i}`));
      mkdirSync(deep, { recursive: true });
    });
    const nested = Array.from({ length: 33 }, (_, i) => `d${i}`).join('/');
    expect(problems).toEqual([
      `tasks/t1/inputs:${nested}: is more than 32 folders deep; agent-visible folders are at most 32 deep`,
    ]);
  });

  it('refuses a YAML file above 1 MiB', () => {
    const problems = problemsAfter((dir) => {
      writeFileSync(path.join(dir, 'tasks/t1/evaluator/rubric.yaml'), `# ${'x'.repeat(1024 ** 2)}\n`);
    });
    expect(problems).toEqual([
      'tasks/t1/evaluator/rubric.yaml:(file): is 1 MiB; a YAML file of a benchmark or job is at most 1 MiB',
    ]);
  });
});

describe('copies made by the worker', () => {
  function tree(): { root: string; inputs: string; out: string } {
    const root = mkdtempSync(path.join(os.tmpdir(), 'assay-copy-'));
    dirs.push(root);
    const inputs = path.join(root, 'tasks/t1/inputs');
    mkdirSync(path.join(inputs, 'sub'), { recursive: true });
    writeFileSync(path.join(inputs, 'a.md'), 'A');
    writeFileSync(path.join(inputs, 'sub/b.md'), 'B');
    return { root, inputs, out: path.join(root, 'workspace/inputs') };
  }

  it('copy a folder of regular files as it is', () => {
    const { root, inputs, out } = tree();
    copyBenchmarkTree(inputs, out, root);
    expect(readFileSync(path.join(out, 'sub/b.md'), 'utf8')).toBe('B');
    copyBenchmarkFile(path.join(inputs, 'a.md'), path.join(root, 'a-copy.md'), root);
    expect(readFileSync(path.join(root, 'a-copy.md'), 'utf8')).toBe('A');
  });

  it.each([
    ['a nested link', (t: ReturnType<typeof tree>) => symlinkSync('/etc/hostname', path.join(t.inputs, 'sub/h'))],
    ['a hard link', (t: ReturnType<typeof tree>) => linkSync(path.join(t.inputs, 'a.md'), path.join(t.inputs, 'a2'))],
    [
      'an inputs folder that is a link',
      (t: ReturnType<typeof tree>) => {
        rmSync(t.inputs, { recursive: true });
        symlinkSync('/etc', t.inputs);
      },
    ],
    [
      'a task folder that is a link',
      (t: ReturnType<typeof tree>) => {
        execFileSync('mv', [path.join(t.root, 'tasks/t1'), path.join(t.root, 't1-real')]);
        symlinkSync(path.join(t.root, 't1-real'), path.join(t.root, 'tasks/t1'));
      },
    ],
  ])('refuse %s, and copy no host file', (_name, change) => {
    const t = tree();
    change(t);
    expect(() => copyBenchmarkTree(t.inputs, t.out, t.root)).toThrow(/benchmark files must be regular files/);
    expect(existsSync(path.join(t.out, 'sub/h')) || existsSync(path.join(t.out, 'hostname'))).toBe(false);
  });

  it('refuse a release file reached through a linked folder, or a release that is a link', () => {
    const t = tree();
    symlinkSync(path.join(t.inputs, 'sub'), path.join(t.inputs, 'via'));
    symlinkSync('/etc/hostname', path.join(t.inputs, 'host'));
    const dest = path.join(t.root, 'out.md');
    expect(() => copyBenchmarkFile(path.join(t.inputs, 'via/b.md'), dest, t.root)).toThrow(/symbolic link/);
    expect(() => copyBenchmarkFile(path.join(t.inputs, 'host'), dest, t.root)).toThrow(/symbolic link/);
    expect(existsSync(dest)).toBe(false);
  });
});
