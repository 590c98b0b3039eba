// The architecture rule: workflow code stays deterministic, so it may not import
// Node built-ins, Docker or model SDKs (only types from activities).
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/e2e.js';

const eslint = new ESLint({ cwd: ROOT });

async function problems(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}/${filePath}` });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('workflows lint rule', () => {
  it.each([
    ["import { readFileSync } from 'node:fs';", 'no Node built-ins'],
    ["import path from 'path';", 'no Node built-ins'],
    ["import Docker from 'dockerode';", 'Docker belongs in activities/'],
    ["import OpenAI from 'openai';", 'Model SDKs belong in activities/'],
    ["import { createTrialActivities } from '@assay/activities';", 'Workflows import activities as types only'],
    ["import { hostQueue } from '@assay/core';", 'Workflows import @assay/core/pure'],
    ["import type { TrialRecord } from '@assay/core';", 'Workflows import @assay/core/pure'],
  ])('rejects %s in workflows/', async (code, message) => {
    const found = await problems(`${code}\nexport const x = 1;\n`, 'workflows/src/probe.ts');
    expect(found.join(' ')).toContain(message);
  });

  it('allows type-only imports of activities, @assay/core/pure, and the same imports outside workflows/', async () => {
    expect(
      await problems(
        "import type { TrialActivities } from '@assay/activities';\nexport type X = TrialActivities;\n",
        'workflows/src/probe.ts',
      ),
    ).toEqual([]);
    expect(
      await problems(
        "import { hostQueue, type TrialRecord } from '@assay/core/pure';\nexport type X = TrialRecord;\nexport const q = hostQueue;\n",
        'workflows/src/probe.ts',
      ),
    ).toEqual([]);
    expect(
      await problems(
        "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n",
        'activities/src/probe.ts',
      ),
    ).toEqual([]);
  });
});
