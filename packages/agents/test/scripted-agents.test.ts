// Runs the real scripted agents (python3 + openpyxl + python-docx) on temp copies of
// datasets/sample, with the container's mounts simulated by ASSAY_WORKSPACE / ASSAY_ORACLE_DIR.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SCRIPTED_AGENT_SCRIPT } from '../src/index.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SAMPLE = path.join(ROOT, 'datasets', 'sample');
const FIN = path.join(SAMPLE, 'tasks', 'fin-term-loan-schedule');
const BIZ = path.join(SAMPLE, 'tasks', 'biz-quarterly-review-deck');
const PROJECT = path.join(SAMPLE, 'projects', 'fdd-hengtai');

/** A python3 that has openpyxl and python-docx: ASSAY_AGENT_PYTHON, the system one, or the datasets venv. */
function findPython(): string | null {
  const candidates = [
    process.env.ASSAY_AGENT_PYTHON,
    '/usr/bin/python3',
    path.join(ROOT, '.assay/venv-datasets/bin/python'),
    'python3',
  ];
  for (const py of candidates) {
    if (!py) continue;
    if (spawnSync(py, ['-c', 'import openpyxl, docx'], { stdio: 'ignore' }).status === 0) return py;
  }
  return null;
}

const PY = findPython();
const scratch = mkdtempSync(path.join(tmpdir(), 'assay-agents-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  outputs: string;
  summary: { agent: string; files: string[]; usage: { inputTokens: number; outputTokens: number } } | null;
}

let counter = 0;
function workspaceFor(taskDir: string | null): string {
  const ws = path.join(scratch, `ws-${++counter}`);
  mkdirSync(path.join(ws, 'outputs'), { recursive: true });
  if (taskDir) cpSync(path.join(taskDir, 'inputs'), path.join(ws, 'inputs'), { recursive: true });
  return ws;
}

function runAgent(
  agent: string,
  ws: string,
  oracle: string,
  env: Record<string, string> = {},
  outputs: string[] = [],
): Run {
  const instruction = path.join(ws, 'instruction.md');
  writeFileSync(
    instruction,
    [
      'Do the task.',
      '',
      '---',
      'Required deliverables:',
      ...outputs.map((o) => `- /workspace/outputs/${o} (${path.extname(o).slice(1)})`),
      '',
    ].join('\n'),
  );
  const res = spawnSync(PY!, [SCRIPTED_AGENT_SCRIPT], {
    env: {
      PATH: process.env.PATH ?? '',
      ASSAY_AGENT: agent,
      ASSAY_WORKSPACE: ws,
      ASSAY_ORACLE_DIR: oracle,
      ASSAY_INSTRUCTION_FILE: instruction,
      ...env,
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const last = res.stdout.trim().split('\n').at(-1) ?? '';
  let summary: Run['summary'] = null;
  try {
    summary = JSON.parse(last) as Run['summary'];
  } catch {
    summary = null;
  }
  return { status: res.status, stdout: res.stdout, stderr: res.stderr, outputs: path.join(ws, 'outputs'), summary };
}

function files(dir: string): string[] {
  return existsSync(dir)
    ? (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
        .filter((d) => d.isFile())
        .map((d) => path.relative(dir, path.join(d.parentPath, d.name)))
        .sort()
    : [];
}

/** Reads cells with openpyxl: [formula-or-value, cached value] per cell. */
function cells(xlsx: string, refs: string[]): [unknown, unknown][] {
  const code = `import json,sys,openpyxl
f=openpyxl.load_workbook(sys.argv[1]); v=openpyxl.load_workbook(sys.argv[1], data_only=True)
out=[]
for r in sys.argv[2:]:
    s,c=r.split('!'); out.append([f[s][c].value, v[s][c].value])
print(json.dumps(out))`;
  const res = spawnSync(PY!, ['-c', code, xlsx, ...refs], { encoding: 'utf8' });
  return JSON.parse(res.stdout) as [unknown, unknown][];
}

const FIN_OUTPUTS = ['debt_schedule.xlsx', 'lender_note.md'];

describe.skipIf(PY === null)('scripted agents on the sample finance task', () => {
  const oracle = path.join(FIN, 'evaluator');

  it('oracle copies the reference byte for byte and prints the usage summary', () => {
    const run = runAgent('oracle', workspaceFor(FIN), oracle, {}, FIN_OUTPUTS);
    expect(run.status).toBe(0);
    expect(files(run.outputs)).toEqual(FIN_OUTPUTS);
    for (const f of FIN_OUTPUTS)
      expect(readFileSync(path.join(run.outputs, f))).toEqual(readFileSync(path.join(oracle, 'reference', f)));
    expect(run.summary).toEqual({ agent: 'oracle', files: FIN_OUTPUTS, usage: { inputTokens: 0, outputTokens: 0 } });
  });

  it('nop writes nothing', () => {
    const run = runAgent('nop', workspaceFor(FIN), oracle, {}, FIN_OUTPUTS);
    expect(run.status).toBe(0);
    expect(files(run.outputs)).toEqual([]);
    expect(run.summary?.files).toEqual([]);
  });

  it('missing-deliverable leaves out the first required deliverable', () => {
    const run = runAgent('missing-deliverable', workspaceFor(FIN), oracle, {}, FIN_OUTPUTS);
    expect(files(run.outputs)).toEqual(['lender_note.md']);
    const reversed = runAgent('missing-deliverable', workspaceFor(FIN), oracle, {}, [...FIN_OUTPUTS].reverse());
    expect(files(reversed.outputs)).toEqual(['debt_schedule.xlsx']);
    const override = runAgent(
      'missing-deliverable',
      workspaceFor(FIN),
      oracle,
      { ASSAY_OUTPUTS: 'lender_note.md,debt_schedule.xlsx' },
      FIN_OUTPUTS,
    );
    expect(files(override.outputs)).toEqual(['debt_schedule.xlsx']);
  });

  it('wrong-type writes the first required deliverable in the wrong type and keeps the others', () => {
    const run = runAgent('wrong-type', workspaceFor(FIN), oracle, {}, FIN_OUTPUTS);
    expect(files(run.outputs)).toEqual(['debt_schedule.csv', 'lender_note.md']);
    const csv = readFileSync(path.join(run.outputs, 'debt_schedule.csv'), 'utf8').split('\n');
    expect(csv[0]).toBe('Input,Value');
    expect(csv[2]).toBe('Annual fixed rate,0.0575');
  });

  it('no-cached-values keeps the formulas but drops their cached values', () => {
    const ref = cells(path.join(oracle, 'reference', 'debt_schedule.xlsx'), ['Summary!B2', 'Inputs!B3']);
    expect(ref[0]?.[0]).toBe('=SUM(Schedule!D2:D21)');
    expect(ref[0]?.[1]).toBeCloseTo(378600.28, 1);
    const run = runAgent('no-cached-values', workspaceFor(FIN), oracle, {}, FIN_OUTPUTS);
    expect(run.status).toBe(0);
    const out = cells(path.join(run.outputs, 'debt_schedule.xlsx'), ['Summary!B2', 'Inputs!B3']);
    expect(out[0]).toEqual(['=SUM(Schedule!D2:D21)', null]);
    expect(out[1]).toEqual([0.0575, 0.0575]);
    expect(run.stdout).toMatch(/with cached values/);
  });

  it('correction-not-applied copies the flawed variant: the errata is noted but 6.25% stays operative', () => {
    const run = runAgent('correction-not-applied', workspaceFor(FIN), oracle, {}, FIN_OUTPUTS);
    expect(cells(path.join(run.outputs, 'debt_schedule.xlsx'), ['Inputs!B3'])[0]?.[1]).toBe(0.0625);
    expect(readFileSync(path.join(run.outputs, 'lender_note.md'), 'utf8')).toMatch(/corrects the rate to 5\.75%/);
  });

  it('superseded-decision without a variant for this task behaves like oracle and says so', () => {
    const run = runAgent('superseded-decision', workspaceFor(FIN), oracle, {}, FIN_OUTPUTS);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/no flawed variant/);
    expect(readFileSync(path.join(run.outputs, 'debt_schedule.xlsx'))).toEqual(
      readFileSync(path.join(oracle, 'reference', 'debt_schedule.xlsx')),
    );
  });

  it('fails with exit 2 and a message when the reference is not mounted, or the agent is unknown', () => {
    const missing = runAgent('oracle', workspaceFor(FIN), path.join(scratch, 'no-oracle'));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/reference folder .* not found/);
    const unknown = runAgent('genius', workspaceFor(FIN), oracle);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/ASSAY_AGENT must be one of/);
  });

  it('sleeps ASSAY_DELAY_SECONDS first, logging every second', () => {
    const started = Date.now();
    const run = runAgent('nop', workspaceFor(FIN), oracle, { ASSAY_DELAY_SECONDS: '2' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(run.stdout.match(/delay \d\/2s/g)).toEqual(['delay 1/2s', 'delay 2/2s']);
  });
});

describe.skipIf(PY === null)('scripted agents on decks and projects', () => {
  it('wrong-type turns a pptx into slide text without python-pptx', () => {
    const run = runAgent('wrong-type', workspaceFor(BIZ), path.join(BIZ, 'evaluator'), {}, ['q2_business_review.pptx']);
    expect(files(run.outputs)).toEqual(['q2_business_review.txt']);
    const text = readFileSync(path.join(run.outputs, 'q2_business_review.txt'), 'utf8');
    expect(text).toMatch(/^Slide 1\n/);
    expect(text).toMatch(/Rotterdam/);
  });

  it('superseded-decision copies the deck that keeps the Berlin opening active', () => {
    const run = runAgent('superseded-decision', workspaceFor(BIZ), path.join(BIZ, 'evaluator'), {}, [
      'q2_business_review.pptx',
    ]);
    const flaw = path.join(BIZ, 'evaluator', 'flaws', 'superseded-decision', 'q2_business_review.pptx');
    expect(readFileSync(path.join(run.outputs, 'q2_business_review.pptx'))).toEqual(readFileSync(flaw));
  });

  it('for a project subtask, outputs end up exactly as reference/<subtask>', () => {
    const ws = workspaceFor(null);
    writeFileSync(path.join(ws, 'outputs', 'scratch-notes.txt'), 'left over from an earlier subtask');
    const run = runAgent('oracle', ws, path.join(PROJECT, 'evaluator'), { ASSAY_SUBTASK_ID: 't03-apply-correction' }, [
      'dd_model.xlsx',
      'dd_memo.docx',
    ]);
    expect(run.status).toBe(0);
    expect(files(run.outputs)).toEqual(['dd_memo.docx', 'dd_model.xlsx']);
    const flawed = runAgent(
      'correction-not-applied',
      ws,
      path.join(PROJECT, 'evaluator'),
      { ASSAY_SUBTASK_ID: 't03-apply-correction' },
      ['dd_model.xlsx', 'dd_memo.docx'],
    );
    expect(flawed.status).toBe(0);
    const [b2, log] = cells(path.join(flawed.outputs, 'dd_model.xlsx'), ['Capex!B2', 'Change Log!D2']);
    expect(b2?.[1]).toBe(4841.5);
    expect(log?.[1]).toBe(4249.2);
  });
});
