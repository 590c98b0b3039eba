// Every CLI harness adapter, by harness name: exactly core's MODEL_HARNESSES (the
// `satisfies` below fails to compile when one is missing or an extra one appears).
import { isModelHarness, type ModelHarness } from '@assay/core';
import type { HarnessAdapter } from '../harness-adapter.js';
import { claudeCode } from './claude-code.js';
import { codex } from './codex.js';
import { geminiCli } from './gemini-cli.js';
import { hermes } from './hermes.js';
import { kimiCli } from './kimi-cli.js';
import { nanobot } from './nanobot.js';
import { qwenCode } from './qwen-code.js';

export const ADAPTERS = {
  'claude-code': claudeCode,
  codex,
  'gemini-cli': geminiCli,
  'qwen-code': qwenCode,
  'kimi-cli': kimiCli,
  nanobot,
  hermes,
} as const satisfies Record<ModelHarness, HarnessAdapter>;

export type CliHarness = ModelHarness;

export function isCliHarness(name: string): name is CliHarness {
  return isModelHarness(name);
}
