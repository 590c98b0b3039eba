// What a system's harness needs that the job schema cannot say, checked before any container starts:
// the rules @assay/harnesses (prepareHarnessRun, the command harness) and the scripted-agent image
// apply at run time, where a mistake would surface only after the job was submitted.
// test/harness-agreement.test.ts holds these rules to the harnesses' own HarnessConfigError checks.
import { COMMAND_PLACEHOLDERS, MODEL_APIS, SCRIPTED_AGENTS, isModelHarness, isScriptedAgent } from '@assay/core';
import { records, rec, str, type Path, type Raw } from './loose.js';
import { messages } from './messages.js';
import type { YamlFile } from './yaml-file.js';

export { COMMAND_PLACEHOLDERS, MODEL_APIS } from '@assay/core';

export const isHttpUrl = (x: string): boolean => /^https?:\/\/[^/\s]/i.test(x);

const nonEmpty = (x: unknown): boolean => typeof x === 'string' && x.trim() !== '';

export function checkSystems(file: YamlFile, raw: Raw): void {
  for (const { item, index } of records(raw.systems)) {
    const at: Path = ['systems', index];
    const harness = str(item.harness) ?? '';
    const settings = rec(item.settings) ?? {};
    if (harness === 'scripted' && !isScriptedAgent(settings.agent))
      file.report([...at, 'settings', 'agent'], messages.unknownScriptedAgent(SCRIPTED_AGENTS));
    if (isModelHarness(harness) && !nonEmpty(item.model)) file.report([...at, 'model'], messages.modelMissing(harness));
    if (harness === 'command') checkCommand(file, at, settings);
    if (isModelHarness(harness) || harness === 'command') checkRoute(file, [...at, 'settings'], settings);
  }
}

function checkCommand(file: YamlFile, at: Path, settings: Raw): void {
  for (const key of ['image', 'command'] as const)
    if (!nonEmpty(settings[key])) file.report([...at, 'settings', key], messages.commandSettingMissing(key));
  const template = str(settings.command) ?? '';
  for (const [, name] of template.matchAll(/\{([a-z_]+)\}/g))
    if (name !== undefined && !(COMMAND_PLACEHOLDERS as readonly string[]).includes(name))
      file.report([...at, 'settings', 'command'], messages.unknownPlaceholder(name, COMMAND_PLACEHOLDERS));
}

/** The model route: a known wire protocol, an http(s) base URL, a key variable given by name. */
function checkRoute(file: YamlFile, at: Path, settings: Raw): void {
  const { api, baseUrl, apiKeyEnv } = settings;
  if (api !== undefined && !(MODEL_APIS as readonly unknown[]).includes(api))
    file.report([...at, 'api'], messages.unknownApi(MODEL_APIS));
  if (baseUrl !== undefined && !(typeof baseUrl === 'string' && isHttpUrl(baseUrl)))
    file.report([...at, 'baseUrl'], messages.notHttpUrl);
  if (apiKeyEnv !== undefined && typeof apiKeyEnv !== 'string') file.report([...at, 'apiKeyEnv'], messages.envNameType);
}
