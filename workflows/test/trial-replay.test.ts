// Replay: a trial history recorded on the five-activity trial workflow of commit ed91d9a (prepare,
// agent, collect, evaluate, record; in fixtures/) replays on today's workflow, which keeps those
// activities for it behind patched('assay-finish-trial'); and today's own history (prepare, agent,
// finishTrial) replays too. To record the old fixture again: check out ed91d9a's workflows and run
// this file with ASSAY_RECORD_OLD_HISTORY=1.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { historyFromJSON, historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Worker, bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSAY_SEARCH_ATTRIBUTES, ensureTemporalTestServer } from '@assay/infra';
import { trialWorkflowId } from '@assay/workflows/definitions';
import { trialInput, trialStubs, withFinishTrial } from './support/stub-activities.js';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE = path.join(here, 'fixtures/trial-history-ed91d9a.json');
const KEYWORD = 2;

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;

beforeAll(async () => {
  const executable = await ensureTemporalTestServer({ root: path.resolve(here, '../..') });
  [env, bundle] = await Promise.all([
    TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path: executable } } }),
    bundleWorkflowCode({ workflowsPath: require.resolve('@assay/workflows'), logger: new DefaultLogger('WARN') }),
  ]);
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: Object.fromEntries(ASSAY_SEARCH_ATTRIBUTES.map((name) => [name, KEYWORD])),
  });
}, 300_000);
afterAll(async () => {
  await env?.teardown();
});

/** One trial run to its end on this bundle with succeeding stubs; its history as JSON. */
async function recordTrial(key: string): Promise<string> {
  const taskQueue = `trial-replay-${process.pid}-${key}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    workflowBundle: bundle,
    activities: withFinishTrial(trialStubs([])),
  });
  return worker.runUntil(async () => {
    const { trialWorkflow } = await import('@assay/workflows');
    const handle = await env.client.workflow.start(trialWorkflow, {
      taskQueue,
      workflowId: trialWorkflowId('replay', `sys/${key}/1`),
      args: [trialInput({ jobId: 'replay', taskId: key })],
    });
    await handle.result();
    return historyToJSON(await handle.fetchHistory());
  });
}

describe('trial workflow replay', () => {
  it('replays a trial history of the five-activity workflow (ed91d9a)', async () => {
    if (process.env.ASSAY_RECORD_OLD_HISTORY) writeFileSync(FIXTURE, await recordTrial('old'));
    const json = readFileSync(FIXTURE, 'utf8');
    expect(json).toContain('recordTrial');
    await expect(
      Worker.runReplayHistory(
        { workflowBundle: bundle },
        historyFromJSON(JSON.parse(json)),
        trialWorkflowId('replay', 'sys/old/1'),
      ),
    ).resolves.toBeUndefined();
  }, 120_000);

  it("replays today's trial history: prepare, agent, finishTrial", async () => {
    const json = await recordTrial('new');
    expect(json).toContain('finishTrial');
    expect(json).not.toContain('recordTrial');
    await expect(
      Worker.runReplayHistory(
        { workflowBundle: bundle },
        historyFromJSON(JSON.parse(json)),
        trialWorkflowId('replay', 'sys/new/1'),
      ),
    ).resolves.toBeUndefined();
  }, 120_000);
});
