// Re-judging throughput (issue #14 part 6): `assay judge` over the sample job's stored submissions
// with a per-item judge pointed at the scripted model server (answers at once), for 1 and for 2
// judge setups, on this checkout and optionally a baseline checkout, in one invocation.
//
//   npx tsx bench/judge/rejudge-bench.ts [--results DIR (sample results to reuse)] [--baseline DIR]
//       [--mode per-item|batched|holistic] [--rounds 1] [--out FILE] [--only baseline]
//
// Each run starts from the same results folder with no verdict cache, no page images, no evidence
// cache and no judges/ (so every run makes the same model calls), runs under bench/harbor's
// measure-tree.py (CPU of the whole process tree: CLI, parser processes, LibreOffice) and is
// checked against the first run's verdicts: a change that alters any decision is a bench failure.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, startTemporalServer, stopTemporalServer } from '@assay/infra';
import { loadScriptFile, startMockLlm, type MockLlmServer } from '@assay/mock-llm';
import { runMeasured, type Measured } from '../harbor/measure-process.js';
import { readJudged, verdictDifferences, type JudgedDigest } from './rejudge-records.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const KEY_ENV = 'ASSAY_BENCH_JUDGE_KEY';
/** Derived data a run leaves in the results folder; removed before every run. */
const DERIVED = ['judges', 'judge-cache', 'pages', 'evidence-cache', 'work/judges'];

const { values } = parseArgs({
  options: {
    results: { type: 'string' },
    baseline: { type: 'string' },
    mode: { type: 'string', default: 'per-item' },
    rounds: { type: 'string', default: '1' },
    out: { type: 'string' },
    /** `baseline` alone: time only the baseline checkout (e.g. while this one is being edited). */
    only: { type: 'string' },
  },
});

interface Side {
  label: string;
  root: string;
  /** Whether its `assay judge` takes several --judge setups in one command. */
  multiSetup: boolean;
}

interface Run {
  side: string;
  setups: number;
  round: number;
  wallSeconds: number;
  cpuSeconds: number;
  treePeakRssMb: number;
  modelCalls: number;
  load: string;
  problems: string[];
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

function writeJobFile(dir: string, resultsDir: string): string {
  const file = path.join(dir, 'sample.yaml');
  const sample = path.join(ROOT, 'jobs/sample.yaml');
  const text = readFileSync(sample, 'utf8')
    .replace(/^benchmark: .*$/m, `benchmark: ${path.join(ROOT, 'datasets/sample')}`)
    .concat(`results: ${resultsDir}\n`);
  writeFileSync(file, text);
  return file;
}

/** The sample job once, on its own Temporal dev server (not timed). */
async function runSampleJob(work: string): Promise<string> {
  const resultsDir = path.join(work, 'sample-results');
  const jobFile = writeJobFile(work, resultsDir);
  const port = await freePort();
  delete process.env.TEMPORAL_ADDRESS;
  const server = await startTemporalServer({ root: ROOT, port, dbFile: path.join(work, 'temporal.sqlite'), ui: false });
  try {
    console.log(`running the sample job into ${resultsDir} (not timed)`);
    execFileSync(process.execPath, ['scripts/assay.mjs', 'run', jobFile], {
      cwd: ROOT,
      env: { ...process.env, TEMPORAL_ADDRESS: server.address },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  } finally {
    await stopTemporalServer({ root: ROOT, port });
  }
  return resultsDir;
}

function writeSetups(work: string, url: string, mode: string): string[] {
  // Two models, so the second setup's verdicts are its own (the verdict cache keys on the model).
  return ['judge-a', 'judge-b'].map((model) => {
    const file = path.join(work, `${model}.yaml`);
    writeFileSync(
      file,
      `mode: ${mode}\nprovider: openai\nmodel: ${model}\nbaseUrl: ${url}/v1\napiKeyEnv: ${KEY_ENV}\n`,
    );
    return file;
  });
}

function judgeCommands(side: Side, jobFile: string, setups: readonly string[]): string[][] {
  const cmd = (files: readonly string[]) => [
    path.join(side.root, 'scripts/assay.mjs'),
    'judge',
    jobFile,
    ...files.flatMap((f) => ['--judge', f]),
  ];
  return side.multiSetup ? [cmd(setups)] : setups.map((f) => cmd([f]));
}

async function measureRun(
  side: Side,
  ctx: { work: string; jobFile: string; resultsDir: string; llm: MockLlmServer; setups: string[] },
  setups: number,
  round: number,
): Promise<{ run: Run; judged: JudgedDigest }> {
  for (const d of DERIVED) rmSync(path.join(ctx.resultsDir, d), { recursive: true, force: true });
  ctx.llm.clearRecords();
  const files = ctx.setups.slice(0, setups);
  const logFile = path.join(ctx.work, `${side.label}-${setups}-r${round}.log`);
  const parts: Measured[] = [];
  const problems: string[] = [];
  const startLoad = load();
  for (const args of judgeCommands(side, ctx.jobFile, files)) {
    const m = await runMeasured(process.execPath, args, {
      cwd: side.root,
      env: { ...process.env, [KEY_ENV]: 'sk-bench' },
      logFile,
    });
    if (m.exitCode !== 0) problems.push(`${side.label}: assay judge exited ${m.exitCode} (see ${logFile})`);
    parts.push(m);
  }
  const judged = await readJudged(
    ctx.resultsDir,
    files.map((f) => path.basename(f, '.yaml')),
  );
  const run: Run = {
    side: side.label,
    setups,
    round,
    wallSeconds: parts.reduce((n, m) => n + m.wallSeconds, 0),
    cpuSeconds: parts.reduce((n, m) => n + m.cpuSeconds, 0),
    treePeakRssMb: Math.max(...parts.map((m) => m.treePeakRssMb)),
    modelCalls: ctx.llm.modelCalls().length,
    load: startLoad,
    problems,
  };
  return { run, judged };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

function printTable(runs: Run[], units: { trials: number; projects: number }, sides: Side[]): string {
  const rows: string[] = [
    '| side | setups | wall | CPU (tree) | CPU per trial | wall per trial | model calls | tree peak RSS | CPU / baseline | wall / baseline |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const figure = (label: string, setups: number) => {
    const mine = runs.filter((r) => r.side === label && r.setups === setups);
    return {
      wall: median(mine.map((r) => r.wallSeconds)),
      cpu: median(mine.map((r) => r.cpuSeconds)),
      rss: median(mine.map((r) => r.treePeakRssMb)),
      calls: median(mine.map((r) => r.modelCalls)),
    };
  };
  for (const setups of [1, 2])
    for (const side of sides) {
      const f = figure(side.label, setups);
      const base = sides.length > 1 ? figure(sides[sides.length - 1]!.label, setups) : null;
      const ratio = (a: number, b: number | undefined) => (b ? `${(a / b).toFixed(3)}x` : '');
      rows.push(
        `| ${side.label} | ${setups} | ${f.wall.toFixed(1)} s | ${f.cpu.toFixed(1)} s | ` +
          `${((f.cpu / units.trials) * 1000).toFixed(0)} ms | ${((f.wall / units.trials) * 1000).toFixed(0)} ms | ` +
          `${f.calls} | ${f.rss.toFixed(0)} MB | ${ratio(f.cpu, base?.cpu)} | ${ratio(f.wall, base?.wall)} |`,
      );
    }
  return rows.join('\n');
}

function sideOf(label: string, root: string): Side {
  execFileSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: root, stdio: 'ignore' });
  const help = execFileSync(process.execPath, ['scripts/assay.mjs', 'judge', '--help'], {
    cwd: root,
    encoding: 'utf8',
  });
  return { label, root, multiSetup: /repeatable/.test(help) };
}

async function main(): Promise<void> {
  const work = mkdtempSync(path.join(tmpdir(), 'assay-rejudge-bench-'));
  console.log(`machine: ${cpus().length} cores, load average ${load()} at start; work in ${work}`);
  const resultsDir = values.results ? path.resolve(values.results) : await runSampleJob(work);
  if (!existsSync(path.join(resultsDir, 'trials'))) throw new Error(`${resultsDir}: no trials/ folder`);
  const jobFile = writeJobFile(work, resultsDir);
  const llm = await startMockLlm({
    script: await loadScriptFile(path.join(ROOT, 'packages/mock-llm/examples/judge-approves-all.yaml')),
  });
  const sides = values.only === 'baseline' ? [] : [sideOf('branch', ROOT)];
  if (values.baseline) sides.push(sideOf('baseline', path.resolve(values.baseline)));
  const setups = writeSetups(work, llm.url, values.mode ?? 'per-item');
  const ctx = { work, jobFile, resultsDir, llm, setups };
  const runs: Run[] = [];
  let reference: JudgedDigest | null = null;
  try {
    for (let round = 1; round <= Number(values.rounds); round++)
      for (const setupCount of [1, 2])
        for (const side of round % 2 === 1 ? sides : [...sides].reverse()) {
          const { run, judged } = await measureRun(side, ctx, setupCount, round);
          if (setupCount === 2) {
            reference ??= judged;
            run.problems.push(...verdictDifferences(reference, judged));
          }
          runs.push(run);
          const line = `${side.label}, ${setupCount} setup(s), round ${round}: wall ${run.wallSeconds.toFixed(1)} s, CPU ${run.cpuSeconds.toFixed(1)} s, ${run.modelCalls} model calls, load ${run.load}`;
          console.log(run.problems.length > 0 ? `${line}; PROBLEMS: ${run.problems.slice(0, 5).join('; ')}` : line);
        }
  } finally {
    await llm.close();
  }
  const units = reference?.units ?? { trials: 0, projects: 0 };
  console.log(`\nload average ${load()} at the end; ${units.trials} trials + ${units.projects} projects judged\n`);
  console.log(printTable(runs, units, sides));
  if (values.out) {
    mkdirSync(path.dirname(values.out), { recursive: true });
    writeFileSync(values.out, JSON.stringify({ runs, units }, null, 2));
  }
  if (runs.some((r) => r.problems.length > 0)) process.exitCode = 1;
}

await main();
