// Where assay's Temporal clients and workers connect, by @temporalio/envconfig's conventions:
// TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS_* and TEMPORAL_PROFILE over
// the TOML config file (TEMPORAL_CONFIG_FILE, else ~/.config/temporalio/temporal.toml). Light on
// purpose (no Temporal client is loaded here): `assay status` reads it before probing the port.
// The API key lives only in `connectionOptions`; `summary` says whether one is set, never what it is.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TLSConfig } from '@temporalio/client';
import type { ClientConfigProfile, ConfigDataSource } from '@temporalio/envconfig';
import { messages } from './messages.js';

const DEFAULT_TEMPORAL_ADDRESS = '127.0.0.1:7233';
const DEFAULT_TEMPORAL_NAMESPACE = 'default';

/** What both `Connection.connect` (client) and `NativeConnection.connect` (worker) accept. */
export interface TemporalConnectionOptions {
  address: string;
  apiKey?: string;
  tls?: TLSConfig | boolean;
  metadata?: Record<string, string>;
}

export interface TemporalTarget {
  address: string;
  namespace: string;
  /** The address came from the environment or a profile: assay starts no server of its own. */
  external: boolean;
  connectionOptions: TemporalConnectionOptions;
  /** For messages and logs: address, namespace, TLS, whether an API key is set (never the key). */
  summary: string;
}

type Env = Record<string, string | undefined>;

const TLS_FILES = [
  {
    field: 'clientCert',
    what: 'TLS client certificate',
    env: 'TEMPORAL_TLS_CLIENT_CERT_PATH',
    toml: 'client_cert_path',
  },
  { field: 'clientKey', what: 'TLS client key', env: 'TEMPORAL_TLS_CLIENT_KEY_PATH', toml: 'client_key_path' },
  {
    field: 'serverCACert',
    what: 'TLS server CA certificate',
    env: 'TEMPORAL_TLS_SERVER_CA_CERT_PATH',
    toml: 'server_ca_cert_path',
  },
] as const;

/** Reads the connection settings; every problem is one sentence naming the file or variable. */
export async function loadTemporalTarget(env: Env = process.env): Promise<TemporalTarget> {
  const vars = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
  const configFile = env.TEMPORAL_CONFIG_FILE ?? defaultConfigFile(env);
  const profileName = env.TEMPORAL_PROFILE ?? 'default';
  // Without a config file or any TEMPORAL_* setting beyond these two, envconfig would say just this:
  // `status` is spared loading it (and its TOML parser) before its first TCP probe.
  const plain = Object.keys(vars).every((k) => !k.startsWith('TEMPORAL_') || PLAIN_VARS.has(k));
  if (plain && !fs.existsSync(configFile))
    return targetOf({ address: env.TEMPORAL_ADDRESS, namespace: env.TEMPORAL_NAMESPACE }, {});
  const envconfig = await import('@temporalio/envconfig');
  let profile: ClientConfigProfile;
  try {
    profile = envconfig.loadClientConfigProfile({ overrideEnvVars: vars });
  } catch (err) {
    throw new Error(messages.temporalConfigUnreadable(configFile, profileName, (err as Error).message));
  }
  checkTlsFiles(profile, env, configFile, profileName);
  const { connectionOptions } = envconfig.toClientOptions(profile);
  const extra: Omit<TemporalConnectionOptions, 'address'> = {};
  if (connectionOptions.apiKey !== undefined) extra.apiKey = connectionOptions.apiKey;
  if (connectionOptions.tls !== undefined && connectionOptions.tls !== null) extra.tls = connectionOptions.tls;
  if (profile.grpcMeta) extra.metadata = profile.grpcMeta;
  return targetOf(profile, extra);
}

const PLAIN_VARS = new Set(['TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE']);

function targetOf(
  profile: { address?: string | undefined; namespace?: string | undefined },
  extra: Omit<TemporalConnectionOptions, 'address'>,
): TemporalTarget {
  const address = profile.address ?? DEFAULT_TEMPORAL_ADDRESS;
  const namespace = profile.namespace ?? DEFAULT_TEMPORAL_NAMESPACE;
  const options: TemporalConnectionOptions = { address, ...extra };
  return {
    address,
    namespace,
    external: profile.address !== undefined,
    connectionOptions: options,
    summary: summaryOf(address, namespace, options),
  };
}

/** Where envconfig looks on Linux and macOS when TEMPORAL_CONFIG_FILE is not set. */
function defaultConfigFile(env: Env): string {
  const base =
    os.platform() === 'darwin'
      ? path.join(env.HOME ?? os.homedir(), 'Library', 'Application Support')
      : (env.XDG_CONFIG_HOME ?? path.join(env.HOME ?? os.homedir(), '.config'));
  return path.join(base, 'temporalio', 'temporal.toml');
}

/** A TLS file that cannot be read is named with the variable or profile field it came from. */
function checkTlsFiles(profile: ClientConfigProfile, env: Env, configFile: string, profileName: string): void {
  const tls = profile.tls;
  if (!tls || tls.disabled) return;
  for (const f of TLS_FILES) {
    const source: ConfigDataSource | undefined = tls[f.field];
    if (!source || !('path' in source)) continue;
    const from = env[f.env] === source.path ? f.env : `${configFile} profile "${profileName}" tls.${f.toml}`;
    try {
      fs.accessSync(source.path, fs.constants.R_OK);
      if (!fs.statSync(source.path).isFile()) throw new Error('not a regular file');
    } catch (err) {
      const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
      throw new Error(messages.temporalTlsFileUnreadable(f.what, source.path, from, why));
    }
  }
  if (!!tls.clientCert !== !!tls.clientKey)
    throw new Error(messages.temporalTlsPairIncomplete(tls.clientCert ? 'certificate' : 'key'));
}

function summaryOf(address: string, namespace: string, o: TemporalConnectionOptions): string {
  const parts = [`namespace ${namespace}`];
  if (o.tls) parts.push(typeof o.tls === 'object' && o.tls.clientCertPair ? 'TLS with a client certificate' : 'TLS');
  if (o.apiKey !== undefined) parts.push('API key set');
  return `${address} (${parts.join(', ')})`;
}

/** gRPC status codes the connect and preflight errors are told apart by. */
export const GRPC = { NOT_FOUND: 5, ALREADY_EXISTS: 6, PERMISSION_DENIED: 7, UNIMPLEMENTED: 12, UNAUTHENTICATED: 16 };

/** The gRPC status code of a Temporal service error, if it is one. */
export function grpcCodeOf(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}
