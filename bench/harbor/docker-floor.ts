// The floor under an assay trial on this engine: the trivial task's agent containers (oracle + nop
// x N at concurrency C) run straight through runAgentContainer, the same create options, image,
// binds and command as in a trial, with nothing of ours around them: no Temporal, no work volume,
// no collect, evaluation or record. Removal is in the background, as in a trial. What a trial
// spends above this is our bookkeeping; this much is Docker's (and the agent's).
// Run by floor-side.ts as its own process, so it is measured like the other sides:
//
//   npx tsx bench/harbor/docker-floor.ts --benchmark DIR --job ID --trials N --concurrency C --out FILE.json
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Docker from 'dockerode';
import { renderInstruction } from '@assay/activities';
import { loadBenchmark } from '@assay/benchmark';
import { scriptedAgentImageTag } from '@assay/infra';
import { planScriptedContainer } from '../../activities/src/harness/scripted-harness.js';
import {
  runAgentContainer,
  removeContainerLater,
  settleContainerRemovals,
} from '../../activities/src/run-agent-container.js';
import { TASK_ID } from './generate-tasks.js';
import type { TrialTiming } from './harbor-side.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

const { values } = parseArgs({
  options: {
    benchmark: { type: 'string' },
    job: { type: 'string' },
    trials: { type: 'string', default: '12' },
    concurrency: { type: 'string', default: '4' },
    out: { type: 'string' },
  },
});
if (!values.benchmark || !values.job || !values.out) throw new Error('--benchmark, --job and --out are required');
const benchmarkDir = values.benchmark;
const jobId = values.job;
const outFile = values.out;

const docker = new Docker();
const image = await scriptedAgentImageTag({ root: ROOT });
const task = loadBenchmark(benchmarkDir).tasks.find((t) => t.spec.id === TASK_ID);
if (!task) throw new Error(`${benchmarkDir}: no task ${TASK_ID}`);
const evaluatorDir = path.join(task.dir, 'evaluator');
// One instruction for all, as prepare renders it.
const instructionDir = path.join(path.dirname(outFile), `${jobId}-instruction`);
mkdirSync(instructionDir, { recursive: true });
writeFileSync(path.join(instructionDir, 'instruction.md'), renderInstruction(task.agent.request, task.agent.outputs));

async function runOne(agent: 'oracle' | 'nop', trial: number): Promise<TrialTiming> {
  const workflowId = `floor:${jobId}:${agent}:${trial}`;
  const unitDir = path.join(path.dirname(outFile), jobId, `${agent}-${trial}`);
  const workspace = path.join(unitDir, 'workspace');
  mkdirSync(path.join(workspace, 'inputs'), { recursive: true });
  const startMs = Date.now();
  const plan = planScriptedContainer({
    system: { id: agent, harness: agent, settings: {} },
    evaluatorDir,
    images: { scriptedAgent: image },
  });
  const result = await runAgentContainer(
    docker,
    {
      workflowId,
      labels: { 'assay.job': jobId, 'assay.role': 'agent' },
      plan,
      workspace,
      instructionDir,
      env: { ASSAY_INSTRUCTION_FILE: '/assay/instruction.md', ASSAY_TASK_ID: TASK_ID, ASSAY_TRIAL: String(trial) },
      limits: { agentSeconds: 600 },
      resources: { cpus: 2, memoryGiB: 8, pids: 1024, network: 'none' },
      createFirst: true,
    },
    {
      finishedElsewhere: () => false,
      heartbeat: () => undefined,
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      cancelled: () => false,
    },
  );
  const endMs = Date.now();
  removeContainerLater(docker, workflowId);
  if (result.exitCode !== 0) throw new Error(`${workflowId}: the agent exited ${result.exitCode}: ${result.logs}`);
  return {
    agent,
    workflowId,
    startMs,
    endMs,
    seconds: (endMs - startMs) / 1000,
    // Not scored: the floor runs no evaluation.
    reward: null,
    agentSeconds: result.durationSeconds,
    phases: {},
  };
}

const units = (['oracle', 'nop'] as const).flatMap((agent) =>
  Array.from({ length: Number(values.trials) }, (_, i) => ({ agent, trial: i + 1 })),
);
const timings: TrialTiming[] = [];
let next = 0;
await Promise.all(
  Array.from({ length: Number(values.concurrency) }, async () => {
    for (let u = units[next++]; u; u = units[next++]) timings.push(await runOne(u.agent, u.trial));
  }),
);
await settleContainerRemovals();
writeFileSync(outFile, JSON.stringify(timings));
