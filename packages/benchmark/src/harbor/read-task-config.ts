// task.toml as Harbor 0.20's TaskConfig reads it (field names and defaults from harbor/models/task/config.py):
// what assay honours is returned typed; what it cannot honour is an issue that says so ("not supported yet");
// fields Harbor 0.20 does not define are kept in `config` and reported as warnings, never dropped.
import { parse, TomlError } from 'smol-toml';
import { MAX_LIMIT_SECONDS } from '@assay/core';
import type { Issue } from '../issue.js';
import { normalizeAllowedHosts } from './allowed-hosts.js';
import { harborMessages as m } from './harbor-messages.js';
import type { HarborNetworkMode, HarborTaskConfig } from './harbor-task.js';
import { readArtifacts, readCollect, readVerifierMode } from './read-artifacts.js';
import { readHealthcheck } from './read-healthcheck.js';
import { readMcpServers, readSkillsDir } from './read-mcp-servers.js';
import { readSteps } from './read-step-config.js';

export type Table = Record<string, unknown>;

/** AgentConfig's and VerifierConfig's fields: a task's [agent] / [verifier], and a step's (the same models). */
export const AGENT_KEYS = ['timeout_sec', 'user', 'network_mode', 'allowed_hosts'] as const;
export const VERIFIER_KEYS = [
  'timeout_sec',
  'env',
  'user',
  'environment_mode',
  'environment',
  'collect',
  'network_mode',
  'allowed_hosts',
] as const;

/** Harbor 0.20's fields per section; anything else is unknown. */
const KNOWN: Record<string, readonly string[]> = {
  '': [
    'schema_version',
    'version',
    'task',
    'metadata',
    'verifier',
    'agent',
    'environment',
    'solution',
    'source',
  ].concat(['multi_step_reward_strategy', 'steps', 'artifacts']),
  task: ['name', 'description', 'authors', 'keywords'],
  agent: AGENT_KEYS,
  verifier: VERIFIER_KEYS,
  environment: [
    'build_timeout_sec',
    'docker_image',
    'os',
    'cpus',
    'memory_mb',
    'storage_mb',
    'gpus',
    'gpu_types',
  ].concat(
    ['tpu', 'mcp_servers', 'env', 'skills_dir', 'healthcheck', 'workdir', 'allow_internet', 'network_mode'],
    ['allowed_hosts', 'memory', 'storage'],
  ),
  solution: ['env'],
};

/** Present and not empty: an unsupported feature only matters when the task uses it. */
const used = (v: unknown): boolean =>
  v !== undefined && v !== null && v !== false && !(Array.isArray(v) && v.length === 0) && v !== 0;

export const isTable = (v: unknown): v is Table => typeof v === 'object' && v !== null && !Array.isArray(v);

export class ConfigReader {
  constructor(
    private readonly file: string,
    readonly issues: Issue[],
    readonly warnings: Issue[],
  ) {}
  error(field: string, reason: string): void {
    this.issues.push({ file: this.file, field, reason });
  }
  warn(field: string, reason: string): void {
    this.warnings.push({ file: this.file, field, reason });
  }
  table(root: Table, key: string, field = key): Table {
    const v = root[key];
    if (v === undefined) return {};
    if (isTable(v)) return v;
    this.error(field, m.notATable);
    return {};
  }
  seconds(t: Table, section: string, key: string): number | null {
    const v = t[key];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) this.error(`${section}.${key}`, m.positiveSeconds(v));
    // Harbor allows any float; a task limit beyond the longest job limit cannot be honoured.
    else if (v > MAX_LIMIT_SECONDS) this.error(`${section}.${key}`, m.tooManySeconds(v, MAX_LIMIT_SECONDS));
    else return v;
    return null;
  }
  count(t: Table, section: string, key: string): number | null {
    const v = t[key];
    if (v === undefined || v === null) return null;
    if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
    this.error(`${section}.${key}`, m.positiveInteger(v));
    return null;
  }
  text(t: Table, section: string, key: string): string | null {
    const v = t[key];
    if (v === undefined || v === null) return null;
    if (typeof v === 'string' && v.length > 0) return v;
    if (typeof v === 'number' && key === 'user' && Number.isInteger(v)) return String(v);
    this.error(`${section}.${key}`, m.notAString(v));
    return null;
  }
  env(t: Table, section: string): Record<string, string> {
    const v = t.env;
    if (v === undefined) return {};
    if (!isTable(v)) {
      this.error(`${section}.env`, m.envNotATable);
      return {};
    }
    const out: Record<string, string> = {};
    for (const [k, value] of Object.entries(v)) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) this.error(`${section}.env.${k}`, m.badEnvName);
      else if (typeof value !== 'string') this.error(`${section}.env.${k}`, m.envNotAString(value));
      else out[k] = value;
    }
    return out;
  }
  network(t: Table, section: string): HarborNetworkMode | null {
    const v = t.network_mode;
    if (v === undefined || v === null) return null;
    if (v === 'no-network' || v === 'public' || v === 'allowlist') return v;
    this.error(`${section}.network_mode`, m.badNetworkMode(v));
    return null;
  }
  /**
   * allowed_hosts, normalized as Harbor does; only with network_mode = "allowlist" (a phase's list needs the
   * phase's own mode, as Harbor's PhaseNetworkPolicyConfig; the environment's may be empty under another mode).
   */
  allowedHosts(t: Table, section: string, mode: HarborNetworkMode | null, phase: boolean): string[] {
    const v = t.allowed_hosts;
    const field = `${section}.allowed_hosts`;
    if (v === undefined) return [];
    if (!Array.isArray(v) || v.some((h) => typeof h !== 'string')) {
      this.error(field, m.hostsNotStrings(v));
      return [];
    }
    const hosts = v as string[];
    if (mode !== 'allowlist' && (phase || hosts.length > 0)) this.error(field, m.hostsWithoutAllowlist);
    const normalized = normalizeAllowedHosts(hosts);
    if ('reason' in normalized) {
      this.error(field, normalized.reason);
      return [];
    }
    return normalized.hosts;
  }
  unsupported(t: Table, section: string, keys: readonly string[]): void {
    for (const k of keys) if (used(t[k])) this.error(section ? `${section}.${k}` : k, m.notSupportedYet(k));
  }
  unknown(t: Table, section: string, known: readonly string[] = KNOWN[section] ?? []): void {
    for (const k of Object.keys(t))
      if (!known.includes(k)) this.warn(section ? `${section}.${k}` : k, m.unknownField(section));
  }
}

export function readTaskConfig(
  text: string,
  file: string,
): { config: HarborTaskConfig | null; issues: Issue[]; warnings: Issue[]; hasSteps?: boolean } {
  const r = new ConfigReader(file, [], []);
  let root: Table;
  try {
    root = parse(text) as Table;
  } catch (err) {
    const where = err instanceof TomlError ? ` (line ${err.line}, column ${err.column})` : '';
    r.error('', m.tomlSyntax(`${(err as Error).message.split('\n')[0] ?? ''}${where}`));
    return { config: null, issues: r.issues, warnings: r.warnings };
  }
  const config = readSections(r, root);
  const ok = r.issues.length === 0;
  // Whether the task means to be multi-step even when its config has problems (its files are then the steps').
  return { config: ok ? config : null, issues: r.issues, warnings: r.warnings, hasSteps: root.steps !== undefined };
}

function readSections(r: ConfigReader, root: Table): HarborTaskConfig {
  r.unknown(root, '');
  const task = r.table(root, 'task');
  const agent = r.table(root, 'agent');
  const verifier = r.table(root, 'verifier');
  const solution = r.table(root, 'solution');
  for (const [name, t] of Object.entries({ task, agent, verifier, solution })) r.unknown(t, name);
  const mode = readVerifierMode(r, verifier, 'verifier') ?? 'shared';
  const verifierEnvironment = isTable(verifier.environment)
    ? readEnvironment(r, verifier.environment, 'verifier.environment')
    : null;
  if (verifier.environment !== undefined && !isTable(verifier.environment))
    r.error('verifier.environment', m.notATable);
  const steps = readSteps(r, root);
  if (verifierEnvironment?.healthcheck) r.warn('verifier.environment.healthcheck', m.verifierHealthcheckUnused);
  const agentMode = r.network(agent, 'agent');
  const verifierMode = r.network(verifier, 'verifier');
  const version = root.schema_version ?? root.version ?? '1.3';
  if (typeof version !== 'string')
    r.error(root.schema_version === undefined ? 'version' : 'schema_version', m.notAString(version));
  const name = r.text(task, 'task', 'name');
  if (root.task !== undefined && name === null && task.name === undefined) r.error('task.name', m.nameRequired);
  if (name !== null && !/^[A-Za-z0-9_-][A-Za-z0-9._-]*\/[A-Za-z0-9._-]+$/.test(name))
    r.error('task.name', m.badName(name));
  const config: HarborTaskConfig = {
    schemaVersion: typeof version === 'string' ? version : '1.3',
    name,
    agent: {
      timeoutSec: r.seconds(agent, 'agent', 'timeout_sec'),
      user: r.text(agent, 'agent', 'user'),
      networkMode: agentMode,
      allowedHosts: r.allowedHosts(agent, 'agent', agentMode, true),
    },
    verifier: {
      timeoutSec: r.seconds(verifier, 'verifier', 'timeout_sec') ?? 600,
      user: r.text(verifier, 'verifier', 'user'),
      networkMode: verifierMode,
      allowedHosts: r.allowedHosts(verifier, 'verifier', verifierMode, true),
      env: r.env(verifier, 'verifier'),
      mode,
      environment: verifierEnvironment,
      collect: readCollect(r, verifier.collect, 'verifier.collect'),
    },
    artifacts: readArtifacts(r, root.artifacts, 'artifacts'),
    environment: readEnvironment(r, r.table(root, 'environment')),
    solution: { env: r.env(solution, 'solution') },
    ...steps,
    config: root,
  };
  return config;
}

export function readEnvironment(r: ConfigReader, env: Table, section = 'environment'): HarborTaskConfig['environment'] {
  r.unknown(env, section, KNOWN.environment);
  r.unsupported(env, section, ['gpus', 'gpu_types', 'tpu']);
  if (env.os !== undefined && String(env.os).toLowerCase() !== 'linux')
    r.error(`${section}.os`, m.osNotSupported(env.os));
  let network = r.network(env, section);
  // Harbor's deprecated allow_internet applies only where network_mode is not set.
  if (env.allow_internet !== undefined) {
    if (typeof env.allow_internet !== 'boolean')
      r.error(`${section}.allow_internet`, m.notABoolean(env.allow_internet));
    else {
      r.warn(`${section}.allow_internet`, m.allowInternetDeprecated);
      if (env.network_mode === undefined) network = env.allow_internet ? 'public' : 'no-network';
    }
  }
  return {
    buildTimeoutSec: r.seconds(env, section, 'build_timeout_sec') ?? 600,
    dockerImage: r.text(env, section, 'docker_image'),
    cpus: r.count(env, section, 'cpus'),
    memoryMb: sizeMb(r, env, 'memory', section),
    storageMb: sizeMb(r, env, 'storage', section),
    networkMode: network ?? 'public',
    allowedHosts: r.allowedHosts(env, section, network ?? 'public', false),
    env: r.env(env, section),
    workdir: r.text(env, section, 'workdir'),
    healthcheck: readHealthcheck(r, env.healthcheck, `${section}.healthcheck`),
    skillsDir: readSkillsDir(r, env, section),
    mcpServers: readMcpServers(r, env.mcp_servers, `${section}.mcp_servers`),
  };
}

/** `memory_mb`, or Harbor's deprecated `memory = "2G"` (G, M, K suffixes), refused when they disagree. */
function sizeMb(r: ConfigReader, env: Table, key: 'memory' | 'storage', section: string): number | null {
  const mb = r.count(env, section, `${key}_mb`);
  const legacy = env[key];
  if (legacy === undefined) return mb;
  const match = typeof legacy === 'string' ? /^\s*([0-9]*\.?[0-9]+)\s*([GMK])\s*$/i.exec(legacy) : null;
  if (!match) {
    r.error(`${section}.${key}`, m.badSize(legacy));
    return mb;
  }
  const factor = { G: 1024, M: 1, K: 1 / 1024 }[(match[2] ?? 'M').toUpperCase() as 'G' | 'M' | 'K'];
  const parsed = Math.trunc(Number(match[1]) * factor);
  r.warn(`${section}.${key}`, m.legacySize(key));
  if (mb !== null && mb !== parsed) r.error(`${section}.${key}`, m.conflictingSize(key, legacy, parsed, mb));
  return mb ?? parsed;
}
