// The base image of every assay container, built offline: no registry is reachable, so a
// minimal Debian is debootstrapped from the machine's own apt mirror and `docker import`ed.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { aptInstall } from './apt.js';
import { ensureDocker, dockerClient } from './docker-engine.js';
import { withLock } from './lock.js';
import { messages } from './messages.js';
import { buildDir, logsDir } from './paths.js';
import { runLogged, which, type Log } from './run.js';

export const BASE_REPO = 'assay/base';
export const BASE_SUITE = 'bookworm';

/** What every harness image needs: Python with the office libraries the scripted agents use, TLS roots, a shell, an init. */
export const BASE_PACKAGES = [
  'bash',
  'coreutils',
  'findutils',
  'grep',
  'sed',
  'tar',
  'gzip',
  'xz-utils',
  'procps',
  'tini',
  'ca-certificates',
  'curl',
  'git',
  'unzip',
  'zip',
  'less',
  'python3',
  'python3-pip',
  'python3-venv',
  'python3-openpyxl',
  'python3-docx',
] as const;

// Bump when the recipe below changes in a way the package list does not show.
const RECIPE_VERSION = 1;

export function baseImageHash(packages: readonly string[] = BASE_PACKAGES): string {
  const spec = JSON.stringify({
    v: RECIPE_VERSION,
    suite: BASE_SUITE,
    variant: 'minbase',
    packages: [...packages].sort(),
  });
  return createHash('sha256').update(spec).digest('hex').slice(0, 10);
}

/** e.g. assay/base:bookworm-1a2b3c4d5e (also tagged assay/base:bookworm once built). */
export function baseImageTag(packages: readonly string[] = BASE_PACKAGES): string {
  return `${BASE_REPO}:${BASE_SUITE}-${baseImageHash(packages)}`;
}

/** The Debian mirror apt uses here: ASSAY_DEBIAN_MIRROR, else the first URIs of debian.sources or sources.list. */
export function debianMirror(): string {
  const fromEnv = process.env.ASSAY_DEBIAN_MIRROR;
  if (fromEnv) return fromEnv;
  const candidates = [
    '/etc/apt/sources.list.d/debian.sources',
    ...listDir('/etc/apt/sources.list.d').filter((f) => f.endsWith('.sources')),
    '/etc/apt/sources.list',
    ...listDir('/etc/apt/sources.list.d').filter((f) => f.endsWith('.list')),
  ];
  for (const file of candidates) {
    const text = readOr(file);
    if (!text) continue;
    // deb822: a stanza with "URIs:" whose Suites include the plain suite (not -security).
    for (const stanza of text.split(/\n\s*\n/)) {
      const uri = /^URIs:\s*(\S+)/m.exec(stanza)?.[1];
      const suites = /^Suites:\s*(.+)$/m.exec(stanza)?.[1]?.split(/\s+/) ?? [];
      if (uri && suites.includes(BASE_SUITE) && /^Types:.*\bdeb\b/m.test(stanza)) return uri;
    }
    for (const line of text.split('\n')) {
      const m = /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+(\S+)/.exec(line.trim());
      if (m && m[2] === BASE_SUITE && m[1]) return m[1];
    }
  }
  throw new Error(messages.aptMirrorUnknown());
}

export interface EnsureBaseImageOptions {
  root: string;
  log?: Log;
  packages?: readonly string[];
}

export interface ImageResult {
  tag: string;
  built: boolean;
  seconds?: number;
}

export async function ensureBaseImage(opts: EnsureBaseImageOptions): Promise<ImageResult> {
  const log = opts.log ?? (() => {});
  const packages = opts.packages ?? BASE_PACKAGES;
  const tag = baseImageTag(packages);
  await ensureDocker({ root: opts.root, log });
  const docker = dockerClient();
  if (await imageExists(tag)) {
    log(`base image ${tag} present`);
    return { tag, built: false };
  }
  return withLock(
    opts.root,
    'base-image',
    async () => {
      if (await imageExists(tag)) return { tag, built: false };
      const started = Date.now();
      if (!which('debootstrap')) await aptInstall(['debootstrap'], { log, root: opts.root });
      const mirror = debianMirror();
      const rootfs = path.join(buildDir(opts.root), `rootfs-${baseImageHash(packages)}`);
      fs.rmSync(rootfs, { recursive: true, force: true });
      fs.mkdirSync(rootfs, { recursive: true });
      const logFile = path.join(logsDir(opts.root), 'debootstrap.log');
      log(
        `debootstrap ${BASE_SUITE} (minbase + ${packages.length} packages) from ${mirror} into ${rootfs} (log: ${logFile}); takes minutes`,
      );
      try {
        await runLogged(
          'debootstrap',
          ['--variant=minbase', `--include=${packages.join(',')}`, BASE_SUITE, rootfs, mirror],
          {
            log,
            logFile,
            timeoutMs: 40 * 60_000,
          },
        );
        prepareRootfs(rootfs);
        log(`importing ${rootfs} as ${tag}`);
        await importRootfs(rootfs, tag);
        const [repo, alias] = [BASE_REPO, BASE_SUITE];
        await docker.getImage(tag).tag({ repo, tag: alias });
      } finally {
        fs.rmSync(rootfs, { recursive: true, force: true });
      }
      const seconds = Math.round((Date.now() - started) / 1000);
      log(`base image ${tag} built in ${seconds} s`);
      return { tag, built: true, seconds };
    },
    log,
  );
}

export async function imageExists(tag: string): Promise<boolean> {
  try {
    await dockerClient().getImage(tag).inspect();
    return true;
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) return false;
    throw err;
  }
}

/** Apt inside the image should see the same mirror (and security suite) as this machine; caches go. */
function prepareRootfs(rootfs: string): void {
  const hostSources = '/etc/apt/sources.list.d/debian.sources';
  if (fs.existsSync(hostSources) && !process.env.ASSAY_DEBIAN_MIRROR) {
    fs.copyFileSync(hostSources, path.join(rootfs, 'etc/apt/sources.list.d/debian.sources'));
    fs.rmSync(path.join(rootfs, 'etc/apt/sources.list'), { force: true });
  }
  for (const dir of ['var/cache/apt/archives', 'var/lib/apt/lists']) {
    for (const entry of listDir(path.join(rootfs, dir))) {
      if (entry.endsWith('.deb') || (dir.endsWith('lists') && !entry.endsWith('/lock') && !entry.endsWith('partial'))) {
        fs.rmSync(entry, { recursive: true, force: true });
      }
    }
  }
}

const IMPORT_CHANGES = [
  'ENV LANG=C.UTF-8',
  'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  'ENV PYTHONDONTWRITEBYTECODE=1',
  'CMD ["/bin/bash"]',
];

/** `tar -C rootfs -c . | docker import --change ... - tag`, through the engine API. */
async function importRootfs(rootfs: string, tag: string): Promise<void> {
  const [repo, version] = tag.split(':');
  const tar = spawn('tar', ['--numeric-owner', '-C', rootfs, '-c', '.'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let tarErr = '';
  tar.stderr.on('data', (d: Buffer) => (tarErr += d.toString()));
  const tarDone = new Promise<number | null>((r) => tar.on('close', r));
  const docker = dockerClient();
  const stream = await docker.importImage(
    tar.stdout as unknown as string,
    { repo, tag: version, changes: IMPORT_CHANGES } as object,
  );
  const events = await new Promise<Array<{ error?: string; status?: string }>>((resolve, reject) =>
    docker.modem.followProgress(stream, (err: Error | null, out: Array<{ error?: string; status?: string }>) =>
      err ? reject(err) : resolve(out),
    ),
  ).catch((err: Error) => {
    throw new Error(messages.imageImportFailed(tag, err.message));
  });
  const failed = events.find((e) => e.error);
  const code = await tarDone;
  if (failed?.error) throw new Error(messages.imageImportFailed(tag, failed.error));
  if (code !== 0) throw new Error(messages.imageImportFailed(tag, `tar exited ${code}: ${tarErr.trim()}`));
}

function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir).map((f) => path.join(dir, f));
  } catch {
    return [];
  }
}

function readOr(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
