// The job lock end to end, through the real CLI, a real Temporal dev server and real containers: a job ran
// once, then one rubric item's check and another's importance were edited and the job extended to two trials.
// The next run is refused with the changed items named, before anything is submitted or written; with
// --accept-changes it runs, and each record carries the version of the task it was produced from.
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { jobLockSchema, jobWorkflowId, type JobSpec } from '@assay/core';
import { startViewer } from '../packages/viewer/src/index.js';
import { ROOT, SAMPLE, collectOutput, spawnCli, useTestServer, writeJob } from './support/e2e.js';
import { readTrials } from './support/records.js';

const server = useTestServer();
const bench = path.join(os.tmpdir(), `assay-lock-bench-${process.pid}`);
afterAll(() => rmSync(bench, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number | null; text: string }> {
  const child = collectOutput(spawnCli(args, server().address));
  const code = await child.exit;
  return { code, text: child.text() };
}

/** Every file under `dir` with its size and modification time: what "nothing written" compares. */
function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(path.join(dir, rel)).sort()) {
      const r = path.join(rel, name);
      const st = statSync(path.join(dir, r));
      if (st.isDirectory()) walk(r);
      else out.push(`${r} ${st.size} ${st.mtimeMs}`);
    }
  };
  walk('');
  return out;
}

describe('job lock', () => {
  it('refuses an edited rubric on the next run, naming what changed; --accept-changes records both versions', async () => {
    cpSync(SAMPLE, bench, { recursive: true });
    const job = { id: `lock-e2e-${process.pid}`, benchmark: bench, tasks: ['edu-fractions-lesson'], trials: 1 };
    const file = writeJob({ ...job, systems: [{ id: 'oracle', harness: 'oracle' }] });
    const results = path.join(path.dirname(file), 'results');

    const first = await cli(['run', file]);
    expect(first.code, first.text).toBe(0);
    const [v1] = await readTrials(results);
    expect(v1?.provenance?.unit.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(v1?.provenance?.unit.parts ?? {})).toEqual(['request', 'inputs', 'rubric', 'references']);
    const lock = jobLockSchema.parse(JSON.parse(readFileSync(path.join(results, 'job-lock.json'), 'utf8')));
    expect(lock.units['tasks/edu-fractions-lesson']?.digest).toBe(v1?.provenance?.unit.digest);

    // One item's check and another's importance change; the job asks for a second trial.
    const rubricFile = path.join(bench, 'tasks/edu-fractions-lesson/evaluator/rubric.yaml');
    const rubric = readFileSync(rubricFile, 'utf8');
    const edited = rubric
      .replace('    text: Y5-F3\n', '    text: Y5-F3 add and subtract\n')
      .replace(/(- id: plan-present\n(?:.*\n){1})  importance: core/, '$1  importance: auxiliary');
    expect(edited).not.toBe(rubric);
    writeFileSync(rubricFile, edited);
    writeFileSync(file, readFileSync(file, 'utf8').replace('trials: 1', 'trials: 2'));

    const connection = await Connection.connect({ address: server().address });
    const workflow = new Client({ connection }).workflow.getHandle(jobWorkflowId(job.id));
    const runBefore = (await workflow.describe()).runId;
    const before = listing(results);
    const refused = await cli(['run', file]);
    expect(refused.code, refused.text).toBe(1);
    expect(refused.text).toContain('1 unit of job');
    expect(refused.text).toContain(
      'tasks/edu-fractions-lesson: rubric item plan-present: importance core → auxiliary; item weakest-objective: check changed',
    );
    expect(listing(results)).toEqual(before);
    expect((await workflow.describe()).runId).toBe(runBefore);
    // Re-judging the stored submission against the edited rubric is refused the same way.
    const setup = path.join(path.dirname(file), 'checks.yaml');
    writeFileSync(setup, 'mode: checks-only\n');
    const judged = await cli(['judge', file, '--judge', setup]);
    expect(judged.code, judged.text).toBe(1);
    expect(judged.text).toContain(
      'tasks/edu-fractions-lesson: rubric item plan-present: importance core → auxiliary; item weakest-objective: check changed',
    );
    expect(listing(results)).toEqual(before);

    const accepted = await cli(['run', file, '--accept-changes']);
    expect(accepted.code, accepted.text).toBe(0);
    await connection.close();
    const trials = (await readTrials(results)).sort((a, b) => a.trial - b.trial);
    expect(trials.map((t) => t.trial)).toEqual([1, 2]);
    const [d1, d2] = trials.map((t) => t.provenance?.unit);
    expect(d1?.digest).toBe(v1?.provenance?.unit.digest);
    expect(d2?.digest).not.toBe(d1?.digest);
    // Only the rubric part differs between them.
    expect(Object.keys(d1?.parts ?? {}).filter((p) => d1?.parts[p] !== d2?.parts[p])).toEqual(['rubric']);
    const after = jobLockSchema.parse(JSON.parse(readFileSync(path.join(results, 'job-lock.json'), 'utf8')));
    expect(after.units['tasks/edu-fractions-lesson']?.digest).toBe(d2?.digest);
    expect(after.superseded.map((s) => [s.unit, s.digest])).toEqual([['tasks/edu-fractions-lesson', d1?.digest]]);

    // The two versions are never pooled: the run's summary, the report and the viewer show them apart.
    const old = d1!.digest.slice(0, 8);
    const split = `tasks/edu-fractions-lesson has records of 2 versions: 1 of ${old} shown as <system>@${old}`;
    expect(accepted.text).toContain(`versions: ${split}`);
    expect(accepted.text).toMatch(new RegExp(`^\\s*oracle@${old}\\s`, 'm'));
    const out = path.join(path.dirname(file), 'report');
    const report = await cli(['report', results, '--out', out]);
    expect(report.code, report.text).toBe(0);
    expect(report.text).toContain(`note: ${job.id}: versions: ${split}`);
    // Checks-only: no trial has every item decided. The report says so in one line and ranks decided items; no
    // sentence is built from empty values.
    const html = readFileSync(path.join(out, 'report.html'), 'utf8');
    expect(html).toContain('No trial has every item decided (2 trials without a full score)');
    expect(html).not.toContain('highest mean score');
    expect(readFileSync(path.join(out, 'tables', 'decided-leaderboard.csv'), 'utf8')).toMatch(/^system,/);
    const viewer = await startViewer({ resultsDirs: [results], clientOutDir: path.join(out, 'client') });
    try {
      const overview = (await (await fetch(`${viewer.url}api/overview`)).json()) as {
        sources: { versions: string[] }[];
        decidedLeaderboard: { system: string }[];
        trials: { trial: number; system: string; version: string }[];
      };
      expect(overview.sources[0]?.versions[0]).toContain(split);
      expect(overview.decidedLeaderboard.map((r) => r.system).sort()).toEqual(['oracle', `oracle@${old}`]);
      expect(overview.trials.map((t) => [t.trial, t.system, t.version]).sort()).toEqual([
        [1, 'oracle', old],
        [2, 'oracle', d2!.digest.slice(0, 8)],
      ]);
    } finally {
      await viewer.close();
    }

    // Each record names the assay that ran it (this checkout) and the image its agent's container ran.
    const jobSpec = (JSON.parse(readFileSync(path.join(results, 'job.json'), 'utf8')) as { spec: JobSpec }).spec;
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    for (const t of trials) {
      expect(t.provenance?.assay).toMatchObject({ version, commit: head });
      expect(typeof t.provenance?.assay?.dirty).toBe('boolean');
      expect(t.provenance?.agentImage).toMatch(/^sha256:[0-9a-f]{64}$/);
      const tag = t.provenance?.agentImageTag ?? '';
      const id = execFileSync('docker', ['image', 'inspect', tag, '--format', '{{.Id}}'], { encoding: 'utf8' });
      expect(t.provenance?.agentImage).toBe(id.trim());
      // The oracle calls no model: no proxy saw one.
      expect(t.provenance?.models).toBeUndefined();
      // The limits as the engine applied them: the job's defaults (job.json), read back from the container.
      const { resources } = jobSpec;
      expect(t.provenance?.resources).toEqual({
        cpus: resources.cpus,
        memoryGiB: resources.memoryGiB,
        pids: resources.pids,
        network: resources.network,
      });
    }

    // Re-judged with --accept-changes: each record keeps the version its agent ran, and one judged against
    // another version names that one too.
    const rejudged = await cli(['judge', file, '--judge', setup, '--accept-changes']);
    expect(rejudged.code, rejudged.text).toBe(0);
    const judgedTrials = (await readTrials(path.join(results, 'judges', 'checks'))).sort((a, b) => a.trial - b.trial);
    expect(judgedTrials.map((t) => [t.provenance?.unit.digest, t.provenance?.judgedUnit?.digest])).toEqual([
      [d1?.digest, d2?.digest],
      [d2?.digest, undefined],
    ]);

    // A system changed under its id, or a changed limit, is refused even with --accept-changes: records are
    // split by unit version, not by system settings, so accepting it would pool the two.
    writeFileSync(
      file,
      stringify({
        ...parse(readFileSync(file, 'utf8')),
        systems: [{ id: 'oracle', harness: 'nop' }],
        resources: { cpus: 1 },
      }),
    );
    const beforeSetup = listing(results);
    const changed = await cli(['run', file, '--accept-changes']);
    expect(changed.code, changed.text).toBe(1);
    expect(changed.text).toContain(`job "${job.id}" no longer runs what its records were made with`);
    expect(changed.text).toContain('systems/oracle: harness oracle → nop');
    expect(changed.text).toContain('job: resources.cpus 2 → 1');
    expect(listing(results)).toEqual(beforeSetup);
  }, 300_000);
});
