// `assay view [RESULTS...]`: the results browser on 127.0.0.1 (or --host, with a token) over results folders or
// job files (a job file stands for its results folder, as in `report`); with none, every folder under
// .assay/results/. Runs until interrupted.
import { statSync } from 'node:fs';
import path from 'node:path';
import { defaultResultsDirs, messages, startViewer, viewerToken } from '@assay/viewer';
import { CliError } from '../cli-error.js';
import { repoRoot } from '../repo-root.js';

/** A results folder, an s3:// results location (as `report` takes), or a job file. */
async function resultsDirOf(arg: string, root: string): Promise<string> {
  if (/^s3:\/\//i.test(arg)) return arg;
  const stat = statSync(arg, { throwIfNoEntry: false });
  if (!stat) throw new CliError(messages.notResults(arg));
  if (stat.isDirectory()) return path.resolve(arg);
  // Only a job file needs the job loader (and what it imports).
  const { loadJobOrFail } = await import('../job-input.js');
  return loadJobOrFail(arg, root).resultsDir;
}

export async function viewCommand(
  results: string[],
  opts: { port?: string; json?: boolean; reviewer?: string; host?: string; token?: string },
): Promise<void> {
  const host = opts.host ?? '127.0.0.1';
  // --token, else ASSAY_VIEW_TOKEN (an empty one is none); checked before anything is read.
  const given = opts.token ?? (process.env.ASSAY_VIEW_TOKEN || undefined);
  let token: string | null;
  try {
    token = viewerToken(host, given, opts.token !== undefined ? '--token' : 'ASSAY_VIEW_TOKEN');
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  const root = repoRoot();
  const dirs =
    results.length > 0 ? await Promise.all(results.map((r) => resultsDirOf(r, root))) : defaultResultsDirs(root);
  if (dirs.length === 0) throw new CliError(messages.noSources());
  const viewer = await startViewer({
    resultsDirs: dirs,
    port: opts.port ? Number(opts.port) : 0,
    reviewer: opts.reviewer ?? null,
    host,
    token,
  }).catch((err: Error) => {
    throw new CliError(err.message.split('\n')[0] ?? String(err));
  });
  // Handlers before the URL is printed: a signal sent on seeing it must find them (with none, the kernel's
  // default action kills the process on the spot, before the next statement could install one).
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  if (opts.json) console.log(JSON.stringify({ url: viewer.url, results: dirs }));
  else console.log(messages.listening(viewer.url));
  await stopped;
  await viewer.close();
}
