// The viewer end-to-end tests' common setup: a real Temporal server, headless Chromium, the given jobs run to
// the end by the real CLI, and `assay view` over them; all stopped after the file (the viewer must exit 0).
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchChromium, type ViewerBrowser } from '../../packages/viewer/scripts/launch-chromium.js';
import {
  collectOutput,
  ensureAgentImage,
  spawnCli,
  startTestServer,
  startViewerCli,
  writeJob,
  type RunningViewer,
  type TestServer,
} from './e2e.js';

export interface ViewerJobs {
  server: TestServer;
  browser: ViewerBrowser;
  viewer: RunningViewer;
  url: string;
  /** Each job's YAML file and results folder, in the order given. */
  files: string[];
  results: string[];
}

/**
 * Runs `jobs` (writeJob's input) one after another, then `assay view` with `viewArgs(files, results)` (default:
 * the first job's file) and `--json`. The getter throws until the setup is done.
 */
export function useViewerJobs(
  jobs: readonly Record<string, unknown>[],
  options: {
    viewArgs?: (files: string[], results: string[]) => string[];
    /** Called once the jobs ran, before the viewer starts (e.g. to keep the records' bytes). */
    afterRun?: (results: string[]) => void | Promise<void>;
    timeoutMs?: number;
  } = {},
): () => ViewerJobs {
  const viewArgs = options.viewArgs ?? ((files: string[]) => [files[0]!]);
  let ready: ViewerJobs | undefined;
  let server: TestServer | undefined;
  let browser: ViewerBrowser | undefined;
  let viewer: RunningViewer | undefined;
  beforeAll(async () => {
    await ensureAgentImage();
    server = await startTestServer();
    browser = await launchChromium();
    const files = jobs.map((j) => writeJob(j));
    const results = files.map((f) => path.join(path.dirname(f), 'results'));
    for (const file of files) {
      const run = collectOutput(spawnCli(['run', file], server.address));
      expect(await run.exit, run.text()).toBe(0);
    }
    await options.afterRun?.(results);
    viewer = await startViewerCli(viewArgs(files, results), server.address);
    ready = { server, browser, viewer, url: viewer.url, files, results };
  }, options.timeoutMs ?? 900_000);
  afterAll(async () => {
    await browser?.close();
    expect(await viewer?.stop()).toBe(0);
    await server?.stop();
  });
  return () => {
    if (!ready) throw new Error('the viewer jobs are not set up yet');
    return ready;
  };
}
