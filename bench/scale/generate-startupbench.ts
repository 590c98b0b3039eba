// A StartupBench-sized benchmark made from the sample's six tasks (issue #14 part 5): N tasks,
// each a copy of one sample task under its own id (inputs, reference and flawed deliverables
// are the sample's real office files, made by the dataset generator's producers), with its
// rubric grown to a fixed number of items by repeating the task's own items under new ids.
// A repeated item keeps its check, or its lack of one, so the share of items left to the judge
// is the sample's (~44 %); every item's text names its task, so no two tasks share a verdict.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';

const SAMPLE = path.resolve(import.meta.dirname, '../../datasets/sample');

interface RubricItem {
  id: string;
  text: string;
  check?: unknown;
  [field: string]: unknown;
}

export interface GeneratedBenchmark {
  dir: string;
  taskIds: string[];
  items: number;
  /** Items with a deterministic check, over all tasks. */
  checked: number;
}

/** Writes the benchmark under `dir` (replacing it) and returns its task ids. */
export function generateStartupBench(dir: string, opts: { tasks: number; items: number }): GeneratedBenchmark {
  rmSync(dir, { recursive: true, force: true });
  const index = parse(readFileSync(path.join(SAMPLE, 'benchmark.yaml'), 'utf8')) as { tasks: string[] };
  const taskIds: string[] = [];
  let checked = 0;
  for (let n = 0; n < opts.tasks; n++) {
    const base = index.tasks[n % index.tasks.length]!;
    const id = `${base}-${String(n + 1).padStart(3, '0')}`;
    const to = path.join(dir, 'tasks', id);
    mkdirSync(path.dirname(to), { recursive: true });
    cpSync(path.join(SAMPLE, 'tasks', base), to, { recursive: true });
    const taskFile = path.join(to, 'task.yaml');
    const task = parse(readFileSync(taskFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(taskFile, stringify({ ...task, id, title: `${String(task.title)} (#${n + 1})` }));
    const rubricFile = path.join(to, 'evaluator/rubric.yaml');
    const rubric = parse(readFileSync(rubricFile, 'utf8')) as { items: RubricItem[] };
    const items = grow(rubric.items, opts.items, id);
    checked += items.filter((i) => i.check !== undefined).length;
    writeFileSync(rubricFile, stringify({ ...rubric, items }));
    taskIds.push(id);
  }
  writeFileSync(
    path.join(dir, 'benchmark.yaml'),
    stringify({
      schema: 'assay.benchmark/v1',
      id: 'startupbench-scale',
      title: `${opts.tasks} tasks of ${opts.items} items made from the sample's six (bench/scale)`,
      version: '1.0.0',
      tasks: taskIds,
    }),
  );
  return { dir, taskIds, items: opts.items * opts.tasks, checked };
}

/** The task's items repeated in order until there are `count`, each naming its task. */
function grow(items: RubricItem[], count: number, taskId: string): RubricItem[] {
  return Array.from({ length: count }, (_, i) => {
    const item = items[i % items.length]!;
    const round = Math.floor(i / items.length);
    return {
      ...item,
      id: round === 0 ? item.id : `${item.id}-r${round + 1}`,
      text: `${item.text} [${taskId}${round === 0 ? '' : `, check ${round + 1}`}]`,
    };
  });
}
