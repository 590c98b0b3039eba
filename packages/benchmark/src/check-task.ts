// Cross-file rules of a task that a schema alone cannot express: ids unique and matching the folder,
// checks reading declared outputs they can read, reference files present.
import path from 'node:path';
import { checkReferenceFiles } from './check-reference-files.js';
import { declaredOutputs } from './declared-outputs.js';
import { records, str, type Raw } from './loose.js';
import { messages } from './messages.js';
import { reportDuplicates } from './report-duplicates.js';
import { validateCheck, type Declared } from './validate-check.js';
import type { YamlFile } from './yaml-file.js';

export interface TaskFiles {
  root: string;
  dir: string;
  spec: YamlFile | null;
  rubric: YamlFile | null;
  labelOf: (p: string) => string;
}

export function checkTask(ctx: TaskFiles): void {
  let declared: Declared | null = null;
  if (ctx.spec) {
    const raw = ctx.spec.raw as Raw;
    const id = str(raw.id);
    const folder = path.basename(ctx.dir);
    if (id !== undefined && id !== folder) ctx.spec.report(['id'], messages.idMismatch(id, folder));
    const outputs = records(raw.outputs);
    reportDuplicates(
      ctx.spec,
      outputs.flatMap(({ item, index }) => {
        const p = str(item.path);
        return p === undefined ? [] : [{ id: p, at: ['outputs', index] }];
      }),
      'output path',
    );
    declared = declaredOutputs([outputs]);
  }
  const rubric = ctx.rubric;
  if (!rubric) return;
  const items = records((rubric.raw as Raw).items);
  reportDuplicates(
    rubric,
    items.flatMap(({ item, index }) => {
      const id = str(item.id);
      return id === undefined ? [] : [{ id, at: ['items', index] }];
    }),
    'rubric item id',
  );
  for (const { item, index } of items)
    if (item.check !== undefined) validateCheck(rubric, ['items', index, 'check'], item.check, declared);
  checkReferenceFiles(rubric, ctx.root, path.join(ctx.dir, 'evaluator', 'reference'), ctx.labelOf);
}
