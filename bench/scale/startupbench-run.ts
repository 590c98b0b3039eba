// A StartupBench-scale run on one machine (issue #14 part 5): 97 generated tasks of 25 items
// (bench/scale/generate-startupbench.ts: the sample's office deliverables) x 9 scripted systems x 3
// trials = 2,619 trials, every agent in a real container, every item decided: a check where the
// rubric has one, else a per-item judge on the scripted model server (packages/mock-llm, answering at
// once in this process). Then `assay report` on the results. A standalone `assay worker` runs the
// job, submitted with `assay run --no-worker --detach`, so the worker's memory is its own.
//
// Prints wall time, trials/min, judge calls, the worker's RSS over time, the largest workflow
// histories, the report's time, and whether every trial was scored (score.value not null).
//
//   npx tsx bench/scale/startupbench-run.ts [--tasks 97] [--items 25] [--trials 3] [--concurrency 8]
//       [--checkout DIR (another assay checkout's CLI; default this one)] [--out FILE.json] [--work DIR (kept)] [--keep]
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { baseImageTag, freePort, startTemporalServer, stopTemporalServer } from '@assay/infra';
import { jobWorkflowId } from '@assay/core';
import { loadScriptFile, startMockLlm } from '@assay/mock-llm';
import { processCpuSeconds, processRssMb, sampleTree } from '../harbor/measure-process.js';
import { generateStartupBench } from './generate-startupbench.js';
import { removeWork } from '../remove-work.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const KEY_ENV = 'ASSAY_BENCH_JUDGE_KEY';
const SYSTEMS = [
  '{ id: oracle, harness: oracle }',
  '{ id: nop, harness: nop }',
  '{ id: scripted-oracle, harness: scripted, settings: { agent: oracle } }',
  '{ id: missing-deliverable, harness: scripted, settings: { agent: missing-deliverable } }',
  '{ id: wrong-type, harness: scripted, settings: { agent: wrong-type } }',
  '{ id: no-cached-values, harness: scripted, settings: { agent: no-cached-values } }',
  '{ id: correction-not-applied, harness: scripted, settings: { agent: correction-not-applied } }',
  '{ id: superseded-decision, harness: scripted, settings: { agent: superseded-decision } }',
  // A user's own agent (the command harness) that writes a short Markdown note and nothing else.
  `{ id: note-writer, harness: command, settings: { image: "IMAGE", command: "printf '# Note\\\\n\\\\nSee inputs.\\\\n' > {outputs_dir}/note.md" } }`,
];

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: '97' },
    items: { type: 'string', default: '25' },
    trials: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '8' },
    checkout: { type: 'string' },
    out: { type: 'string' },
    work: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const CHECKOUT = path.resolve(values.checkout ?? ROOT);
const CLI = path.join(CHECKOUT, 'scripts/assay.mjs');
const load = () => loadavg()[0]!.toFixed(1);

interface Sample {
  seconds: number;
  recorded: number;
  workerRssMb: number;
  treeRssMb: number;
  workerCpuSeconds: number;
  load: number;
}

function writeJob(work: string, benchmark: string, results: string, judgeUrl: string, image: string): string {
  const file = path.join(work, 'job.yaml');
  const lines = [
    'schema: assay.job/v1',
    `id: startupbench-scale-${Date.now().toString(36)}`,
    `benchmark: ${benchmark}`,
    `trials: ${values.trials}`,
    `concurrency: ${values.concurrency}`,
    'systems:',
    ...SYSTEMS.map((s) => `  - ${s.replace('IMAGE', image)}`),
    `judge: { mode: per-item, provider: openai, model: judge-scale, baseUrl: ${judgeUrl}/v1, apiKeyEnv: ${KEY_ENV} }`,
    `results: ${results}`,
    '',
  ];
  writeFileSync(file, lines.join('\n'));
  return file;
}

/** Records on disk, and the digest of every one: scored (value not null), unjudged items, status. */
function readRecords(results: string) {
  const out = {
    recorded: 0,
    scored: 0,
    unjudgedItems: 0,
    judged: 0,
    checked: 0,
    statuses: {} as Record<string, number>,
  };
  const trials = path.join(results, 'trials');
  if (!existsSync(trials)) return out;
  for (const system of readdirSync(trials))
    for (const task of readdirSync(path.join(trials, system)))
      for (const trial of readdirSync(path.join(trials, system, task))) {
        const file = path.join(trials, system, task, trial, 'record.json');
        if (!existsSync(file)) continue;
        const r = JSON.parse(readFileSync(file, 'utf8')) as {
          status: string;
          score: { value: number | null };
          verdicts: { decision: string; source: string }[];
        };
        out.recorded++;
        if (r.score.value !== null) out.scored++;
        out.statuses[r.status] = (out.statuses[r.status] ?? 0) + 1;
        for (const v of r.verdicts) {
          if (v.decision === 'unjudged') out.unjudgedItems++;
          else if (v.source === 'judge') out.judged++;
          else if (v.source === 'check') out.checked++;
        }
      }
  return out;
}

function countRecords(results: string): number {
  const trials = path.join(results, 'trials');
  let n = 0;
  if (!existsSync(trials)) return 0;
  for (const system of readdirSync(trials))
    for (const task of readdirSync(path.join(trials, system)))
      for (const trial of readdirSync(path.join(trials, system, task)))
        if (existsSync(path.join(trials, system, task, trial, 'record.json'))) n++;
  return n;
}

async function largestHistories(client: Client, jobId: string) {
  const describe = async (workflowId: string, runId: string) => {
    const raw = (await client.workflow.getHandle(workflowId, runId).describe()).raw.workflowExecutionInfo;
    return { events: Number(raw?.historyLength ?? 0), bytes: Number(raw?.historySizeBytes ?? 0) };
  };
  const largest = async (query: string) => {
    let max = { events: 0, bytes: 0, runs: 0 };
    for await (const w of client.workflow.list({ query })) {
      const h = await describe(w.workflowId, w.runId);
      max = { events: Math.max(max.events, h.events), bytes: Math.max(max.bytes, h.bytes), runs: max.runs + 1 };
    }
    return max;
  };
  return {
    job: await largest(`WorkflowId = '${jobWorkflowId(jobId)}'`),
    trials: await largest(`AssayJob = '${jobId}' AND WorkflowType = 'trialWorkflow'`),
  };
}

async function main(): Promise<void> {
  const work = values.work ? path.resolve(values.work) : mkdtempSync(path.join(tmpdir(), 'assay-scale-run-'));
  // A fresh results folder: records already there would be skipped as done.
  rmSync(path.join(work, 'results'), { recursive: true, force: true });
  rmSync(path.join(work, 'report'), { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const bench = generateStartupBench(path.join(work, 'benchmark'), {
    tasks: Number(values.tasks),
    items: Number(values.items),
  });
  const total = bench.taskIds.length * SYSTEMS.length * Number(values.trials);
  console.log(
    `machine: ${cpus().length} cores, load ${load()} at start; checkout ${CHECKOUT}; work ${work}\n` +
      `${bench.taskIds.length} tasks x ${values.items} items (${bench.checked} of ${bench.items} with a check) x ` +
      `${SYSTEMS.length} systems x ${values.trials} trials = ${total} trials, concurrency ${values.concurrency}`,
  );
  execFileSync(process.execPath, [path.join(CHECKOUT, 'scripts/build-cli.mjs')], { cwd: CHECKOUT, stdio: 'ignore' });
  // The command harness runs its command in an image without an entrypoint of its own: the base image.
  const image = baseImageTag();
  const llm = await startMockLlm({
    script: await loadScriptFile(path.join(ROOT, 'packages/mock-llm/examples/judge-approves-all.yaml')),
  });
  // The server records every request; counted and forgotten at each sample so this process stays small.
  let judgeCallsSoFar = 0;
  const countJudgeCalls = () => {
    judgeCallsSoFar += llm.modelCalls().length;
    llm.clearRecords();
    return judgeCallsSoFar;
  };
  const results = path.join(work, 'results');
  const jobFile = writeJob(work, bench.dir, results, llm.url, image);
  const port = await freePort();
  delete process.env.TEMPORAL_ADDRESS;
  const server = await startTemporalServer({ root: CHECKOUT, port, dbFile: path.join(work, 't.sqlite'), ui: false });
  const env = { ...process.env, TEMPORAL_ADDRESS: server.address, [KEY_ENV]: 'sk-bench-scale' };
  const client = new Client({ connection: await Connection.connect({ address: server.address }) });
  const logFile = path.join(work, 'worker.log');
  const samples: Sample[] = [];
  let summary = '';
  try {
    execFileSync(process.execPath, [CLI, 'validate', jobFile], { cwd: CHECKOUT, env, stdio: 'inherit' });
    const worker = spawn(process.execPath, [CLI, 'worker', '--concurrency', String(2 * Number(values.concurrency))], {
      cwd: CHECKOUT,
      env,
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    const pid = worker.pid ?? 0;
    const t0 = Date.now();
    const cpu0 = processCpuSeconds(server.pid ?? 0);
    execFileSync(process.execPath, [CLI, 'run', jobFile, '--no-worker', '--detach'], { cwd: CHECKOUT, env });
    const jobId = /id: (\S+)/.exec(readFileSync(jobFile, 'utf8'))![1]!;
    const done = client.workflow.getHandle(jobWorkflowId(jobId)).result();
    let finished = false;
    void done.then(
      () => (finished = true),
      () => (finished = true),
    );
    let lastPrint = 0;
    while (!finished) {
      await new Promise((r) => setTimeout(r, 5000));
      if (worker.exitCode !== null) throw new Error(`the worker exited (${worker.exitCode}); see ${logFile}`);
      const tree = sampleTree(pid);
      const s: Sample = {
        seconds: (Date.now() - t0) / 1000,
        recorded: countRecords(results),
        workerRssMb: processRssMb(pid),
        treeRssMb: tree.treeKb / 1024,
        workerCpuSeconds: processCpuSeconds(pid),
        load: loadavg()[0]!,
      };
      samples.push(s);
      countJudgeCalls();
      if (s.seconds - lastPrint >= 60) {
        lastPrint = s.seconds;
        console.log(
          `${s.seconds.toFixed(0)} s: ${s.recorded}/${total} recorded, worker ${s.workerRssMb.toFixed(0)} MB ` +
            `(tree ${s.treeRssMb.toFixed(0)} MB), load ${s.load.toFixed(1)}, ${countJudgeCalls()} judge calls`,
        );
      }
    }
    await done;
    const wall = (Date.now() - t0) / 1000;
    const serverCpu = processCpuSeconds(server.pid ?? 0) - cpu0;
    const workerCpu = processCpuSeconds(pid);
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
    const judgeCalls = countJudgeCalls();
    const digest = readRecords(results);
    const histories = await largestHistories(client, jobId);
    const r0 = Date.now();
    execFileSync(process.execPath, [CLI, 'report', jobFile, '--out', path.join(work, 'report')], {
      cwd: CHECKOUT,
      env,
      stdio: 'ignore',
    });
    const reportSeconds = (Date.now() - r0) / 1000;
    const peak = Math.max(...samples.map((s) => s.workerRssMb));
    const treePeak = Math.max(...samples.map((s) => s.treeRssMb));
    const at = (fraction: number) => samples.find((s) => s.recorded >= fraction * total);
    summary = [
      `| figure | value | goal |`,
      `| --- | --- | --- |`,
      `| trials recorded / scored | ${digest.recorded} / ${digest.scored} of ${total} | all scored |`,
      `| statuses | ${Object.entries(digest.statuses)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')} | |`,
      `| items decided by check / judge / unjudged | ${digest.checked} / ${digest.judged} / ${digest.unjudgedItems} | 0 unjudged |`,
      `| wall (submit -> job done) | ${wall.toFixed(0)} s (${(wall / 60).toFixed(1)} min) | <= 30 min |`,
      `| trials/min | ${((total / wall) * 60).toFixed(1)} | |`,
      `| judge calls (model requests) | ${judgeCalls} | |`,
      `| worker RSS at 25 / 50 / 75 / 100 % | ${[0.25, 0.5, 0.75, 1]
        .map((f) => at(f)?.workerRssMb.toFixed(0) ?? '?')
        .join(' / ')} MB | |`,
      `| worker peak RSS / with parser pool | ${peak.toFixed(0)} / ${treePeak.toFixed(0)} MB | <= 1 GiB |`,
      `| worker CPU / Temporal server CPU | ${workerCpu.toFixed(0)} s / ${serverCpu.toFixed(0)} s | |`,
      `| largest job history (${histories.job.runs} runs) | ${histories.job.events} events, ${(histories.job.bytes / 1024).toFixed(0)} KiB | <= 10,000 events |`,
      `| largest trial history (${histories.trials.runs} trials) | ${histories.trials.events} events, ${(histories.trials.bytes / 1024).toFixed(1)} KiB | |`,
      `| assay report | ${reportSeconds.toFixed(1)} s | |`,
      `| load average (1 min) start / mean / end | ${samples[0]?.load.toFixed(1)} / ${(samples.reduce((n, s) => n + s.load, 0) / samples.length).toFixed(1)} / ${load()} | |`,
    ].join('\n');
    console.log(`\n${summary}`);
    if (values.out)
      writeFileSync(
        values.out,
        JSON.stringify({ total, wall, judgeCalls, digest, histories, reportSeconds, samples }, null, 2),
      );
    if (digest.scored !== total) process.exitCode = 1;
  } finally {
    await client.connection.close();
    await stopTemporalServer({ root: CHECKOUT, port });
    await llm.close();
  }
  // A folder given with --work is the caller's.
  removeWork(work, values.keep! || values.work !== undefined);
}

await main();
