// The bounds a user can set in more than one way are stated once (src/bounds.ts): the job schema
// refuses just outside them and takes their ends, as the workflow and the CLI do.
import { describe, expect, it } from 'vitest';
import { CONCURRENCY_BOUNDS, MAX_LIMIT_SECONDS, jobSchema } from '../src/index.js';

const base = { schema: 'assay.job/v1', id: 'j', benchmark: '.', systems: [{ id: 'a', harness: 'oracle' }] };
const issuesOf = (extra: Record<string, unknown>) => {
  const r = jobSchema.safeParse({ ...base, ...extra });
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('bounds', () => {
  it('concurrency: 1 to 1000, whole numbers', () => {
    expect(CONCURRENCY_BOUNDS).toEqual({ min: 1, max: 1000 });
    expect(issuesOf({ concurrency: 0 })).toEqual(['concurrency: Too small: expected number to be >=1']);
    expect(issuesOf({ concurrency: 1001 })).toEqual(['concurrency: Too big: expected number to be <=1000']);
    expect(issuesOf({ concurrency: 2.5 })).toHaveLength(1);
    for (const ok of [1, 1000]) expect(issuesOf({ concurrency: ok })).toEqual([]);
  });

  it('the agent and verifier limits: at most 7 days', () => {
    expect(MAX_LIMIT_SECONDS).toBe(604_800);
    for (const key of ['agentSeconds', 'verifierSeconds']) {
      expect(issuesOf({ limits: { [key]: MAX_LIMIT_SECONDS } })).toEqual([]);
      expect(issuesOf({ limits: { [key]: MAX_LIMIT_SECONDS + 1 } })).toEqual([
        `limits.${key}: Too big: expected number to be <=604800`,
      ]);
    }
  });
});
