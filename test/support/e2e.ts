// Real parts for integration tests: a Temporal dev server on its own port and
// SQLite file, the local Docker engine, and the scripted-agent image.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ensureDocker,
  ensureScriptedAgentImage,
  freePort,
  startTemporalServer,
  stopTemporalServer,
} from '@assay/infra';
import { stringify } from 'yaml';
import { mountPointsUnder } from '../../activities/src/workspace-volume.js';
import { afterAll, beforeAll } from 'vitest';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SAMPLE = path.join(ROOT, 'datasets/sample');

export interface TestServer {
  address: string;
  port: number;
  dbFile: string;
  stop: () => Promise<void>;
  restart: () => Promise<void>;
}

export async function startTestServer(
  dbFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'assay-temporal-')), 'temporal.sqlite'),
): Promise<TestServer> {
  const port = await freePort();
  const saved = process.env.TEMPORAL_ADDRESS;
  delete process.env.TEMPORAL_ADDRESS;
  const start = () => startTemporalServer({ root: ROOT, port, dbFile, ui: false });
  try {
    const info = await start();
    return {
      address: info.address,
      port,
      dbFile,
      stop: async () => {
        await stopTemporalServer({ root: ROOT, port });
      },
      restart: async () => {
        await start();
      },
    };
  } finally {
    if (saved !== undefined) process.env.TEMPORAL_ADDRESS = saved;
  }
}

export async function ensureAgentImage(): Promise<string> {
  await ensureDocker({ root: ROOT });
  return (await ensureScriptedAgentImage({ root: ROOT })).tag;
}

/** The folders writeJob made in this test file: removed after its last test (ASSAY_KEEP_TEST_JOBS=1 keeps them). */
const jobDirs: string[] = [];
// Registered when a test file imports this module, so it runs after the file's own afterAll hooks
// (vitest runs them last-registered first): its servers and workers have stopped by then.
afterAll(() => {
  if (process.env.ASSAY_KEEP_TEST_JOBS === '1') return;
  for (const dir of jobDirs.splice(0)) {
    // A work volume a killed worker left mounted: detached first, or its folder cannot go.
    unmountUnder(dir);
    rmSync(dir, { recursive: true, force: true });
  }
});

export function writeJob(job: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-job-'));
  jobDirs.push(dir);
  const file = path.join(dir, 'job.yaml');
  writeFileSync(
    file,
    stringify({ schema: 'assay.job/v1', benchmark: SAMPLE, results: path.join(dir, 'results'), ...job }),
  );
  return file;
}

/**
 * Run the CLI as a separate process (as a user would: through the launcher `pnpm assay` runs, i.e.
 * the compiled build, rebuilt when a source changed), with TEMPORAL_ADDRESS set. The launcher runs
 * the CLI in its own process, so the child's pid is the CLI's.
 */
export function spawnCli(args: string[], address: string, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [path.join(ROOT, 'scripts/assay.mjs'), ...args], {
    cwd: ROOT,
    env: { ...process.env, TEMPORAL_ADDRESS: address, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function collectOutput(child: ChildProcess): {
  pid: number | undefined;
  text: () => string;
  exit: Promise<number | null>;
} {
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { pid: child.pid, text: () => out, exit };
}

export async function waitFor<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  what: string,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Follow Docker's container `create` events for a job from now on (on `docker`, default the local
 * engine). Docker only keeps a short backlog of past events, so tests subscribe before anything
 * starts. An engine that dies meanwhile ends the stream; what it saw stays.
 */
export async function watchContainerCreates(
  jobId: string,
  docker?: import('dockerode'),
): Promise<{ workflowIds: () => string[]; stop: () => void }> {
  const Docker = (await import('dockerode')).default;
  const stream = (await (docker ?? new Docker()).getEvents({
    filters: { label: [`assay.job=${jobId}`], type: ['container'], event: ['create'] },
  })) as NodeJS.ReadableStream & { destroy?: () => void };
  const ids: string[] = [];
  let buf = '';
  stream.on('error', () => undefined);
  stream.on('data', (d: Buffer) => {
    buf += d.toString();
    const lines = buf.split('\n');
    buf = lines.pop() ?? '';
    for (const l of lines)
      if (l.trim())
        ids.push(
          (JSON.parse(l) as { Actor: { Attributes: Record<string, string> } }).Actor.Attributes['assay.workflow-id'] ??
            '?',
        );
  });
  return { workflowIds: () => [...ids], stop: () => stream.destroy?.() };
}

/** Unmount every work volume under `root` (a killed worker never released its own), deepest first. */
export function unmountUnder(root: string): void {
  for (const m of mountPointsUnder(root)) execFileSync('umount', ['-l', m], { stdio: 'ignore' });
}

/** A Temporal server (and the agent image) for one test file: started before its tests, stopped after. */
export function useTestServer(): () => TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    await ensureAgentImage();
    server = await startTestServer();
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error('the test server is not started yet');
    return server;
  };
}

/** `assay view ARGS --json` as a user starts it: its URL once it serves, and a stop that must exit 0. */
export interface RunningViewer {
  url: string;
  text: () => string;
  /** SIGTERM is the viewer's normal stop: it must exit 0 once its server is closed. */
  stop: () => Promise<number | null>;
}

export async function startViewerCli(args: string[], address: string): Promise<RunningViewer> {
  const child = spawnCli(['view', ...args, '--json'], address);
  const out = collectOutput(child);
  const url = await waitFor(() => /"url":"([^"]+)"/.exec(out.text())?.[1], 'the viewer URL', 120_000);
  return {
    url,
    text: out.text,
    stop: async () => {
      child.kill('SIGTERM');
      return out.exit;
    },
  };
}

/** A JSON POST to the viewer with the headers we choose (fetch would not let a test set Host or Origin). */
export function postJson<T>(
  base: string,
  pathname: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ status: number; body: T }> {
  const target = new URL(pathname, base);
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as T }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}
