import { describe, expect, it } from 'vitest';
import {
  HARNESS_NAMES,
  MODEL_HARNESSES,
  SCRIPTED_AGENTS,
  SCRIPTED_HARNESSES,
  isModelHarness,
  isScriptedAgent,
  isScriptedHarness,
  systemSchema,
} from '../src/index.js';

describe('harness names', () => {
  it('are scripted instruments, command and the model CLIs, each once', () => {
    expect(new Set(HARNESS_NAMES).size).toBe(HARNESS_NAMES.length);
    expect([...HARNESS_NAMES].sort()).toEqual([...SCRIPTED_HARNESSES, 'command', ...MODEL_HARNESSES].sort());
    expect(HARNESS_NAMES.filter(isModelHarness)).toEqual([...MODEL_HARNESSES]);
    expect(HARNESS_NAMES.filter(isScriptedHarness)).toEqual([...SCRIPTED_HARNESSES]);
  });

  it('are exactly what a job system may name', () => {
    for (const harness of HARNESS_NAMES) expect(systemSchema.safeParse({ id: 's', harness }).success).toBe(true);
    for (const harness of ['claude', 'Oracle', 'missing-deliverable', ''])
      expect(systemSchema.safeParse({ id: 's', harness }).success).toBe(false);
  });

  it('tell scripted agents from anything else', () => {
    expect(SCRIPTED_AGENTS.every(isScriptedAgent)).toBe(true);
    expect(isScriptedAgent('scripted')).toBe(false);
    expect(isScriptedAgent(3)).toBe(false);
  });
});
