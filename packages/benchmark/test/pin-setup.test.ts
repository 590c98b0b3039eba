import { describe, expect, it } from 'vitest';
import { acceptUnits, changedSetup, describeUnitChange, jobSchema } from '@assay/core';
import { pinSetup } from '../src/pin-setup.js';

const spec = (over: Record<string, unknown>) =>
  jobSchema.parse({
    schema: 'assay.job/v1',
    id: 'j',
    benchmark: 'b',
    systems: [
      {
        id: 'a',
        harness: 'claude-code',
        model: 'claude-sonnet-4-5',
        settings: { effort: 'high', prompt: 'x'.repeat(80) },
      },
      { id: 'b', harness: 'oracle' },
    ],
    ...over,
  });

describe('pinSetup', () => {
  it('keeps short values as they are and hashes long ones; judge pacing is not pinned', () => {
    const pin = pinSetup(spec({ judge: { mode: 'per-item', provider: 'openai', model: 'gpt-5', batchSize: 4 } }));
    expect(pin.systems.a).toMatchObject({
      harness: 'claude-code',
      model: 'claude-sonnet-4-5',
      'settings.effort': 'high',
    });
    expect(pin.systems.a?.['settings.prompt']).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(pin.conditions['judge.mode']).toBe('per-item');
    expect(pin.conditions['judge.batchSize']).toBeUndefined();
    expect(pin.conditions['resources.cpus']).toBe('2');
    expect(pin.conditions['limits.agentSeconds']).toBe('14400');
  });

  it('names every changed field of a system under the same id and of the conditions; new systems extend', () => {
    const lock = acceptUnits(null, { jobId: 'j', specDigest: 'd', units: {}, setup: pinSetup(spec({})) }, 'then');
    const next = spec({
      systems: [
        { id: 'a', harness: 'claude-code', model: 'claude-opus-4-1', settings: { prompt: 'y'.repeat(80) } },
        { id: 'b', harness: 'oracle' },
        { id: 'c', harness: 'nop' },
      ],
      judge: { mode: 'per-item', provider: 'openai', model: 'gpt-5', concurrency: 2 },
    });
    expect(changedSetup(lock, pinSetup(next)).map(describeUnitChange)).toMatchInlineSnapshot(`
      [
        "systems/a: model claude-sonnet-4-5 → claude-opus-4-1; settings.effort removed; settings.prompt changed",
        "job: judge.mode checks-only → per-item; judge.model added; judge.provider added",
      ]
    `);
    // Pacing alone is not a change; a lock made before systems were pinned pins them at the next run.
    expect(changedSetup(lock, pinSetup(spec({ judge: { concurrency: 1 } })))).toEqual([]);
    const old = acceptUnits(null, { jobId: 'j', specDigest: 'd', units: {} }, 'then');
    expect(old.systems).toBeUndefined();
    expect(changedSetup(old, pinSetup(next))).toEqual([]);
    // A removed system keeps its pin, so it cannot come back changed.
    const extended = acceptUnits(
      lock,
      { jobId: 'j', specDigest: 'e', units: {}, setup: pinSetup(spec({ systems: [{ id: 'c', harness: 'nop' }] })) },
      'now',
    );
    expect(Object.keys(extended.systems ?? {}).sort()).toEqual(['a', 'b', 'c']);
  });
});
