// A project-local Python venv with pinned SciPy, NumPy and nbformat from PyPI, made
// on first use (.assay/venv-scipy, git-ignored). Concurrent test files wait on a lock.
// Only a failing `pip install` (e.g. no registry) makes callers skip; a missing
// python3 or a broken venv module is a setup error and throws.
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../src/published-data.js';

export const PINNED = { scipy: '1.17.1', numpy: '2.4.6', nbformat: '5.11.1' } as const;
export const VENV_DIR = path.join(REPO_ROOT, '.assay', 'venv-scipy');
export const VENV_PYTHON = path.join(VENV_DIR, 'bin', 'python');

export type VenvStatus = { ok: true; python: string } | { ok: false; reason: string };

function hasPinned(): boolean {
  if (!existsSync(VENV_PYTHON)) return false;
  const r = spawnSync(
    VENV_PYTHON,
    ['-c', 'import scipy, numpy, nbformat; print(scipy.__version__, numpy.__version__, nbformat.__version__)'],
    { encoding: 'utf8' },
  );
  return r.status === 0 && r.stdout.trim() === `${PINNED.scipy} ${PINNED.numpy} ${PINNED.nbformat}`;
}

async function withLock<T>(fn: () => T): Promise<T> {
  const lock = `${VENV_DIR}.lock`;
  mkdirSync(path.dirname(lock), { recursive: true });
  const started = Date.now();
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch {
      // A lock older than 10 minutes is from a killed run.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 600_000) rmSync(lock, { force: true });
      if (Date.now() - started > 600_000) throw new Error(`timed out waiting for ${lock}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

export async function ensureScipyVenv(): Promise<VenvStatus> {
  if (hasPinned()) return { ok: true, python: VENV_PYTHON };
  return withLock(() => {
    if (hasPinned()) return { ok: true as const, python: VENV_PYTHON };
    if (!existsSync(VENV_PYTHON)) {
      const base = process.env.ASSAY_PYTHON ?? 'python3';
      execFileSync(base, ['-m', 'venv', VENV_DIR], { stdio: 'pipe' });
    }
    const pip = spawnSync(
      VENV_PYTHON,
      [
        '-m',
        'pip',
        'install',
        '--disable-pip-version-check',
        '-q',
        `scipy==${PINNED.scipy}`,
        `numpy==${PINNED.numpy}`,
        `nbformat==${PINNED.nbformat}`,
      ],
      { encoding: 'utf8', timeout: 540_000 },
    );
    if (pip.status !== 0) {
      return {
        ok: false as const,
        reason: `pip install of scipy==${PINNED.scipy} numpy==${PINNED.numpy} nbformat==${PINNED.nbformat} failed (exit ${pip.status}): ${(pip.stderr || pip.stdout || String(pip.error)).trim().slice(-800)}`,
      };
    }
    return hasPinned()
      ? { ok: true as const, python: VENV_PYTHON }
      : { ok: false as const, reason: 'pip reported success but the pinned versions are not importable' };
  });
}

/** Run a Python script in the venv with JSON on stdin, parse JSON from stdout. */
export function runPythonJson<T>(
  python: string,
  script: string,
  input: unknown,
  env: NodeJS.ProcessEnv = process.env,
): T {
  const r = spawnSync(python, ['-c', script], {
    input: JSON.stringify(input),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env,
  });
  if (r.status !== 0) throw new Error(`python failed (exit ${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}
