#!/usr/bin/env node
// `pnpm assay`: runs the compiled CLI from .assay/build/cli/, rebuilding it first when a source it
// was built from changed (a stat per input). If the build fails, the CLI runs from its TypeScript
// sources through tsx as before, after a one-line warning. ASSAY_TSX=1 forces the tsx path.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureCliBuild } from './build-cli.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** esbuild's first error as file:line: text, else the first line of the message. */
function reasonOf(err) {
  const first = err?.errors?.[0];
  if (first) return first.location ? `${first.location.file}:${first.location.line}: ${first.text}` : first.text;
  return (err instanceof Error ? err.message : String(err)).split('\n')[0];
}

async function compiledMain() {
  if (process.env.ASSAY_TSX) return null;
  try {
    // Say so on a terminal only: scripts and tests read our output.
    const log = process.stderr.isTTY ? (line) => process.stderr.write(`assay: ${line}\n`) : undefined;
    return (await ensureCliBuild({ log })).main;
  } catch (err) {
    process.stderr.write(`assay: warning: could not build the CLI (${reasonOf(err)}); running it through tsx\n`);
    return null;
  }
}

const main = await compiledMain();
if (main) {
  // Stack traces point into our sources only when someone is debugging (it costs start-up time).
  if (process.env.ASSAY_DEBUG) process.setSourceMapsEnabled(true);
  await import(pathToFileURL(main).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(path.join(root, 'packages/cli/src/main.ts')).href);
}
