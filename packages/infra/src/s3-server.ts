// A local S3-compatible server for the S3 results backend: versitygw (Apache-2.0) built from
// the Go module proxy with the machine's Go, its POSIX backend over a folder. Used by tests and
// by anyone who wants object-storage results on one machine; production points at real S3.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { withLock } from './lock.js';
import { freePort, tcpAnswers } from './net.js';
import { assayDir, logsDir } from './paths.js';
import { runLogged, sleep, which, type Log } from './run.js';

const VERSITYGW_VERSION = 'v1.8.0';
const MODULE = 'github.com/versity/versitygw/cmd/versitygw';

function versitygwPath(root: string, version = VERSITYGW_VERSION): string {
  return path.join(assayDir(root), 'tools', `versitygw-${version}`, 'versitygw');
}

/** Builds versitygw into <root>/.assay/tools/ with `go install` when it is missing; returns its path. */
export async function ensureVersitygw(opts: { root: string; log?: Log; version?: string }): Promise<string> {
  const log = opts.log ?? (() => {});
  const version = opts.version ?? VERSITYGW_VERSION;
  const binary = versitygwPath(opts.root, version);
  if (fs.existsSync(binary)) return binary;
  return withLock(opts.root, 'versitygw', async () => {
    if (fs.existsSync(binary)) return binary;
    const go = which('go');
    if (!go) throw new Error(`versitygw ${version} is built from the Go module proxy, but \`go\` is not on PATH`);
    log(`building versitygw ${version} with ${go} (a few minutes the first time)`);
    await runLogged(go, ['install', `${MODULE}@${version}`], {
      log,
      logFile: path.join(logsDir(opts.root), 'versitygw-build.log'),
      env: { ...process.env, GOBIN: path.dirname(binary), GOFLAGS: '-mod=mod', CGO_ENABLED: '0' },
    });
    if (!fs.existsSync(binary)) throw new Error(`go install ${MODULE}@${version} did not produce ${binary}`);
    return binary;
  });
}

export interface S3Server {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  stop: () => Promise<void>;
}

/** Starts versitygw on 127.0.0.1 over `dataDir` (one sub-folder per bucket) and waits until it answers. */
export async function startS3Server(opts: {
  binary: string;
  dataDir: string;
  accessKey: string;
  secretKey: string;
  logFile: string;
}): Promise<S3Server> {
  const port = await freePort();
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const out = fs.openSync(opts.logFile, 'a');
  const child: ChildProcess = spawn(
    opts.binary,
    ['--port', `127.0.0.1:${port}`, '--access', opts.accessKey, '--secret', opts.secretKey, 'posix', opts.dataDir],
    { stdio: ['ignore', out, out] },
  );
  fs.closeSync(out);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`versitygw exited with ${child.exitCode}; see ${opts.logFile}`);
    if (await tcpAnswers('127.0.0.1', port)) {
      return { endpoint: `http://127.0.0.1:${port}`, accessKey: opts.accessKey, secretKey: opts.secretKey, stop };
    }
    await sleep(100);
  }
  await stop();
  throw new Error(`versitygw did not answer on 127.0.0.1:${port} within 10 s; see ${opts.logFile}`);
}
