// A model harness's image for one Harbor task: the harness chain (node22 runtime, then the npm CLI) built
// with the task's own image as its base (as root: a task image whose USER is not root gets root-layer/ under
// it), then the harness-layer/ step that gives the task its USER and working directory back. Every step is content-addressed with its base among its build args (the task image by
// its id), so each (task image, harness) pair is built once and an unchanged pair is found, not rebuilt.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Docker from 'dockerode';
import { ensureHarnessImage, harnessVersionOf, type InstalledHarness } from '@assay/harnesses';
import { ensureImage } from '@assay/infra';

const REPO_ROOT = process.env.ASSAY_ROOT ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const LAYER_DIR = path.join(REPO_ROOT, 'activities/src/harbor/harness-layer');
const ROOT_LAYER_DIR = path.join(REPO_ROOT, 'activities/src/harbor/root-layer');

/** The image's USER is root (unset, `root`, uid 0, with or without a group). */
export const isRootUser = (user: string | null): boolean => user === null || /^(root|0)(:.*)?$/.test(user);

/** Builds the harness chain on a base image (the npm CLIs' recipes; a test passes a stand-in). */
export type BuildChain = (args: { harness: InstalledHarness; baseImage: string }) => Promise<{ tag: string }>;

const buildChain: BuildChain = ({ harness, baseImage }) => ensureHarnessImage({ root: REPO_ROOT, harness, baseImage });

export interface HarborHarnessImage {
  tag: string;
  /** The task's working directory: [environment].workdir, else its image's WORKDIR (else /). */
  workdir: string;
  /** The task image's user (the harness layers run as root to install; the agent runs as the task says). */
  imageUser: string | null;
  /** The CLI's version as it printed it when the chain was built, read from this image (absent: it has none). */
  harnessVersion?: string;
}

export async function ensureHarborHarnessImage(
  docker: Docker,
  args: { taskImage: string; harness: InstalledHarness; workdir: string | null; configFile: string },
  chainOf: BuildChain = buildChain,
): Promise<HarborHarnessImage> {
  const info = await docker.getImage(args.taskImage).inspect();
  const config = info.Config;
  const workdir = args.workdir ?? (config.WorkingDir || '/');
  const imageUser = config.User || null;
  try {
    // By image id, not tag: tasks with the same environment share one chain, and a moved tag gets its own.
    // A task image whose USER is someone else gets a `USER root` layer first: the recipes install as root.
    const base = isRootUser(imageUser)
      ? info.Id
      : (
          await ensureImage({
            root: REPO_ROOT,
            name: 'harbor-as-root',
            dockerfileDir: ROOT_LAYER_DIR,
            buildArgs: { BASE_IMAGE: info.Id },
          })
        ).tag;
    const chain = await chainOf({ harness: args.harness, baseImage: base });
    const layer = await ensureImage({
      root: REPO_ROOT,
      name: `harbor-harness-${args.harness}`,
      dockerfileDir: LAYER_DIR,
      buildArgs: { BASE_IMAGE: chain.tag, TASK_WORKDIR: workdir, TASK_USER: imageUser ?? 'root' },
    });
    const harnessVersion = await harnessVersionOf(layer.tag, docker);
    return { tag: layer.tag, workdir, imageUser, ...(harnessVersion ? { harnessVersion } : {}) };
  } catch (err) {
    // Not HarnessNotAvailable: a registry that did not answer is worth the activity's retries, as in run-harness.
    throw new Error(
      `${args.configFile}: the ${args.harness} harness could not be layered on the task's image ${args.taskImage}: ${(err as Error).message}`,
    );
  }
}
