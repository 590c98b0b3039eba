// The same trivial task in both formats: write one file (outputs/hello.txt, "hello") and one
// checked rubric item. assay: a benchmark folder with one task; Harbor 0.20: a task folder
// (task.toml, instruction.md, environment/Dockerfile FROM our local base image, solution/solve.sh,
// tests/test.sh writing the reward), so both sides run the same image and nothing is pulled.
import { mkdirSync, writeFileSync, chmodSync } from 'node:fs';
import path from 'node:path';

export const TASK_ID = 'write-hello';
const REQUEST = 'Write the file outputs/hello.txt containing the single word: hello';

function write(file: string, text: string, mode?: number): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  if (mode !== undefined) chmodSync(file, mode);
}

/** assay.benchmark/v1 with one task; returns the benchmark folder. */
export function writeAssayBenchmark(dir: string): string {
  const task = path.join(dir, 'tasks', TASK_ID);
  write(
    path.join(dir, 'benchmark.yaml'),
    `schema: assay.benchmark/v1\nid: harbor-side-by-side\ntitle: One trivial task\nversion: 1.0.0\ntasks: [${TASK_ID}]\n`,
  );
  write(
    path.join(task, 'task.yaml'),
    [
      'schema: assay.task/v1',
      `id: ${TASK_ID}`,
      'title: Write one file',
      'domain: business',
      `request: '${REQUEST}'`,
      'outputs:',
      '  - { path: hello.txt, format: txt, description: the file }',
      'formatRequired: false',
      '',
    ].join('\n'),
  );
  write(
    path.join(task, 'evaluator', 'rubric.yaml'),
    [
      'schema: assay.rubric/v1',
      'items:',
      '  - id: says-hello',
      '    text: outputs/hello.txt says hello.',
      '    importance: core',
      '    dimension: structure-completeness',
      '    check: { kind: text-contains, file: hello.txt, text: hello }',
      '',
    ].join('\n'),
  );
  write(path.join(task, 'evaluator', 'reference', 'hello.txt'), 'hello\n');
  mkdirSync(path.join(task, 'inputs'), { recursive: true });
  return dir;
}

/** A Harbor 0.20 dataset folder holding one task; returns the folder (`harbor run -p`). */
export function writeHarborDataset(dir: string, baseImage: string): string {
  const task = path.join(dir, TASK_ID);
  write(
    path.join(task, 'task.toml'),
    [
      'version = "1.0"',
      '',
      '[metadata]',
      'difficulty = "easy"',
      'category = "bench"',
      '',
      '[verifier]',
      'timeout_sec = 120.0',
      '',
      '[agent]',
      'timeout_sec = 120.0',
      '',
      '[environment]',
      'build_timeout_sec = 600.0',
      'cpus = 1',
      'memory_mb = 2048',
      'storage_mb = 10240',
      '',
    ].join('\n'),
  );
  write(path.join(task, 'instruction.md'), `${REQUEST.replace('outputs/', '/workspace/outputs/')}\n`);
  write(
    path.join(task, 'environment', 'Dockerfile'),
    // No RUN step: the engine here has no default bridge for build containers (dockerd --bridge=none).
    `FROM ${baseImage}\nWORKDIR /workspace/outputs\nWORKDIR /workspace\n`,
  );
  write(
    path.join(task, 'solution', 'solve.sh'),
    '#!/bin/bash\nmkdir -p /workspace/outputs\necho hello > /workspace/outputs/hello.txt\n',
    0o755,
  );
  // The one checked item, as Harbor's verifier: reward 1 when the file says hello.
  write(
    path.join(task, 'tests', 'test.sh'),
    [
      '#!/bin/bash',
      'mkdir -p /logs/verifier',
      'if grep -q hello /workspace/outputs/hello.txt 2>/dev/null; then echo 1 > /logs/verifier/reward.txt;',
      'else echo 0 > /logs/verifier/reward.txt; fi',
      '',
    ].join('\n'),
    0o755,
  );
  return dir;
}
