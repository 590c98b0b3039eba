// runAgentAndFinish, the real activity on a real capped work volume (needs root, as the worker does),
// past an agent whose result is already stored (as a retry finds it): it collects, evaluates and
// records, then releases the volume; a retry after that release (a worker lost before the completion
// reached the server) returns the record it wrote (same agent run) instead of collecting again from
// the released, empty workspace.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import {
  createTrialActivities,
  isMountPoint,
  settleWorkVolumeReleases,
  trialPaths,
  type AgentRun,
  type EvidenceTools,
} from '@assay/activities';
import { judgeSetupSchema, limitsSchema, resourcesSchema, type TrialInput } from '@assay/core';

const root = process.getuid?.() === 0;

/** One task: write outputs/hello.txt; one item checked by text-contains. */
function writeBenchmark(dir: string): void {
  const task = path.join(dir, 'tasks', 'write-hello');
  mkdirSync(path.join(task, 'evaluator', 'reference'), { recursive: true });
  mkdirSync(path.join(task, 'inputs'), { recursive: true });
  writeFileSync(
    path.join(dir, 'benchmark.yaml'),
    'schema: assay.benchmark/v1\nid: finish\ntitle: One task\nversion: 1.0.0\ntasks: [write-hello]\n',
  );
  writeFileSync(
    path.join(task, 'task.yaml'),
    "schema: assay.task/v1\nid: write-hello\ntitle: Write one file\ndomain: business\nrequest: 'Write hello.'\n" +
      'outputs:\n  - { path: hello.txt, format: txt, description: the file }\nformatRequired: false\n',
  );
  writeFileSync(
    path.join(task, 'evaluator', 'rubric.yaml'),
    'schema: assay.rubric/v1\nitems:\n  - id: says-hello\n    text: outputs/hello.txt says hello.\n' +
      '    importance: core\n    dimension: structure-completeness\n' +
      '    check: { kind: text-contains, file: hello.txt, text: hello }\n',
  );
  writeFileSync(path.join(task, 'evaluator', 'reference', 'hello.txt'), 'hello\n');
}

/** Evidence for plain text only: the view is the folder, a text-contains check reads the file. */
const textEvidence: EvidenceTools = {
  detectFormat: async () => 'txt',
  buildView: async (dir) => dir,
  evaluateCheck: (check, view) => {
    if (check.kind !== 'text-contains') throw new Error(`unexpected check ${check.kind}`);
    const text = readFileSync(path.join(view as string, check.file), 'utf8');
    const found = text.includes(check.text);
    return { status: found ? 'satisfied' : 'not-satisfied', reason: found ? 'found' : 'absent', evidence: [] };
  },
};

describe.skipIf(!root)('runAgentAndFinish after the agent', () => {
  it('records once, releases the volume, and a retry after the release returns that record', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-finish-'));
    writeBenchmark(path.join(dir, 'bench'));
    const trial: TrialInput = {
      jobId: 'finish',
      resultsDir: path.join(dir, 'results'),
      benchmark: { id: 'finish', version: '1.0.0', root: path.join(dir, 'bench') },
      system: { id: 'sys', harness: 'nop', settings: {} },
      trial: 1,
      taskId: 'write-hello',
      limits: limitsSchema.parse({ agentSeconds: 60, setupSeconds: 60, verifierSeconds: 60 }),
      resources: resourcesSchema.parse({ storageGiB: 0.0625 }),
      judge: judgeSetupSchema.parse({}),
      heartbeatSeconds: 30,
    };
    const acts = createTrialActivities({
      // A real engine: the finish removes the trial's agent container (none here: the engine says 404).
      docker: new Docker(),
      evidence: textEvidence,
      images: { scriptedAgent: 'unused' },
    });
    const env = new MockActivityEnvironment({ workflowExecution: { workflowId: 'finish-wf', runId: 'r1' } });
    // env.run cannot infer a result type from its function: say it here.
    const inActivity = <R>(fn: () => Promise<R>) => env.run(fn) as Promise<R>;
    const workspace = await inActivity(() => acts.prepareWorkspace(trial, { key: 'r1:0' }));
    const { workDir } = trialPaths(trial);
    expect(isMountPoint(workDir)).toBe(true);
    writeFileSync(path.join(workspace.workspace, 'outputs', 'hello.txt'), 'hello\n');
    const at = new Date().toISOString();
    const run = { exitCode: 0, timedOut: false, reason: null, startedAt: at, endedAt: at, durationSeconds: 1 };
    const agent = { ...run, containerAttempts: 1, usage: null } as AgentRun;
    const agentResult = path.join(trial.resultsDir, 'trials/sys/write-hello/1/agent-result.json');
    const find = (containerKey?: string) =>
      inActivity(() => acts.findTrialRecordOf({ trial, ...(containerKey ? { containerKey } : {}) }));
    // A host lost before its agent stored a result: nothing to find, the trial starts again elsewhere.
    expect(await find()).toEqual({ record: null, agentFinished: false });
    writeFileSync(agentResult, JSON.stringify(agent));
    const args = { trial, workspace, workflowId: 'finish-wf' };

    const first = await inActivity(() => acts.runAgentAndFinish(args));
    expect(first.deliverables.map((d) => d.path)).toEqual(['hello.txt']);
    expect(first.score.value).toBe(100);
    expect(first.agent.startedAt).toBe(at);
    // The unmount runs on after the activity answered; the worker awaits it before it exits.
    await settleWorkVolumeReleases();
    expect(isMountPoint(workDir)).toBe(false);

    const retried = await inActivity(() => acts.runAgentAndFinish(args));
    expect(retried).toEqual(first);
    const stored = JSON.parse(
      readFileSync(path.join(trial.resultsDir, 'trials/sys/write-hello/1/record.json'), 'utf8'),
    );
    expect(stored.recordedAt).toBe(first.recordedAt);

    // A host lost during runAgentAndFinish: the record is found through the stored agent run.
    expect(await find()).toEqual({ record: first, agentFinished: true });
    // A moved trial's attempt (another container key) did not write it.
    expect(await find('finish-wf:move-1')).toEqual({ record: null, agentFinished: false });
    // Another agent run's record (an earlier run's, archived or not) is not this attempt's.
    writeFileSync(agentResult, JSON.stringify({ ...agent, startedAt: new Date(Date.now() - 60_000).toISOString() }));
    expect(await find()).toEqual({ record: null, agentFinished: true });
  }, 60_000);
});
