// Issue #10 part 5: two simulated hosts as close to two machines as one machine allows. Each host
// is its own dockerd (socket, data root, exec root, containerd, cgroup) and its own worker (host
// id, work root); the results go to one S3 bucket (versitygw) and Temporal is temporal-server on
// PostgreSQL. The sample job (one trial per unit) spreads over both hosts. Then the same job
// again, and while a project's subtask 2 runs, that host dies: its worker and every process of
// its engine are killed -9. The job finishes on the other host; its records equal the first
// run's, no finished subtask runs again, and nothing is left running on the survivor.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  baseImageTag,
  ensureVersitygw,
  freePort,
  freeProductionTemporalPort,
  startProductionTemporal,
  startS3Server,
  stopProductionTemporal,
  type S3Server,
} from '@assay/infra';
import { openResultsStore, subtaskDirKey } from '@assay/results';
import {
  projectTrialKey,
  projectWorkflowId,
  trialKey,
  type ProjectRecord,
  type SystemSpec,
  type TrialRecord,
} from '@assay/core';
import {
  ROOT,
  collectOutput,
  ensureAgentImage,
  spawnCli,
  unmountUnder,
  waitFor,
  watchContainerCreates,
  writeJob,
} from './support/e2e.js';
import { startDockerHost, type DockerHost } from './support/docker-host.js';
import { SAMPLE_PROJECT, SAMPLE_SUBTASKS, comparableProject, readProjects, readTrials } from './support/records.js';

const HOSTS = ['mhe-a', 'mhe-b'] as const;
type Host = (typeof HOSTS)[number];
const BUCKET = 'assay-hosts';
const PROJECT = SAMPLE_PROJECT;
const SUBTASKS = SAMPLE_SUBTASKS;
const sampleSystems = (parse(readFileSync(path.join(ROOT, 'jobs/sample.yaml'), 'utf8')) as { systems: SystemSpec[] })
  .systems;

const scratch = mkdtempSync(path.join(os.tmpdir(), 'assay-engines-'));
// PostgreSQL runs as the postgres user, which must reach its data folder.
chmodSync(scratch, 0o755);
const workRoots = Object.fromEntries(HOSTS.map((h) => [h, path.join(scratch, `work-${h}`)])) as Record<Host, string>;
const engines = {} as Record<Host, DockerHost>;
let s3: S3Server;
let temporal = { port: 0, postgresPort: 0, address: '' };
let env: Record<string, string> = {};
const where = () => ({ root: ROOT, stateDir: path.join(scratch, 'temporal'), ...temporal });

beforeAll(async () => {
  const agentImage = await ensureAgentImage();
  temporal = { port: await freeProductionTemporalPort(), postgresPort: await freePort(), address: '' };
  const startS3 = async () => {
    const binary = await ensureVersitygw({ root: ROOT });
    mkdirSync(path.join(scratch, 's3', BUCKET), { recursive: true });
    return startS3Server({
      binary,
      dataDir: path.join(scratch, 's3'),
      accessKey: `hosts${randomBytes(6).toString('hex')}`,
      secretKey: randomBytes(24).toString('hex'),
      logFile: path.join(scratch, 'versitygw.log'),
    });
  };
  const [server, store] = await Promise.all([
    startProductionTemporal({ ...where(), log: (l) => console.log(l) }),
    startS3(),
    ...HOSTS.map(async (h) => {
      engines[h] = await startDockerHost(h, path.join(scratch, `engine-${h}`), [baseImageTag(), agentImage]);
    }),
  ]);
  temporal.address = server.address;
  s3 = store;
  env = {
    ASSAY_S3_ENDPOINT: s3.endpoint,
    AWS_ACCESS_KEY_ID: s3.accessKey,
    AWS_SECRET_ACCESS_KEY: s3.secretKey,
    AWS_REGION: 'us-east-1',
    ASSAY_HOST_WAIT_SECONDS: '5',
    ASSAY_HEARTBEAT_SECONDS: '4',
  };
  // This process reads the bucket through the same store the CLI uses.
  Object.assign(process.env, { ...env });
}, 40 * 60_000);

afterAll(async () => {
  for (const k of Object.keys(env)) delete process.env[k];
  await Promise.all(Object.values(engines).map((e) => e.remove()));
  for (const root of Object.values(workRoots)) unmountUnder(root);
  if (temporal.port) await stopProductionTemporal(where());
  await s3?.stop();
  rmSync(scratch, { recursive: true, force: true });
}, 120_000);

function startWorker(host: Host) {
  const args = ['worker', '--host-id', host, '--work-root', workRoots[host]];
  return collectOutput(spawnCli(args, temporal.address, { ...env, DOCKER_HOST: engines[host].url }));
}

async function runCli(args: string[]): Promise<string> {
  const child = collectOutput(spawnCli(args, temporal.address, env));
  expect(await child.exit, child.text()).toBe(0);
  return child.text();
}

/** Runs the job on the two hosts' workers; `during` runs while it does. */
function sampleJob(id: string, delaySeconds: number): { file: string; results: string } {
  const systems = sampleSystems.map((s) => ({ ...s, settings: { ...s.settings, delaySeconds } }));
  const results = `s3://${BUCKET}/${id}`;
  return { file: writeJob({ id, trials: 1, concurrency: 4, systems, results }), results };
}

// Scripted agents that write office files at run time make new bytes each run (zip entries carry
// the time), so the hashes quoted in evidence differ; the decisions and reasons must not.
const withoutHashes = <T>(v: T): T =>
  JSON.parse(JSON.stringify(v).replace(/sha256 [0-9a-f]{8,}…?/g, 'sha256 <hash>')) as T;
const outcomeOf = (r: TrialRecord) => ({ status: r.status, score: r.score, verdicts: withoutHashes(r.verdicts) });
const trialsByKey = (rs: TrialRecord[]) =>
  Object.fromEntries(rs.map((r) => [trialKey(r.system.id, r.task.id, r.trial), outcomeOf(r)]));

/** The sample agent that writes its workbooks at run time (new bytes each run) rather than copying them. */
const WRITES_AT_RUN_TIME = ['no-cached-values'];
const projectsBySystem = (rs: ProjectRecord[]) =>
  Object.fromEntries(rs.map((r) => [r.system.id, comparableProject(r, WRITES_AT_RUN_TIME)]));

describe('two hosts, two Docker engines, PostgreSQL Temporal, one S3 bucket', () => {
  let reference: { trials: Record<string, unknown>; projects: Record<string, unknown> };

  it(
    'spreads the sample job over both hosts, every record in the bucket with its host',
    async () => {
      const workers = HOSTS.map(startWorker);
      const job = sampleJob('mhe-spread', 0);
      await runCli(['run', job.file, '--no-worker', '--json']);
      for (const w of workers) process.kill(w.pid!, 'SIGTERM');
      await Promise.all(workers.map((w) => w.exit));

      const [trials, projects] = [await readTrials(job.results), await readProjects(job.results)];
      expect(trials).toHaveLength(6 * sampleSystems.length);
      expect(projects).toHaveLength(sampleSystems.length);
      expect(new Set(trials.map((r) => r.host))).toEqual(new Set(HOSTS));
      for (const r of [...trials, ...projects]) expect(r.moves ?? []).toEqual([]);
      reference = { trials: trialsByKey(trials), projects: projectsBySystem(projects) };
      for (const h of HOSTS) expect(await engines[h].docker.listContainers({ all: true })).toEqual([]);
    },
    20 * 60_000,
  );

  it(
    'finishes the job on the other host when one dies in a project subtask, records equal, nothing run twice',
    async () => {
      const JOB = 'mhe-kill';
      const job = sampleJob(JOB, 6);
      const creates = Object.fromEntries(
        await Promise.all(HOSTS.map(async (h) => [h, await watchContainerCreates(JOB, engines[h].docker)] as const)),
      ) as Record<Host, Awaited<ReturnType<typeof watchContainerCreates>>>;
      const workers = Object.fromEntries(HOSTS.map((h) => [h, startWorker(h)]));
      await runCli(['run', job.file, '--no-worker', '--detach']);

      // The host running some project's subtask 2, once that agent's container runs there.
      const { victim, container } = await waitFor(
        async () => {
          for (const h of HOSTS) {
            const running = await engines[h].docker.listContainers({
              filters: { label: [`assay.job=${JOB}`, `assay.subtask=${SUBTASKS[1]}`], status: ['running'] },
            });
            if (running[0]) return { victim: h, container: running[0] };
          }
          return undefined;
        },
        'a project subtask 2 to run',
        600_000,
      );
      const survivor = HOSTS.find((h) => h !== victim)!;
      process.kill(workers[victim]!.pid!, 'SIGKILL');
      engines[victim].kill();
      // Subtasks whose checkpoint was recorded before the host died: finished, never to run again.
      const store = openResultsStore(job.results);
      const finished: string[] = [];
      for (const s of sampleSystems)
        for (const t of SUBTASKS)
          if (await store.has(`${subtaskDirKey(s.id, PROJECT, 1, t)}/checkpoint-record.json`))
            finished.push(`${projectWorkflowId(JOB, projectTrialKey(s.id, PROJECT, 1))}:${t}`);

      const status = await runCli(['status', job.file, '--wait', '--json']);
      expect(JSON.parse(status.slice(status.indexOf('{'))).workflow.status).toBe('COMPLETED');
      process.kill(workers[survivor]!.pid!, 'SIGTERM');
      await workers[survivor]!.exit;
      for (const c of Object.values(creates)) c.stop();

      const [trials, projects] = [await readTrials(job.results), await readProjects(job.results)];
      expect(trialsByKey(trials)).toEqual(reference.trials);
      expect(projectsBySystem(projects)).toEqual(reference.projects);

      // The project whose subtask 2 died: restored from subtask 1's checkpoint on the survivor.
      const moved = projects.find((r) =>
        container.Labels['assay.workflow-id']?.startsWith(
          projectWorkflowId(JOB, projectTrialKey(r.system.id, PROJECT, 1)),
        ),
      );
      expect(moved?.host).toBe(survivor);
      expect(moved?.moves).toEqual([
        expect.objectContaining({ from: victim, to: survivor, restoredFrom: SUBTASKS[0], session: 'restarted' }),
      ]);
      expect(moved?.checkpoints.map((c) => c.host)).toEqual(SUBTASKS.map((_, i) => (i === 0 ? victim : survivor)));
      // Both hosts ran trials, and every trial the victim had not finished moved to the survivor.
      expect(new Set(trials.map((r) => r.host))).toEqual(new Set(HOSTS));
      for (const r of trials.filter((t) => (t.moves ?? []).length > 0))
        expect(r.moves?.map((m) => [m.from, m.to])).toEqual([[victim, survivor]]);

      // No finished subtask ran again: one agent container each, on whichever engine ran it.
      const counts = new Map<string, number>();
      for (const id of [...creates[victim].workflowIds(), ...creates[survivor].workflowIds()])
        counts.set(id, (counts.get(id) ?? 0) + 1);
      expect(finished.length).toBeGreaterThan(0);
      for (const id of finished) expect(counts.get(id), id).toBe(1);
      // Nothing left running or stopped on the surviving engine.
      expect(await engines[survivor].docker.listContainers({ all: true })).toEqual([]);
    },
    30 * 60_000,
  );
});
