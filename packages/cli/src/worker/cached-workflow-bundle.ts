// Temporal's workflow bundle (webpack over workflows/ and what it imports: 2–5 s of CPU) built once
// per content hash of its inputs and kept under .assay/cache/workflow-bundles/, so a worker that
// starts on unchanged sources skips the bundler. The inputs are the workflows package and every
// workspace package it depends on (followed through package.json, as pnpm must resolve them), the
// lockfile (npm versions, the bundler's included) and the bundler options.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface CachedBundle {
  codePath: string;
  /** false when it was built by this call. */
  reused: boolean;
  seconds: number;
}

export interface BundleCacheOptions {
  root: string;
  /** The workflows package folder (holds package.json and src/). */
  workflowsDir: string;
  /** What the bundler is asked for beyond the workflows path; part of the key. */
  bundlerOptions: Record<string, unknown>;
  build: () => Promise<{ code: string }>;
}

export async function cachedWorkflowBundle(opts: BundleCacheOptions): Promise<CachedBundle> {
  const started = Date.now();
  const key = bundleKey(opts);
  const dir = path.join(opts.root, '.assay/cache/workflow-bundles');
  const codePath = path.join(dir, `${key}.js`);
  if (fs.existsSync(codePath)) return { codePath, reused: true, seconds: (Date.now() - started) / 1000 };
  const { code } = await opts.build();
  fs.mkdirSync(dir, { recursive: true });
  // Atomic: a worker starting meanwhile sees the whole bundle or none.
  const tmp = `${codePath}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, code);
  fs.renameSync(tmp, codePath);
  removeOldBundles(dir, path.basename(codePath));
  return { codePath, reused: false, seconds: (Date.now() - started) / 1000 };
}

/** sha256 over every input file's path and content. */
function bundleKey(opts: Pick<BundleCacheOptions, 'root' | 'workflowsDir' | 'bundlerOptions'>): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(opts.bundlerOptions));
  const files = [path.join(opts.root, 'pnpm-lock.yaml')];
  for (const dir of workspaceClosure(opts.root, opts.workflowsDir)) {
    files.push(path.join(dir, 'package.json'), ...listFiles(path.join(dir, 'src')));
  }
  for (const f of files.sort()) {
    hash.update(`\0${path.relative(opts.root, f)}\0`);
    hash.update(fs.existsSync(f) ? fs.readFileSync(f) : '(missing)');
  }
  return hash.digest('hex').slice(0, 32);
}

/** The package folder and those of the workspace packages it depends on, transitively. */
function workspaceClosure(root: string, start: string): string[] {
  const byName = workspacePackages(root);
  const seen = new Set<string>();
  const visit = (dir: string): void => {
    if (seen.has(dir)) return;
    seen.add(dir);
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    for (const name of Object.keys(pkg.dependencies ?? {})) {
      const dep = byName.get(name);
      if (dep) visit(dep);
    }
  };
  visit(path.resolve(start));
  return [...seen];
}

function workspacePackages(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const dirs = ['workflows', 'activities', 'analysis', ...listDirs(path.join(root, 'packages'))];
  for (const d of dirs) {
    const dir = path.resolve(root, d);
    try {
      const { name } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name: string };
      out.set(name, dir);
    } catch {
      // Not a package.
    }
  }
  return out;
}

function listDirs(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => path.join(dir, d.name));
}

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((d) => {
    const full = path.join(d.parentPath, d.name);
    return d.isFile() ? [full] : [];
  });
}

/** Keep the few newest bundles (other checkouts' workers may use theirs): a bundle is ~2 MB. */
function removeOldBundles(dir: string, keep: string): void {
  const old = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.js') && f !== keep)
    .map((f) => ({ f, mtime: fs.statSync(path.join(dir, f)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime)
    .slice(4);
  for (const { f } of old) fs.rmSync(path.join(dir, f), { force: true });
}
