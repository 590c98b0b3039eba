// Judge setups from files (`assay judge JOB --judge other.yaml`): either a bare judge setup or
// a document with a `judge:` key (so a job file works too).
import { readFile } from 'node:fs/promises';
import { judgeSetupSchema, type JudgeSetup } from '@assay/core';
import { parse as parseYaml } from 'yaml';
import { messages } from './messages.js';

export function parseJudgeSetup(raw: unknown, where = '(object)'): JudgeSetup {
  const doc = raw && typeof raw === 'object' && 'judge' in raw ? (raw as { judge: unknown }).judge : raw;
  const r = judgeSetupSchema.safeParse(doc ?? {});
  if (!r.success)
    throw new Error(
      messages.setupInvalid(
        where,
        r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '),
      ),
    );
  return r.data;
}

export async function loadJudgeSetupFile(path: string): Promise<JudgeSetup> {
  return parseJudgeSetup(parseYaml(await readFile(path, 'utf8')), path);
}
