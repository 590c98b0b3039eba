// Builds the CLI (and the worker it embeds) to plain JavaScript under .assay/build/cli/, so that
// `pnpm assay` starts without transpiling every package through tsx. One esbuild bundle of our own
// sources, code-split so the lazy imports in packages/cli/src/main.ts stay lazy; every npm package
// stays external and is imported from the file it resolves to, exactly as Node would from the source.
// Each build goes to its own folder and current.json names the live one, so concurrent CLIs never
// see half a build. Plain JS on purpose: it runs before anything can be transpiled.
//
//   node scripts/build-cli.mjs [--force]   build if stale, print what happened
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILD_DIR = path.join(ROOT, '.assay/build/cli');
const CURRENT = path.join(BUILD_DIR, 'current.json');
const LOCK = path.join(BUILD_DIR, '.lock');
const ENTRY = 'packages/cli/src/main.ts';
const PARSER_CHILD_ENTRY = 'packages/evidence/src/isolate/child-main.ts';
// Not inputs of the bundle but they change what it resolves to or how it is built.
const WATCHED = [
  'scripts/build-cli.mjs',
  'package.json',
  'pnpm-lock.yaml',
  'node_modules/.modules.yaml',
  'tsconfig.base.json',
  'workflows/package.json',
  'activities/package.json',
  'analysis/package.json',
];
const FORMAT = 2;
const LOCK_STALE_MS = 5 * 60_000;
const KEEP_BUILDS = 10;
const KEEP_BUILD_MS = 24 * 3600_000;

// Pure-JS packages that every command loads (job and benchmark files are YAML checked by zod
// schemas): bundled into the build, so Node does not resolve and load their ~250 files one by one
// at each start. Everything else stays external.
const BUNDLED = new Set(['yaml', 'zod']);
const packageName = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

function watchedFiles() {
  const pkgs = fs.readdirSync(path.join(ROOT, 'packages')).map((p) => `packages/${p}/package.json`);
  return [...WATCHED, ...pkgs];
}

/** mtime and size of a file, or null when it is gone. */
function fingerprint(rel) {
  try {
    const s = fs.statSync(path.join(ROOT, rel));
    return [s.mtimeMs, s.size];
  } catch {
    return null;
  }
}

function readCurrent() {
  try {
    const c = JSON.parse(fs.readFileSync(CURRENT, 'utf8'));
    return c.format === FORMAT ? c : null;
  } catch {
    return null;
  }
}

/**
 * The live build's main.mjs when no input changed since it was built (a stat per input, a few ms),
 * else null.
 */
export function freshBuild() {
  const c = readCurrent();
  if (!c || c.root !== ROOT) return null;
  const main = path.join(BUILD_DIR, c.dir, 'main.mjs');
  if (!fs.existsSync(main)) return null;
  for (const [rel, fp] of Object.entries(c.inputs)) {
    const now = fingerprint(rel);
    if (!now || now[0] !== fp[0] || now[1] !== fp[1]) return null;
  }
  return main;
}

/** Bare imports of npm packages: external, as the path they resolve to from the importing source. */
function externalPackages(outdir) {
  return {
    name: 'external-packages',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        // A bundled CommonJS package's require('process') would be a dynamic require, which an ES
        // module cannot do: it reads the built-in through a static import instead.
        if (builtins.has(args.path) && args.kind === 'require-call') return { path: args.path, namespace: 'builtin' };
        if (args.pluginData === 'inner' || builtins.has(args.path) || args.path.startsWith('@assay/')) return undefined;
        if (BUNDLED.has(packageName(args.path))) return undefined;
        const r = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: 'inner',
        });
        if (r.errors.length > 0) return { errors: r.errors };
        if (!r.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        return { path: toImportPath(outdir, r.path), external: true };
      });
      build.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => {
        const id = JSON.stringify(args.path.startsWith('node:') ? args.path : `node:${args.path}`);
        return { contents: `export * from ${id}; export { default } from ${id};`, loader: 'js' };
      });
    },
  };
}

/**
 * Our sources find files next to them through import.meta.url (the scripted agent, the evidence
 * child process, images, the repository root, require.resolve of @assay/workflows for Temporal's
 * bundler): point it at the source file, relative to the chunk so the build stays relocatable.
 */
function sourceUrls(outdir) {
  return {
    name: 'source-urls',
    setup(build) {
      build.onLoad({ filter: /\.[cm]?ts$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const text = await fs.promises.readFile(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return { contents: text, loader: 'ts' };
        const url = `new URL(${JSON.stringify(toImportPath(outdir, args.path))}, import.meta.url).href`;
        return { contents: text.replaceAll('import.meta.url', url), loader: 'ts' };
      });
    },
  };
}

function toImportPath(fromDir, file) {
  const rel = path.relative(fromDir, file).split(path.sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** Builds into a new folder and makes it the live one; returns its main.mjs. Throws on a build error. */
async function build() {
  const { build: esbuild } = await import('esbuild');
  const id = `${Date.now().toString(36)}-${process.pid}`;
  const outdir = path.join(BUILD_DIR, id);
  const started = Date.now();
  let result;
  try {
    result = await esbuild({
      absWorkingDir: ROOT,
      // The evidence parser process too: started without tsx (run-isolated.ts finds it beside its chunk).
      entryPoints: { main: ENTRY, 'parser-child': PARSER_CHILD_ENTRY },
      outdir,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      outExtension: { '.js': '.mjs' },
      chunkNames: '[name]-[hash]',
      // As Node resolves: "main" only, no "module" condition.
      mainFields: ['main'],
      conditions: [],
      sourcemap: 'linked',
      metafile: true,
      logLevel: 'silent',
      plugins: [externalPackages(outdir), sourceUrls(outdir)],
    });
  } catch (err) {
    fs.rmSync(outdir, { recursive: true, force: true });
    throw err;
  }
  const inputs = {};
  for (const rel of [...Object.keys(result.metafile.inputs), ...watchedFiles()]) {
    const fp = fingerprint(rel);
    // Changed while we were building: record it as stale so the next call builds again.
    if (fp) inputs[rel] = fp[0] > started ? [-1, -1] : fp;
  }
  const tmp = `${CURRENT}.${process.pid}`;
  fs.writeFileSync(tmp, JSON.stringify({ format: FORMAT, root: ROOT, dir: id, builtAt: started, inputs }));
  fs.renameSync(tmp, CURRENT);
  removeOldBuilds(id);
  return { main: path.join(outdir, 'main.mjs'), seconds: (Date.now() - started) / 1000, files: inputs };
}

/**
 * A running CLI may still import a chunk of the build it started from (lazily, maybe hours later):
 * keep recent builds and remove only old ones beyond the last few.
 */
function removeOldBuilds(current) {
  const dirs = fs
    .readdirSync(BUILD_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== current && !d.name.startsWith('.'))
    .map((d) => ({ name: d.name, mtime: fs.statSync(path.join(BUILD_DIR, d.name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const [i, d] of dirs.entries()) {
    if (i >= KEEP_BUILDS - 1 || Date.now() - d.mtime > KEEP_BUILD_MS)
      fs.rmSync(path.join(BUILD_DIR, d.name), { recursive: true, force: true });
  }
}

function lockHolderAlive() {
  try {
    const pid = Number(fs.readFileSync(path.join(LOCK, 'pid'), 'utf8'));
    if (Date.now() - fs.statSync(LOCK).mtimeMs > LOCK_STALE_MS) return false;
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: alive but not ours. Anything else (no pid file yet, no such process): treat as gone
    // only once the lock is old enough that its holder had time to write the pid.
    if (err.code === 'EPERM') return true;
    try {
      return Date.now() - fs.statSync(LOCK).mtimeMs < 2000;
    } catch {
      return false;
    }
  }
}

/**
 * main.mjs of an up-to-date build, building it first when a source changed. One process builds at
 * a time; the others wait for it and use its build.
 */
export async function ensureCliBuild({ force = false, log = () => {} } = {}) {
  if (!force) {
    const main = freshBuild();
    if (main) return { main, built: false };
  }
  fs.mkdirSync(BUILD_DIR, { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    if (!lockHolderAlive()) {
      fs.rmSync(LOCK, { recursive: true, force: true });
      continue;
    }
    await new Promise((r) => setTimeout(r, 100));
    if (!force) {
      const main = freshBuild();
      if (main) return { main, built: false };
    }
  }
  try {
    fs.writeFileSync(path.join(LOCK, 'pid'), String(process.pid));
    if (!force) {
      const main = freshBuild();
      if (main) return { main, built: false };
    }
    log('building the CLI (sources changed since the last build)');
    const b = await build();
    return { main: b.main, built: true, seconds: b.seconds, inputs: Object.keys(b.files).length };
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const r = await ensureCliBuild({ force: process.argv.includes('--force') });
    const where = path.relative(ROOT, r.main);
    console.log(r.built ? `built ${where} in ${r.seconds.toFixed(1)} s (${r.inputs} inputs)` : `up to date: ${where}`);
  } catch (err) {
    console.error(`build-cli: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
