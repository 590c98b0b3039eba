// Any existing Temporal server works or says why not (issue #10 part 3), through the CLI as a user
// runs it: a bare `temporal server start-dev` (no search attributes) gets them and runs a job, with
// an API key set that must appear nowhere; a server that refuses them stops `run` before anything is
// submitted; a workflow task that fails forever in the background ends `run` and shows in `status`.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ensureTemporalCli } from '@assay/infra';
import { startWorker, type RunningWorker } from '@assay/cli/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBareTemporal, type BareTemporal } from './support/bare-temporal.js';
import { readTrials } from './support/records.js';
import { ROOT, collectOutput, ensureAgentImage, spawnCli, waitFor, writeJob } from './support/e2e.js';

const API_KEY = 'assay-test-api-key-7f3c1e9b';
const fills = Array.from({ length: 10 }, (_, i) => ['--search-attribute', `Fill${i + 1}=Keyword`]).flat();
let bare: BareTemporal;
let full: BareTemporal;
let temporalCli = '';
let image = '';
let worker: RunningWorker | undefined;

beforeAll(async () => {
  [bare, full, image, temporalCli] = await Promise.all([
    // A limit on workflow id length lets a start be refused after the preflight passed.
    startBareTemporal(['--dynamic-config-value', 'limit.maxIDLength=60']),
    startBareTemporal(fills),
    ensureAgentImage(),
    ensureTemporalCli({ root: ROOT }),
  ]);
}, 180_000);

afterAll(async () => {
  await worker?.shutdown();
  await Promise.all([bare, full].map((s) => s?.stop()));
});

const temporal = (args: string[], address: string) =>
  spawnSync(temporalCli, [...args, '--address', address, '--color', 'never'], { encoding: 'utf8' });

/** Every file under dir, as text (the results of a job), but the sparse work volume images (30 GiB). */
function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(dir, f))
    .filter((f) => statSync(f).isFile() && !f.endsWith('.ext4'))
    .map((f) => readFileSync(f, 'latin1'))
    .join('\n');
}

describe('an existing Temporal server', () => {
  it('gets the search attributes it lacks and runs the job; the API key reaches no output, record or history', async () => {
    const file = writeJob({
      id: 'on-bare',
      trials: 1,
      tasks: ['legal-nda-review'],
      systems: [{ id: 'oracle', harness: 'oracle' }],
    });
    // envconfig turns TLS on with an API key; the local server speaks plain text, so TLS is turned off.
    const env = { TEMPORAL_API_KEY: API_KEY, TEMPORAL_TLS: 'false' };
    const run = collectOutput(spawnCli(['run', file], bare.address, env));
    expect(await run.exit, run.text()).toBe(0);
    expect(run.text()).toContain(`namespace default on ${bare.address}: retention 24 h -> 720 h`);
    expect(run.text()).toContain(
      'search attributes AssayJob, AssaySystem, AssayTask, AssayHarness, AssayModel, AssayHost registered',
    );
    const results = path.join(path.dirname(file), 'results');
    expect((await readTrials(results)).map((r) => r.system.id)).toEqual(['oracle']);

    const status = collectOutput(spawnCli(['status', file, '--json'], bare.address, env));
    expect(await status.exit, status.text()).toBe(0);
    const histories = ['assay-job:on-bare', 'assay-trial:on-bare:oracle:legal-nda-review:1'].map(
      (id) => temporal(['workflow', 'show', '--workflow-id', id, '--output', 'json'], bare.address).stdout,
    );
    expect(histories[1]).toContain('EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED');
    // Payloads (workflow inputs and results) are base64 in the JSON history: read them decoded too.
    const payloads = histories.flatMap((h) =>
      [...h.matchAll(/"data": "([A-Za-z0-9+/=]+)"/g)].map((m) => Buffer.from(m[1] ?? '', 'base64').toString('utf8')),
    );
    expect(payloads.join('\n')).toContain('legal-nda-review');
    for (const text of [run.text(), status.text(), allText(results), ...histories, ...payloads])
      expect(text).not.toContain(API_KEY);
  }, 300_000);

  it('that refuses the search attributes stops `run` before anything is submitted, and `status` says why', async () => {
    const file = writeJob({
      id: 'refused',
      trials: 1,
      tasks: ['legal-nda-review'],
      systems: [{ id: 'nop', harness: 'nop' }],
    });
    const run = collectOutput(spawnCli(['run', file, '--no-worker'], full.address));
    expect(await run.exit).toBe(1);
    const sentence = run.text().trim().split('\n').pop() ?? '';
    expect(sentence).toMatch(
      /^assay: Namespace "default" on 127\.0\.0\.1:\d+ lacks assay's search attributes AssayJob, .* \(Keyword\) and assay could not create them \(Unable to create search attributes: cannot have more than 10 search attribute of type Keyword\); create them with `temporal operator search-attribute create --address .* --name AssayJob --type Keyword && /,
    );
    expect(temporal(['workflow', 'count'], full.address).stdout).toMatch(/Total: 0\b/);
    const status = collectOutput(spawnCli(['status', file], full.address));
    expect(await status.exit).toBe(1);
    expect(status.text()).toContain(`lacks assay's search attributes AssayJob`);
  }, 120_000);

  it("that refuses to start the job workflow: `run` says the server's reason", async () => {
    const id = 'a-job-id-that-is-far-too-long-for-this-server-s-limit-x';
    const file = writeJob({ id, trials: 1, tasks: ['legal-nda-review'], systems: [{ id: 'nop', harness: 'nop' }] });
    const run = collectOutput(spawnCli(['run', file, '--no-worker'], bare.address));
    expect(await run.exit).toBe(1);
    expect(run.text().trim().split('\n').pop()).toBe(
      `assay: the Temporal server at ${bare.address} (namespace default) did not start workflow assay-job:${id}: ` +
        'WorkflowId exceeds maximum allowed length (65/60)',
    );
  }, 60_000);

  it('a TLS client certificate that does not exist is one sentence naming the file', async () => {
    const file = writeJob({
      id: 'bad-cert',
      trials: 1,
      tasks: ['legal-nda-review'],
      systems: [{ id: 'nop', harness: 'nop' }],
    });
    const env = { TEMPORAL_TLS_CLIENT_CERT_PATH: '/nonexistent/client.pem', TEMPORAL_TLS_CLIENT_KEY_PATH: file };
    const status = collectOutput(spawnCli(['status', file], bare.address, env));
    expect(await status.exit).toBe(1);
    expect(status.text().trim()).toBe(
      'assay: Cannot read the Temporal TLS client certificate /nonexistent/client.pem (from TEMPORAL_TLS_CLIENT_CERT_PATH): no such file.',
    );
  }, 60_000);

  it('a workflow task failing forever ends `run` with the workflow and the failure, and shows in `status`', async () => {
    const file = writeJob({
      id: 'stuck',
      trials: 1,
      tasks: ['legal-nda-review'],
      systems: [{ id: 'nop', harness: 'nop' }],
    });
    const env = { ASSAY_TASK_FAILURE_SECONDS: '2' };
    const run = collectOutput(spawnCli(['run', file, '--no-worker'], bare.address, env));
    await waitFor(
      () => (run.text().includes('workflow assay-job:stuck') ? true : undefined),
      'the job submitted',
      60_000,
    );
    // What the issue saw on a real cluster: the namespace lost a mapping the job's children carry.
    // The worker runs in this process: a CLI worker's preflight would register the attribute again.
    expect(
      temporal(['operator', 'search-attribute', 'remove', '--name', 'AssayModel', '--yes'], bare.address).status,
    ).toBe(0);
    worker = await startWorker({
      address: bare.address,
      namespace: 'default',
      images: { scriptedAgent: image },
      log: () => undefined,
    });
    expect(await run.exit, run.text()).toBe(1);
    const failure =
      /assay: workflow assay-job:stuck is stuck: its workflow task failed \d+ times in a row \(BadSearchAttributes: Namespace default has no mapping defined for search attribute AssayModel\)/;
    expect(run.text()).toMatch(failure);
    // No worker from here on: status's preflight registers the attribute again, and a worker's next
    // try of the task would then succeed before status looks (seen at load 15).
    await worker.shutdown();
    worker = undefined;

    const status = collectOutput(spawnCli(['status', file], bare.address, env));
    expect(await status.exit).toBe(1);
    // status's own preflight registers the attribute again, but the failure it saw is reported.
    expect(status.text()).toMatch(/error: workflow assay-job:stuck is stuck: .*search attribute AssayModel/);
    expect(status.text()).toContain(
      'job "stuck" cannot make progress: one of its workflows has a workflow task that keeps failing',
    );
    temporal(['workflow', 'terminate', '--workflow-id', 'assay-job:stuck', '--reason', 'test done'], bare.address);
  }, 240_000);
});
