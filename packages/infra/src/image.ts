// Harness images layered on the base image with `docker build --network host` (the network
// is only for package registries). The build context is assembled at build time from the
// Dockerfile folder plus named source folders, and the image is tagged by the hash of that
// context and of the images it builds FROM, so an unchanged context is never rebuilt and a changed one (or a
// base image rebuilt under the same name) always is.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ensureBaseImage, imageExists } from './base-image.js';
import { dockerClient } from './docker-engine.js';
import { withLock } from './lock.js';
import { messages } from './messages.js';
import { buildDir, logsDir } from './paths.js';
import type { Log } from './run.js';

const CONTEXT_HASH_LABEL = 'assay.context-hash';

/** A folder (or file) copied into the build context at `to` (relative). */
interface ImageSource {
  from: string;
  to: string;
}

export interface EnsureImageOptions {
  root: string;
  /** Image name without the repo prefix: "scripted-agent" becomes assay/scripted-agent:<hash>. */
  name: string;
  /** Folder holding the Dockerfile (and any files it COPYs that live next to it). */
  dockerfileDir: string;
  sources?: readonly ImageSource[];
  buildArgs?: Readonly<Record<string, string>>;
  log?: Log;
}

export interface BuiltImage {
  tag: string;
  hash: string;
  built: boolean;
  seconds?: number;
}

// Never part of a context: caches and VCS noise would change the hash for nothing.
const SKIP = new Set(['__pycache__', 'node_modules', '.git', '.pytest_cache', '.mypy_cache', '.DS_Store']);
const skipFile = (name: string) => SKIP.has(name) || name.endsWith('.pyc');

export async function ensureImage(opts: EnsureImageOptions): Promise<BuiltImage> {
  const log = opts.log ?? (() => {});
  const base = await ensureBaseImage({ root: opts.root, log });
  return withLock(
    opts.root,
    `image-${opts.name}`,
    async () => {
      const context = assembleContext(opts);
      try {
        const buildArgs = { BASE_IMAGE: base.tag, ...opts.buildArgs };
        const hash = contextHash(context, { ...buildArgs, ...(await fromImageIds(context, buildArgs)) });
        const tag = `assay/${opts.name}:${hash}`;
        if (await hasHash(tag, hash)) {
          log(`image ${tag} up to date`);
          return { tag, hash, built: false };
        }
        const started = Date.now();
        const logFile = path.join(logsDir(opts.root), `image-${opts.name}.log`);
        log(`docker build --network host -t ${tag} (base ${base.tag}; log: ${logFile})`);
        await buildImage(context, tag, hash, buildArgs, logFile, log);
        const seconds = Math.round((Date.now() - started) / 100) / 10;
        log(`image ${tag} built in ${seconds} s`);
        return { tag, hash, built: true, seconds };
      } finally {
        fs.rmSync(context, { recursive: true, force: true });
      }
    },
    log,
  );
}

/** The tag ensureImage would produce now, without building (the base image must exist or is only named). */
export async function imageTagFor(opts: EnsureImageOptions & { baseTag: string }): Promise<string> {
  const context = assembleContext(opts);
  try {
    const buildArgs = { BASE_IMAGE: opts.baseTag, ...opts.buildArgs };
    return `assay/${opts.name}:${contextHash(context, { ...buildArgs, ...(await fromImageIds(context, buildArgs)) })}`;
  } finally {
    fs.rmSync(context, { recursive: true, force: true });
  }
}

function assembleContext(opts: EnsureImageOptions): string {
  if (!fs.existsSync(path.join(opts.dockerfileDir, 'Dockerfile')))
    throw new Error(messages.dockerfileMissing(opts.dockerfileDir));
  const dir = path.join(buildDir(opts.root), `context-${opts.name}-${process.pid}-${Date.now()}`);
  fs.mkdirSync(dir, { recursive: true });
  copyTree(opts.dockerfileDir, dir);
  for (const s of opts.sources ?? []) {
    if (!fs.existsSync(s.from))
      throw new Error(messages.buildSourceMissing(s.from, `It is needed by the ${opts.name} image.`));
    copyTree(s.from, path.join(dir, s.to));
  }
  return dir;
}

function copyTree(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true, dereference: true, filter: (src) => !skipFile(path.basename(src)) });
}

/** sha256 over sorted relative paths, exec bits and contents, plus build args; 12 hex digits. */
export function contextHash(dir: string, buildArgs: Readonly<Record<string, string>>): string {
  const h = createHash('sha256');
  h.update(JSON.stringify(Object.entries(buildArgs).sort()));
  for (const rel of listFiles(dir)) {
    const file = path.join(dir, rel);
    const exec = (fs.statSync(file).mode & 0o111) !== 0;
    h.update(`\0${rel}\0${exec ? 'x' : '-'}\0`);
    h.update(fs.readFileSync(file));
  }
  return h.digest('hex').slice(0, 12);
}

/**
 * The images a Dockerfile builds FROM, by the engine's id (`FROM ubuntu:24.04` → `sha256:…`), as extra hash
 * inputs: a base image rebuilt under the same name then rebuilds what is built on it, instead of leaving a
 * stale image in use. assay's own images are named by their content already; earlier stages and `scratch` are
 * not images; a base not on the engine counts as `absent` (the build will say why it cannot get it).
 */
async function fromImageIds(
  context: string,
  buildArgs: Readonly<Record<string, string>>,
): Promise<Record<string, string>> {
  const text = fs.readFileSync(path.join(context, 'Dockerfile'), 'utf8');
  const args: Record<string, string> = {};
  const stages = new Set<string>();
  const out: Record<string, string> = {};
  let seenFrom = false;
  for (const line of text.split(/\r?\n/)) {
    // Only an ARG before the first FROM can name an image.
    const arg = /^\s*ARG\s+([A-Za-z_][A-Za-z0-9_]*)(?:=(\S*))?/i.exec(line);
    if (arg?.[1] && !seenFrom) args[arg[1]] = buildArgs[arg[1]] ?? arg[2] ?? '';
    const from = /^\s*FROM\s+(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
    if (!from?.[1]) continue;
    seenFrom = true;
    const ref = from[1].replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_, name: string) => args[name] ?? '');
    const stage = stages.has(ref.toLowerCase());
    if (from[2]) stages.add(from[2].toLowerCase());
    if (ref === 'scratch' || ref.startsWith('assay/') || stage) continue;
    const info = await dockerClient()
      .getImage(ref)
      .inspect()
      .catch(() => null);
    out[`FROM ${ref}`] = info?.Id ?? 'absent';
  }
  return out;
}

function listFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of fs
    .readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(dir, rel));
    else out.push(rel);
  }
  return out;
}

async function hasHash(tag: string, hash: string): Promise<boolean> {
  if (!(await imageExists(tag))) return false;
  const info = await dockerClient().getImage(tag).inspect();
  return info.Config?.Labels?.[CONTEXT_HASH_LABEL] === hash;
}

interface BuildEvent {
  stream?: string;
  error?: string;
  errorDetail?: { message?: string };
}

async function buildImage(
  context: string,
  tag: string,
  hash: string,
  buildArgs: Record<string, string>,
  logFile: string,
  log: Log,
): Promise<void> {
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const out = fs.createWriteStream(logFile, { flags: 'a' });
  out.write(`\n# build ${tag} at ${new Date().toISOString()}\n`);
  const tar = spawn('tar', ['-C', context, '-c', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const docker = dockerClient();
  const recent: string[] = [];
  try {
    const stream = await docker.buildImage(tar.stdout, {
      t: tag,
      networkmode: 'host',
      buildargs: buildArgs,
      labels: { [CONTEXT_HASH_LABEL]: hash },
      rm: true,
      forcerm: true,
      pull: false,
    } as object);
    const events = await new Promise<BuildEvent[]>((resolve, reject) =>
      docker.modem.followProgress(
        stream,
        (err: Error | null, res: BuildEvent[]) => (err ? reject(err) : resolve(res)),
        (e: BuildEvent) => {
          const text = e.stream ?? (e.error ? `ERROR: ${e.error}\n` : '');
          if (!text) return;
          out.write(text);
          for (const line of text.split('\n').filter((l) => l.trim())) {
            recent.push(line);
            if (recent.length > 20) recent.shift();
            if (/^Step \d+\/\d+ :/.test(line)) log(`  ${line.slice(0, 160)}`);
          }
        },
      ),
    );
    const failed = events.find((e) => e.error);
    if (failed) throw new Error(failed.errorDetail?.message ?? failed.error);
  } catch (err) {
    throw new Error(
      messages.imageBuildFailed(tag, `${(err as Error).message}\n${recent.join('\n')}\nFull log: ${logFile}`),
    );
  } finally {
    out.end();
  }
}
