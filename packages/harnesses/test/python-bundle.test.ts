// A Python CLI's venv bundled for another image (python-bundle/, python-portable/), as the Python CLIs run on
// Harbor tasks. Real `docker build`s: a stand-in CLI image on the offline base (a venv at /opt/harness with
// Pillow from PyPI, a manylinux wheel whose libraries find each other through its extension's RPATH, and a
// console script, as the kimi-cli/nanobot/hermes recipes make; the real ones take minutes:
// test/harbor-harness.test.ts runs them with ASSAY_HARNESS_E2E=1), its bundle, and the bundle on two images:
// `scratch` (no libc, loader, shell or Python at all: everything the CLI loads must be in the bundle) and the
// base image with its own Python, where what the CLI starts must see that image as it is.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureImage } from '@assay/infra';
import { ensurePythonBundle, harnessVersionOf, registryCaBundle } from '../src/ensure-harness-image.js';
import { checkDockerReady, BASE_IMAGE } from '../../../test/support/docker-ready.js';
import { runContainer } from '../../../test/support/run-container.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
const docker = new Docker();
const dockerReady = await checkDockerReady(docker);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-python-bundle-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

// The console script loads the standard library's extensions that need shared libraries (OpenSSL, SQLite,
// libffi, liblzma, libbz2, zlib, libmpdec), Pillow's (its libtiff needs the wheel's own libzstd), calls into
// libc through ctypes, and starts what argv names.
const CLI = `#!/opt/harness/bin/python
import ctypes, io, json, lzma, bz2, decimal, hashlib, ssl, sqlite3, subprocess, sys, zlib
from PIL import Image
tiff = io.BytesIO()
Image.new("RGB", (4, 4), "red").save(tiff, "TIFF", compression="tiff_adobe_deflate")
out = {
    "tiff": Image.open(io.BytesIO(tiff.getvalue())).getpixel((0, 0)),
    "executable": sys.executable,
    "prefix": sys.prefix,
    "base_prefix": sys.base_prefix,
    "openssl": ssl.OPENSSL_VERSION,
    "sqlite": sqlite3.connect(":memory:").execute("select 6 * 7").fetchone()[0],
    "pid": ctypes.CDLL(None).getpid() > 0,
    "lzma": lzma.decompress(lzma.compress(b"x")).decode(),
}
if len(sys.argv) > 1:
    out["child"] = subprocess.run(sys.argv[1:], capture_output=True, text=True).stdout.strip()
print(json.dumps(out))
`;

async function standInCli(): Promise<string> {
  const dir = path.join(tmp, 'cli');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'fake-cli'), CLI);
  fs.writeFileSync(
    path.join(dir, 'Dockerfile'),
    [
      'ARG BASE_IMAGE',
      'FROM ${BASE_IMAGE}',
      'COPY fake-cli /opt/fake-cli',
      'COPY registry-ca.crt /tmp/registry-ca.crt',
      'RUN python3 -m venv /opt/harness \\',
      ' && /opt/harness/bin/pip install --cert /tmp/registry-ca.crt --no-cache-dir --disable-pip-version-check pillow==11.3.0 \\',
      ' && install -m 0755 /opt/fake-cli /opt/harness/bin/fake-cli \\',
      ' && ln -s /opt/harness/bin/fake-cli /usr/local/bin/fake-cli \\',
      ' && echo "fake-cli 1.0" > /opt/assay-harness-version',
      'WORKDIR /workspace',
      '',
    ].join('\n'),
  );
  const sources = [{ from: registryCaBundle(), to: 'registry-ca.crt' }];
  return (await ensureImage({ root: ROOT, name: 'test-python-cli', dockerfileDir: dir, sources })).tag;
}

describe.skipIf(!dockerReady)('a Python CLI bundled for another image', () => {
  it('runs on an image with nothing in it: no libc, no loader, no shell, no Python', async () => {
    const cli = await standInCli();
    const { image } = await ensurePythonBundle({
      root: ROOT,
      name: 'test-python-on-scratch',
      cliImage: cli,
      onImage: 'scratch',
    });
    const { code, out } = await runContainer(docker, image.tag, ['/usr/local/bin/fake-cli']);
    expect(code, out).toBe(0);
    const report = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
    expect(report).toMatchObject({
      executable: '/opt/harness/bin/python',
      prefix: '/opt/harness',
      base_prefix: '/opt/assay-python',
      sqlite: 42,
      pid: true,
      lzma: 'x',
      tiff: [255, 0, 0],
    });
    expect(report.openssl).toMatch(/^OpenSSL 3\./);
    // The version file came with the bundle, and is read from an image with no shell to cat it: as the CLI's has it.
    const written = await runContainer(docker, cli, ['cat', '/opt/assay-harness-version']);
    expect(written.out.trim()).not.toBe('');
    expect(await harnessVersionOf(image.tag, docker)).toBe(written.out.trim());
  }, 300_000);

  it("leaves the image's own Python and environment to what the CLI starts", async () => {
    const cli = await standInCli();
    const { image } = await ensurePythonBundle({
      root: ROOT,
      name: 'test-python-on-base',
      cliImage: cli,
      onImage: BASE_IMAGE,
    });
    const child =
      'import os, sys; print(sys.executable, sys.base_prefix, os.environ.get("LD_LIBRARY_PATH"), os.environ.get("PYTHONHOME"))';
    const { code, out } = await runContainer(docker, image.tag, ['fake-cli', 'python3', '-c', child]);
    expect(code, out).toBe(0);
    const report = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
    expect(report.base_prefix).toBe('/opt/assay-python');
    expect(report.child).toBe('/usr/bin/python3 /usr None None');
    const files = await runContainer(docker, image.tag, ['cat', '/opt/assay-harness-version']);
    expect(files.out.trim()).toBe('fake-cli 1.0');
    expect(await harnessVersionOf(image.tag, docker)).toBe(files.out.trim());
    // An image no harness recipe built has none.
    expect(await harnessVersionOf(BASE_IMAGE, docker)).toBeUndefined();
  }, 300_000);
});
