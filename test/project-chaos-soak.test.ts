// Soak (opt-in: ASSAY_CHAOS_SOAK=1, ~10 min): the sample project for two systems while the worker is
// killed -9 every 2–14 s after it starts polling, until the job ends; the records must equal an
// undisturbed run's. CHAOS_SEED picks the kill times.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_PROJECT, comparableProject, readProjects } from './support/records.js';
import { collectOutput, spawnCli, useTestServer, writeJob } from './support/e2e.js';

const systems = (delaySeconds: number) => [
  { id: 'oracle', harness: 'oracle', settings: { delaySeconds } },
  { id: 'p07', harness: 'scripted', settings: { agent: 'correction-not-applied', delaySeconds } },
];

describe.skipIf(!process.env.ASSAY_CHAOS_SOAK)('project chaos, random kills', () => {
  const server = useTestServer();
  it('same records after a worker kill every few seconds', async () => {
    const baseFile = writeJob({ id: 'prand-base', trials: 1, projects: [SAMPLE_PROJECT], systems: systems(0) });
    const base = collectOutput(spawnCli(['run', baseFile], server().address));
    expect(await base.exit, base.text()).toBe(0);
    const expected = (await readProjects(path.join(path.dirname(baseFile), 'results')))
      .map((r) => comparableProject(r))
      .sort((a, b) => a.system.localeCompare(b.system));

    const file = writeJob({ id: 'prand', trials: 1, projects: [SAMPLE_PROJECT], systems: systems(4), concurrency: 2 });
    const logs: string[] = [];
    const spawnWorker = () =>
      collectOutput(
        spawnCli(['worker'], server().address, { ASSAY_FAULT_DELAYS: 'evaluate=4000,snapshot=4000,release=4000' }),
      );
    let worker = spawnWorker();
    const submit = collectOutput(
      spawnCli(['run', file, '--no-worker', '--detach', '--heartbeat-seconds', '3'], server().address),
    );
    expect(await submit.exit, submit.text()).toBe(0);
    const status = collectOutput(spawnCli(['status', file, '--wait', '--json'], server().address));
    let done = false;
    void status.exit.then(() => (done = true));
    let kills = 0;
    const seed = Number(process.env.CHAOS_SEED ?? Date.now() % 1000);
    let x = seed;
    const rnd = () => ((x = (x * 1103515245 + 12345) % 2147483648), x / 2147483648);
    while (!done) {
      const w = worker;
      while (!done && !w.text().includes('polling task queues')) await new Promise((r) => setTimeout(r, 200));
      await new Promise((r) => setTimeout(r, 2000 + rnd() * 12000));
      if (done) break;
      process.kill(worker.pid ?? 0, 'SIGKILL');
      await worker.exit;
      logs.push(worker.text());
      kills++;
      worker = spawnWorker();
    }
    expect(await status.exit, status.text()).toBe(0);
    process.kill(worker.pid ?? 0, 'SIGTERM');
    await worker.exit;
    logs.push(worker.text());
    const results = path.join(path.dirname(file), 'results');
    const actual = (await readProjects(results))
      .map((r) => comparableProject(r))
      .sort((a, b) => a.system.localeCompare(b.system));
    console.log(`seed ${seed}, ${kills} kills, results ${results}`);
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      for (const [i, l] of logs.entries()) console.log(`---- worker ${i}\n${l}`);
    }
    expect(actual).toEqual(expected);
  }, 1_500_000);
});
