// Build (or find) the image of one harness CLI: the node22 runtime image first for npm
// CLIs, then the CLI itself, both content-addressed by @assay/infra's ensureImage. The chain
// starts from the offline base image, or from `baseImage` (a Harbor task's own image; a Python CLI is bundled
// onto it, see ensurePortablePythonImage): the base's tag is a build arg, so it is part of every hash and each
// (base, harness) pair is built once.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Docker from 'dockerode';
import { assayDir, dockerClient, ensureImage, readImageFile, type BuiltImage, type Log } from '@assay/infra';
import type { HarnessInstall } from './harness-adapter.js';
import { INSTALLS, NODE_RUNTIME, NPM_RUNTIME, type InstalledHarness } from './installs.js';
import { messages } from './messages.js';

export const HARNESS_IMAGES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'images');

export interface EnsureHarnessImageOptions {
  root: string;
  harness: InstalledHarness;
  /** Image the chain is layered on (default: the offline base image). */
  baseImage?: string;
  log?: Log;
}

export interface HarnessImage extends BuiltImage {
  harness: string;
  install: HarnessInstall;
  /** node22 runtime image, for npm CLIs. */
  runtime?: BuiltImage;
  /** The CLI's version as it printed it when the image was built (HARNESS_VERSION_FILE); absent: the image has none. */
  harnessVersion?: string;
}

/** Written by every harness recipe at build time: the CLI's own `--version` (npm), the installed package's (PyPI). */
export const HARNESS_VERSION_FILE = '/opt/assay-harness-version';

/** Read once per image id (an image's files never change), by this process. */
const versions = new Map<string, Promise<string | undefined>>();

/**
 * The harness version an image carries: the first line of HARNESS_VERSION_FILE, trimmed; undefined when the
 * file is missing or empty (an image not built by a harness recipe, or built before it wrote one).
 */
export async function harnessVersionOf(image: string, docker: Docker = dockerClient()): Promise<string | undefined> {
  const { Id: id } = await docker.getImage(image).inspect();
  let version = versions.get(id);
  if (!version) {
    version = readImageFile(id, HARNESS_VERSION_FILE, docker).then(
      (data) => data?.toString('utf8').split('\n')[0]?.trim() || undefined,
    );
    versions.set(id, version);
    // A failed read is not remembered: the next run reads again.
    version.catch(() => versions.delete(id));
  }
  return version;
}

const withVersion = async <T extends { tag: string }>(image: T): Promise<T & { harnessVersion?: string }> => {
  const harnessVersion = await harnessVersionOf(image.tag);
  return harnessVersion ? { ...image, harnessVersion } : image;
};

/** `npm pack` a registry package once into .assay/cache/npm (the ordinary client, no other download). */
export function packNpm(root: string, name: string, version: string): string {
  const dir = path.join(assayDir(root), 'cache', 'npm');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`);
  if (fs.existsSync(file)) return file;
  try {
    const out = execFileSync('npm', ['pack', `${name}@${version}`, '--pack-destination', dir, '--silent'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const produced = path.join(dir, out.trim().split('\n').pop() ?? '');
    if (produced !== file) fs.renameSync(produced, file);
  } catch (err) {
    throw new Error(
      messages.npmPackFailed(
        `${name}@${version}`,
        (err as { stderr?: string }).stderr?.trim() || (err as Error).message,
      ),
    );
  }
  return file;
}

export async function ensureNodeRuntimeImage(root: string, log?: Log, baseImage?: string): Promise<BuiltImage> {
  return ensureImage({
    root,
    name: 'harness-node22',
    dockerfileDir: path.join(HARNESS_IMAGES_DIR, 'node22'),
    sources: [
      { from: packNpm(root, NODE_RUNTIME.package, NODE_RUNTIME.version), to: 'node.tgz' },
      { from: packNpm(root, NPM_RUNTIME.package, NPM_RUNTIME.version), to: 'npm.tgz' },
    ],
    ...(baseImage ? { buildArgs: { BASE_IMAGE: baseImage } } : {}),
    ...(log ? { log } : {}),
  });
}

/** The build host's CA bundle: npm and pip inside `docker build` must trust the registries as the host does. */
export function registryCaBundle(): string {
  return process.env.ASSAY_REGISTRY_CA ?? '/etc/ssl/certs/ca-certificates.crt';
}

export async function ensureHarnessImage(opts: EnsureHarnessImageOptions): Promise<HarnessImage> {
  const install: HarnessInstall = INSTALLS[opts.harness];
  if (install.registry === 'pypi' && opts.baseImage)
    return ensurePortablePythonImage({ ...opts, baseImage: opts.baseImage }, install);
  const runtime =
    install.on === 'node22' ? await ensureNodeRuntimeImage(opts.root, opts.log, opts.baseImage) : undefined;
  // npm CLIs sit on the runtime image; Python CLIs directly on the offline base (ensureImage's default).
  const base = runtime?.tag ?? opts.baseImage;
  const built = await ensureImage({
    root: opts.root,
    name: `harness-${opts.harness}`,
    // The npm CLIs share one recipe (only the command differs); each Python CLI has its own.
    dockerfileDir: path.join(HARNESS_IMAGES_DIR, install.registry === 'npm' ? 'npm-cli' : opts.harness),
    sources: [{ from: registryCaBundle(), to: 'registry-ca.crt' }],
    buildArgs: {
      CLI_PACKAGE: install.package,
      CLI_VERSION: install.version,
      ...(install.bin ? { CLI_BIN: install.bin } : {}),
      ...(base ? { BASE_IMAGE: base } : {}),
    },
    ...(opts.log ? { log: opts.log } : {}),
  });
  return withVersion({ ...built, harness: opts.harness, install, ...(runtime ? { runtime } : {}) });
}

/**
 * A Python CLI on another image (a Harbor task's): its recipe builds on the offline base as usual, and its
 * bundle goes onto the node22 runtime layered on `baseImage` (node for the model proxy's relay).
 */
async function ensurePortablePythonImage(
  opts: EnsureHarnessImageOptions & { baseImage: string },
  install: HarnessInstall,
): Promise<HarnessImage> {
  const { baseImage, ...onOfflineBase } = opts;
  const own = await ensureHarnessImage(onOfflineBase);
  const runtime = await ensureNodeRuntimeImage(opts.root, opts.log, baseImage);
  const { image } = await ensurePythonBundle({
    root: opts.root,
    name: `harness-${opts.harness}`,
    cliImage: own.tag,
    onImage: runtime.tag,
    ...(opts.log ? { log: opts.log } : {}),
  });
  return withVersion({ ...image, harness: opts.harness, install, runtime });
}

/**
 * A Python CLI image's venv (/opt/harness) bundled with the interpreter, standard library, shared libraries and
 * loader it runs on (python-bundle/), then copied onto `onImage` (python-portable/), which needs neither Python,
 * Debian's sources, nor the CLI image's libc: nothing runs in it.
 */
export async function ensurePythonBundle(args: {
  root: string;
  name: string;
  cliImage: string;
  onImage: string;
  log?: Log;
}): Promise<{ bundle: BuiltImage; image: BuiltImage }> {
  const log = args.log ? { log: args.log } : {};
  const bundle = await ensureImage({
    root: args.root,
    name: `${args.name}-bundle`,
    dockerfileDir: path.join(HARNESS_IMAGES_DIR, 'python-bundle'),
    buildArgs: { BASE_IMAGE: args.cliImage },
    ...log,
  });
  const image = await ensureImage({
    root: args.root,
    name: args.name,
    dockerfileDir: path.join(HARNESS_IMAGES_DIR, 'python-portable'),
    buildArgs: { BASE_IMAGE: args.onImage, BUNDLE_IMAGE: bundle.tag },
    ...log,
  });
  return { bundle, image };
}
