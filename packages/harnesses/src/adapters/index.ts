// Every CLI harness adapter, by harness name.
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
} as const satisfies Record<string, HarnessAdapter>;

export type CliHarness = keyof typeof ADAPTERS;

export function isCliHarness(name: string): name is CliHarness {
  return Object.hasOwn(ADAPTERS, name);
}
