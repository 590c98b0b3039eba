// Provider back-pressure end to end: real Temporal dev server, real agent containers, the scripted
// model server answering 429 to the first calls of many agents at once (a storm), then OK. The
// agents (a `command` harness calling the model through the worker's proxy, retrying each second)
// report their 429s through the heartbeat loop; the job halves the endpoint's lanes, raises them
// again after a quiet period, and every trial finishes once, with its record, without using up
// its retries.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBaseImage } from '@assay/infra';
import { startMockLlm, type MockLlmServer } from '@assay/mock-llm';
import { jobWorkflowId, type EndpointView, type JobProgress } from '@assay/core';
import { casKey } from '@assay/results';
import { readTrials } from './support/records.js';
import { ROOT, collectOutput, spawnCli, useTestServer, watchContainerCreates, writeJob } from './support/e2e.js';

const server = useTestServer();
const STORM = 36;
const ATTEMPTS = 20;
const CONCURRENCY = 6;
const TASKS = ['legal-nda-review', 'edu-fractions-lesson', 'fin-term-loan-schedule', 'stem-sensor-calibration'];
let llm: MockLlmServer;

beforeAll(async () => {
  llm = await startMockLlm({
    script: {
      rules: [{ name: 'storm', fault: { kind: '429', retryAfter: 1 }, times: STORM }],
      default: { text: 'done', usage: { input: 10, output: 2 } },
    },
  });
});
afterAll(async () => {
  await llm?.close();
});

/** An agent that asks the model once, retrying a 429 each second, up to ATTEMPTS times. */
const AGENT = [
  'n=0',
  `while [ $n -lt ${ATTEMPTS} ]; do`,
  '  n=$((n+1))',
  // -f: a 4xx/5xx answer is a failed attempt (curl exits 22).
  `  if curl -sf -o /tmp/r.json -H 'content-type: application/json' -H "authorization: Bearer $ASSAY_MODEL_API_KEY" -d '{"model":"m","messages":[{"role":"user","content":"go"}]}' "$ASSAY_MODEL_BASE_URL/chat/completions"; then`,
  '    echo "model answered after $n attempt(s)"; mkdir -p /workspace/outputs; cp /tmp/r.json /workspace/outputs/answer.json',
  '    sleep 2; exit 0',
  '  fi',
  '  echo "attempt $n failed"; sleep 1',
  'done',
  'echo "gave up after $n attempts"; exit 1',
].join('\n');

describe('back-pressure', () => {
  it('lowers the lanes of an endpoint that answers 429 to many trials, raises them later, and finishes every trial once', async () => {
    const t0 = Date.now();
    const jobId = 'back-pressure';
    const base = (await ensureBaseImage({ root: ROOT })).tag;
    const file = writeJob({
      id: jobId,
      trials: 3,
      tasks: TASKS,
      concurrency: CONCURRENCY,
      // Short windows: on a fast machine the 12 trials end ~30 s after the storm, and the lanes must be back by then
      // (with the finish in one activity they end sooner: a CI run saw the job finish at 5 of 6 lanes with raiseAfterSeconds 2).
      backPressure: { coolDownSeconds: 4, raiseAfterSeconds: 1 },
      systems: [
        {
          id: 'llm',
          harness: 'command',
          model: 'm',
          settings: { image: base, api: 'openai-chat', baseUrl: `${llm.url}/v1`, command: AGENT },
        },
      ],
    });
    const results = path.join(path.dirname(file), 'results');
    const creates = await watchContainerCreates(jobId);
    const run = collectOutput(
      spawnCli(['run', file, '--json', '--heartbeat-seconds', '5'], server().address, { ASSAY_PROGRESS_SECONDS: '1' }),
    );
    const connection = await Connection.connect({ address: server().address });
    const handle = new Client({ connection }).workflow.getHandle(jobWorkflowId(jobId));
    const seen: EndpointView[][] = [];
    let status = '';
    let memo: unknown;
    let exited = false;
    void run.exit.then(() => (exited = true));
    try {
      while (!exited) {
        const p = (await handle.query('progress').catch(() => null)) as JobProgress | null;
        const endpoints = p?.endpoints ?? [];
        seen.push(endpoints);
        if (!status && endpoints.some((e) => e.limit < CONCURRENCY)) {
          memo = (await handle.describe()).memo;
          const s = collectOutput(spawnCli(['status', file], server().address));
          await s.exit;
          status = s.text();
        }
        await new Promise((r) => setTimeout(r, 300));
      }
    } finally {
      creates.stop();
      await connection.close();
    }
    expect(await run.exit, run.text()).toBe(0);

    // The endpoint's lanes dropped below the job's concurrency, and later rose again.
    const limits = seen.map((list) => list.find((e) => e.endpoint === llm.url)?.limit ?? CONCURRENCY);
    const lowest = Math.min(...limits);
    const lowAt = limits.indexOf(lowest);
    console.log(`lanes over time: ${limits.join(' ')}`);
    expect(lowest).toBeLessThanOrEqual(CONCURRENCY / 2);
    expect(Math.max(...limits.slice(lowAt))).toBeGreaterThan(lowest);
    expect(limits.at(-1)).toBe(CONCURRENCY);
    const endpointLabel = llm.url.replace('http://', '');
    expect(status).toMatch(new RegExp(`back-pressure: ${endpointLabel} \\d/${CONCURRENCY} lanes, \\d+ throttled`));
    expect(memo).toMatchObject({ assayEndpoints: expect.stringMatching(new RegExp(`^${endpointLabel} \\d/6$`)) });
    const events = run
      .text()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { event: string; endpoints?: EndpointView[] });
    expect(events.some((e) => e.event === 'progress' && (e.endpoints?.[0]?.limit ?? CONCURRENCY) < CONCURRENCY)).toBe(
      true,
    );

    // Every trial finished once, with its record, and none used up its retries.
    const records = await readTrials(results);
    expect(records.map((r) => r.status)).toEqual(Array(12).fill('completed'));
    const ids = creates.workflowIds();
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
    const attempts = records.map((r) => {
      const log = readFileSync(path.join(results, 'trials/llm', r.task.id, String(r.trial), 'transcript.log'), 'utf8');
      return Number(/model answered after (\d+) attempt/.exec(log)?.[1] ?? ATTEMPTS + 1);
    });
    console.log(`attempts per trial: ${attempts.join(' ')}`);
    expect(Math.max(...attempts)).toBeLessThan(ATTEMPTS);
    expect(llm.modelCalls().filter((c) => c.status === 429)).toHaveLength(STORM);
    // What the provider answered, as the worker's model proxy saw it: the model it named and the id of the one
    // answer each agent kept (its deliverable is the reply itself), the 429s before it not counted.
    for (const r of records) {
      const answer = r.deliverables.find((d) => d.path.endsWith('answer.json'));
      const reply = JSON.parse(readFileSync(path.join(results, casKey(answer!.sha256)), 'utf8')) as {
        id: string;
        model: string;
      };
      expect(reply.id).toMatch(/^chatcmpl-/);
      expect(r.provenance?.models).toEqual([reply.model]);
      expect(r.provenance?.responses).toEqual({ count: 1, first: reply.id.slice(0, 40), last: reply.id.slice(0, 40) });
    }
    console.log(`back-pressure e2e: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }, 180_000);
});
