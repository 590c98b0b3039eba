// The connection settings as @temporalio/envconfig reads them: environment, TOML profiles, TLS files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadTemporalTarget } from '../src/temporal-connection.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-envconfig-'));
const write = (name: string, text: string): string => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
};
const cert = write('client.pem', '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
const key = write('client.key', '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n');
// No user's ~/.config/temporalio/temporal.toml leaks into these tests.
const noFile = { TEMPORAL_CONFIG_FILE: path.join(dir, 'absent.toml') };

describe('loadTemporalTarget', async () => {
  it('defaults to the local dev server assay starts', async () => {
    const t = await loadTemporalTarget(noFile);
    expect(t).toMatchObject({ address: '127.0.0.1:7233', namespace: 'default', external: false });
    expect(t.connectionOptions).toEqual({ address: '127.0.0.1:7233' });
  });

  it('carries TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE and the API key, which the summary never shows', async () => {
    const t = await loadTemporalTarget({
      ...noFile,
      TEMPORAL_ADDRESS: 'ns.acct.tmprl.cloud:7233',
      TEMPORAL_NAMESPACE: 'ns.acct',
      TEMPORAL_API_KEY: 'secret-key-123',
    });
    expect(t).toMatchObject({ address: 'ns.acct.tmprl.cloud:7233', namespace: 'ns.acct', external: true });
    expect(t.connectionOptions.apiKey).toBe('secret-key-123');
    // envconfig's convention: an API key means TLS unless TLS is turned off.
    expect(t.connectionOptions.tls).toBe(true);
    expect(t.summary).toBe('ns.acct.tmprl.cloud:7233 (namespace ns.acct, TLS, API key set)');
    expect(t.summary).not.toContain('secret');
  });

  it('loads the TLS client certificate and key from TEMPORAL_TLS_CLIENT_CERT_PATH / _KEY_PATH', async () => {
    const t = await loadTemporalTarget({
      ...noFile,
      TEMPORAL_ADDRESS: 'temporal.example:7233',
      TEMPORAL_TLS_CLIENT_CERT_PATH: cert,
      TEMPORAL_TLS_CLIENT_KEY_PATH: key,
    });
    const tls = t.connectionOptions.tls;
    expect(typeof tls).toBe('object');
    if (typeof tls !== 'object') return;
    expect(Buffer.from(tls.clientCertPair!.crt).toString()).toBe(fs.readFileSync(cert, 'utf8'));
    expect(Buffer.from(tls.clientCertPair!.key).toString()).toBe(fs.readFileSync(key, 'utf8'));
    expect(t.summary).toContain('TLS with a client certificate');
  });

  it('names a TLS file that does not exist and the variable it came from, in one sentence', async () => {
    const missing = path.join(dir, 'nope.pem');
    const load = loadTemporalTarget({
      ...noFile,
      TEMPORAL_TLS_CLIENT_CERT_PATH: missing,
      TEMPORAL_TLS_CLIENT_KEY_PATH: key,
    });
    await expect(load).rejects.toThrow(
      `Cannot read the Temporal TLS client certificate ${missing} (from TEMPORAL_TLS_CLIENT_CERT_PATH): no such file.`,
    );
  });

  it('reads the same without envconfig when nothing but the address and namespace is set', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-home-'));
    const plain = { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
    const vars = { TEMPORAL_ADDRESS: 'temporal.example:7233', TEMPORAL_NAMESPACE: 'bench' };
    expect(await loadTemporalTarget({ ...plain, ...vars })).toEqual(await loadTemporalTarget({ ...noFile, ...vars }));
    // The default config file, once it exists, is read (its profile gives the address).
    fs.mkdirSync(path.join(home, '.config', 'temporalio'), { recursive: true });
    fs.writeFileSync(path.join(home, '.config', 'temporalio', 'temporal.toml'), '[profile.default]\naddress = "x:1"\n');
    expect(await loadTemporalTarget(plain)).toMatchObject({ address: 'x:1', external: true });
  });

  it('refuses a client certificate without its key', async () => {
    await expect(loadTemporalTarget({ ...noFile, TEMPORAL_TLS_CLIENT_CERT_PATH: cert })).rejects.toThrow(
      /TLS client certificate is set for Temporal but no client key/,
    );
  });

  it('reads a profile of the TOML config file; the environment overrides it', async () => {
    const file = write(
      'temporal.toml',
      [
        '[profile.prod]',
        'address = "prod.example:7233"',
        'namespace = "bench"',
        'api_key = "from-profile"',
        '[profile.prod.tls]',
        `client_cert_path = "${cert}"`,
        `client_key_path = "${key}"`,
        '[profile.broken.tls]',
        `client_cert_path = "${path.join(dir, 'gone.pem')}"`,
        `client_key_path = "${key}"`,
      ].join('\n'),
    );
    const prod = await loadTemporalTarget({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'prod' });
    expect(prod).toMatchObject({ address: 'prod.example:7233', namespace: 'bench', external: true });
    expect(prod.connectionOptions.apiKey).toBe('from-profile');
    expect(inspect(prod.summary)).not.toContain('from-profile');
    const over = await loadTemporalTarget({
      TEMPORAL_CONFIG_FILE: file,
      TEMPORAL_PROFILE: 'prod',
      TEMPORAL_NAMESPACE: 'x',
    });
    expect(over.namespace).toBe('x');
    await expect(loadTemporalTarget({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'broken' })).rejects.toThrow(
      `(from ${file} profile "broken" tls.client_cert_path): no such file.`,
    );
    await expect(loadTemporalTarget({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'staging' })).rejects.toThrow(
      `Cannot load the Temporal connection settings (config file ${file}, profile "staging"): Profile 'staging' not found in config data.`,
    );
  });
});
