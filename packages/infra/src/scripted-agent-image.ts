// The scripted agents (oracle, nop and the papers' failure modes) in one image:
// images/scripted-agent/Dockerfile + packages/agents/scripted/ copied to /opt/assay/.
import fs from 'node:fs';
import path from 'node:path';
import { baseImageTag } from './base-image.js';
import { ensureImage, imageTagFor, type BuiltImage } from './image.js';
import { messages } from './messages.js';
import { imagesDir, scriptedAgentSourceDir } from './paths.js';
import type { Log } from './run.js';

export const SCRIPTED_AGENT_REPO = 'assay/scripted-agent';
export const SCRIPTED_AGENT_ENTRY = '/opt/assay/assay_agent.py';

export interface ScriptedAgentImageOptions {
  root: string;
  log?: Log;
  /** Folder with assay_agent.py; defaults to <root>/packages/agents/scripted. */
  sourceDir?: string;
}

function imageOptions(opts: ScriptedAgentImageOptions) {
  const sourceDir = opts.sourceDir ?? scriptedAgentSourceDir(opts.root);
  if (!fs.existsSync(path.join(sourceDir, 'assay_agent.py')))
    throw new Error(messages.scriptedAgentMissing(path.join(sourceDir, 'assay_agent.py')));
  return {
    root: opts.root,
    name: 'scripted-agent',
    dockerfileDir: path.join(imagesDir(opts.root), 'scripted-agent'),
    sources: [{ from: sourceDir, to: 'agent' }],
    ...(opts.log ? { log: opts.log } : {}),
  };
}

/** Builds assay/scripted-agent:<context hash> when missing; returns its tag. */
export function ensureScriptedAgentImage(opts: ScriptedAgentImageOptions): Promise<BuiltImage> {
  return ensureImage(imageOptions(opts));
}

/** The tag `assay/scripted-agent:<hash>` for the current sources, without building anything. */
export function scriptedAgentImageTag(opts: ScriptedAgentImageOptions): Promise<string> {
  return imageTagFor({ ...imageOptions(opts), baseTag: baseImageTag() });
}
