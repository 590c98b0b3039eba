// Replay: trial histories recorded on earlier trial workflows replay on today's, which keeps their
// activities behind patches: the five-activity workflow of commit ed91d9a (prepare, agent, collect,
// evaluate, record), and the three-activity one of 430b19e (prepare, agent, finishTrial, before
// patched('assay-one-hop-trial')); today's own history (a local prepare, runAgentAndFinish) replays
// too. To record the ed91d9a fixture again: check out its workflows and run this file with
// ASSAY_RECORD_OLD_HISTORY=1 (430b19e's: the same with its own test's 'new' history).
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
const THREE_ACTIVITY_FIXTURE = path.join(here, 'fixtures/trial-history-430b19e.json');
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

/** Replays a recorded history (JSON) of the trial `key` on today's bundle. */
function replay(json: string, key: string): Promise<void> {
  return Worker.runReplayHistory(
    { workflowBundle: bundle },
    historyFromJSON(JSON.parse(json)),
    trialWorkflowId('replay', key),
  );
}

describe('trial workflow replay', () => {
  it('replays a trial history of the five-activity workflow (ed91d9a)', async () => {
    if (process.env.ASSAY_RECORD_OLD_HISTORY) writeFileSync(FIXTURE, await recordTrial('old'));
    const json = readFileSync(FIXTURE, 'utf8');
    expect(json).toContain('recordTrial');
    await expect(replay(json, 'sys/old/1')).resolves.toBeUndefined();
  }, 120_000);

  it('replays a trial history of the three-activity workflow (430b19e)', async () => {
    const json = readFileSync(THREE_ACTIVITY_FIXTURE, 'utf8');
    expect(json).toContain('finishTrial');
    expect(json).not.toContain('runAgentAndFinish');
    await expect(replay(json, 'sys/three/1')).resolves.toBeUndefined();
  }, 120_000);

  it("replays today's trial history: a local prepare, then runAgentAndFinish", async () => {
    const json = await recordTrial('new');
    expect(json).toContain('runAgentAndFinish');
    expect(json).toContain('EVENT_TYPE_MARKER_RECORDED');
    await expect(replay(json, 'sys/new/1')).resolves.toBeUndefined();
    // One activity: prepare is a local activity (a marker), not a scheduled one.
    const scheduled = (JSON.parse(json) as { events: { eventType: string }[] }).events.filter(
      (e) => e.eventType === 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED',
    );
    expect(scheduled).toHaveLength(1);
  }, 120_000);
});
