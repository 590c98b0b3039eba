// Harbor 0.20's multi-step tasks in task.toml (StepConfig and MultiStepRewardStrategy of
// harbor/models/task/config.py): `[[steps]]` with name, per-step [agent] / [verifier] overrides and min_reward,
// and `multi_step_reward_strategy` (mean, the default, or final). A step's files are in steps/<name>/ (the
// loader checks them); what assay cannot honour per step is an error that says so.
import { harborMessages as m } from './harbor-messages.js';
import type { HarborMultiStepStrategy, HarborStepConfig } from './harbor-task.js';
import { readArtifacts, readCollect, readVerifierMode } from './read-artifacts.js';
import { readHealthcheck } from './read-healthcheck.js';
import {
  AGENT_KEYS,
  VERIFIER_KEYS,
  isTable,
  readEnvironment,
  type ConfigReader,
  type Table,
} from './read-task-config.js';

const STEP_KEYS = ['name', 'agent', 'verifier', 'min_reward', 'healthcheck', 'artifacts'];
/** Harbor's VerifierConfig default, which a step's verifier has whatever the task's [verifier] says. */
const STEP_VERIFIER_SECONDS = 600;

export function readSteps(
  r: ConfigReader,
  root: Table,
): { steps: HarborStepConfig[] | null; multiStepRewardStrategy: HarborMultiStepStrategy | null } {
  const strategy = readStrategy(r, root.multi_step_reward_strategy);
  const raw = root.steps;
  if (raw === undefined) {
    if (strategy !== null) r.error('multi_step_reward_strategy', m.strategyWithoutSteps);
    return { steps: null, multiStepRewardStrategy: null };
  }
  if (!Array.isArray(raw) || raw.length === 0 || !raw.every(isTable)) {
    r.error('steps', m.stepsNotTables);
    return { steps: null, multiStepRewardStrategy: strategy };
  }
  const seen = new Set<string>();
  const steps = raw.flatMap((t, i) => {
    const step = readStep(r, t, `steps[${i}]`);
    if (step === null) return [];
    if (seen.has(step.name)) r.error(`steps[${i}].name`, m.stepNameRepeated(step.name));
    seen.add(step.name);
    return [step];
  });
  return { steps, multiStepRewardStrategy: strategy ?? 'mean' };
}

function readStrategy(r: ConfigReader, v: unknown): HarborMultiStepStrategy | null {
  if (v === undefined || v === null) return null;
  if (v === 'mean' || v === 'final') return v;
  r.error('multi_step_reward_strategy', m.badStrategy(v));
  return null;
}

function readStep(r: ConfigReader, t: Table, at: string): HarborStepConfig | null {
  r.unknown(t, at, STEP_KEYS);
  const name = t.name;
  if (typeof name !== 'string' || name === '') {
    r.error(`${at}.name`, m.stepNameRequired(name));
    return null;
  }
  if (!/^[A-Za-z0-9_][A-Za-z0-9._-]*$/.test(name)) r.error(`${at}.name`, m.badStepName(name));
  const agent = r.table(t, 'agent', `${at}.agent`);
  const verifier = r.table(t, 'verifier', `${at}.verifier`);
  r.unknown(agent, `${at}.agent`, AGENT_KEYS);
  r.unknown(verifier, `${at}.verifier`, VERIFIER_KEYS);
  // A step's own verifier environment (its mode is Harbor's per-step resolution: readVerifierMode).
  const environment = isTable(verifier.environment)
    ? readEnvironment(r, verifier.environment, `${at}.verifier.environment`)
    : null;
  if (verifier.environment !== undefined && !isTable(verifier.environment))
    r.error(`${at}.verifier.environment`, m.notATable);
  if (environment?.healthcheck) r.warn(`${at}.verifier.environment.healthcheck`, m.verifierHealthcheckUnused);
  // A phase's own network policy, read as the task's [agent] / [verifier] one (Harbor's PhaseNetworkPolicyConfig).
  const agentMode = r.network(agent, `${at}.agent`);
  const verifierMode = r.network(verifier, `${at}.verifier`);
  return {
    name,
    agent: {
      timeoutSec: r.seconds(agent, `${at}.agent`, 'timeout_sec'),
      user: r.text(agent, `${at}.agent`, 'user'),
      networkMode: agentMode,
      allowedHosts: r.allowedHosts(agent, `${at}.agent`, agentMode, true),
    },
    verifier: {
      timeoutSec: r.seconds(verifier, `${at}.verifier`, 'timeout_sec') ?? STEP_VERIFIER_SECONDS,
      user: r.text(verifier, `${at}.verifier`, 'user'),
      networkMode: verifierMode,
      allowedHosts: r.allowedHosts(verifier, `${at}.verifier`, verifierMode, true),
      env: r.env(verifier, `${at}.verifier`),
      mode: readVerifierMode(r, verifier, `${at}.verifier`),
      environment,
    },
    minReward: readMinReward(r, t.min_reward, `${at}.min_reward`),
    healthcheck: readHealthcheck(r, t.healthcheck, `${at}.healthcheck`),
    artifacts: readArtifacts(r, t.artifacts, `${at}.artifacts`),
    collect: readCollect(r, verifier.collect, `${at}.verifier.collect`),
  };
}

/** A number gates on `reward`; a table gates on each named reward. */
function readMinReward(r: ConfigReader, v: unknown, field: string): HarborStepConfig['minReward'] {
  if (v === undefined || v === null) return null;
  const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
  if (finite(v)) return v;
  if (isTable(v) && Object.keys(v).length > 0) {
    const out: Record<string, number> = {};
    for (const [k, x] of Object.entries(v))
      if (finite(x)) out[k] = x;
      else r.error(`${field}.${k}`, m.minRewardNotANumber(x));
    return out;
  }
  r.error(field, m.badMinReward(v));
  return null;
}
