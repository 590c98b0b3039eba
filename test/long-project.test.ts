// A synthetic 21-subtask project (7 stages x 3) through the real stack, to show
// that histories stay far below Temporal's limits: each subtask is a child
// workflow, so the project's own history grows by a few events per subtask.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readProjects } from './support/records.js';
import { jobWorkflowId, projectTrialKey, projectWorkflowId } from '@assay/core';
import { collectOutput, spawnCli, useTestServer, waitFor, writeJob } from './support/e2e.js';

const STAGES = 7;
const PER_STAGE = 3;
const server = useTestServer();

function writeLongBenchmark(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'assay-long-'));
  const put = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };
  const ids = Array.from({ length: STAGES * PER_STAGE }, (_, i) => `t${String(i + 1).padStart(2, '0')}`);
  put(
    'benchmark.yaml',
    stringify({ schema: 'assay.benchmark/v1', id: 'long', title: 'Long', version: '1', projects: ['long'] }),
  );
  put(
    'projects/long/project.yaml',
    stringify({
      schema: 'assay.project/v1',
      id: 'long',
      title: 'Long project',
      role: 'Analyst',
      objective: 'Keep a running log',
      stages: Array.from({ length: STAGES }, (_, s) => ({
        id: `s${s + 1}`,
        title: `Stage ${s + 1}`,
        releases: [{ id: `brief-${s + 1}`, kind: s % 2 ? 'feedback' : 'material', path: `brief-${s + 1}.md` }],
        subtasks: ids.slice(s * PER_STAGE, (s + 1) * PER_STAGE).map((id) => ({
          id,
          title: `Entry ${id}`,
          instructions: `Write log entry ${id}.`,
          deliverables: [{ path: `log-${id}.md`, format: 'md' }],
        })),
      })),
      finalPackage: ids.slice(-3).map((id) => ({ path: `log-${id}.md`, format: 'md' })),
    }),
  );
  for (let s = 1; s <= STAGES; s++) put(`projects/long/releases/brief-${s}.md`, `# Brief ${s}\n`);
  put(
    'projects/long/evaluator/criteria.yaml',
    stringify({
      schema: 'assay.criteria/v1',
      checkpoints: Object.fromEntries(
        ids.map((id) => [
          id,
          [
            {
              id: 'present',
              text: `log-${id}.md is submitted`,
              weight: 5,
              dimension: 'completeness',
              check: { kind: 'deliverable-present', path: `log-${id}.md`, format: 'md' },
            },
            {
              id: 'entry',
              text: `the entry names ${id}`,
              weight: 3,
              dimension: 'correctness',
              check: { kind: 'text-contains', file: `log-${id}.md`, text: `entry ${id}` },
            },
          ],
        ]),
      ),
      final: [
        {
          id: 'first-kept',
          text: 'the first entry is kept',
          weight: 4,
          dimension: 'completeness',
          target: 'artifact-quality',
          reuses: 't01/entry',
        },
        ...ids.slice(-3).map((id) => ({
          id: `pkg-${id}`,
          text: `log-${id}.md is in the package`,
          weight: 2,
          dimension: 'completeness',
          target: 'package-acceptance',
          check: { kind: 'deliverable-present', path: `log-${id}.md`, format: 'md' },
        })),
      ],
    }),
  );
  // The oracle's outputs after each subtask: every entry so far.
  ids.forEach((id, n) => {
    for (const prev of ids.slice(0, n + 1))
      put(`projects/long/evaluator/reference/${id}/log-${prev}.md`, `# Log\n\nThis is entry ${prev}.\n`);
  });
  return root;
}

describe('a 21-subtask project', () => {
  it('finishes with every checkpoint preserved and small workflow histories', async () => {
    const bench = writeLongBenchmark();
    const file = writeJob({
      id: 'long21',
      benchmark: bench,
      trials: 1,
      systems: [{ id: 'oracle', harness: 'oracle' }],
    });
    const dir = path.dirname(file);
    const worker = collectOutput(spawnCli(['worker'], server().address));
    const submit = collectOutput(spawnCli(['run', file, '--no-worker', '--detach'], server().address));
    expect(await submit.exit, submit.text()).toBe(0);

    // Scripted client feedback mid-project, acknowledged by the workflow.
    const connection = await Connection.connect({ address: server().address });
    const client = new Client({ connection });
    const projectId = projectWorkflowId('long21', projectTrialKey('oracle', 'long', 1));
    await waitFor(
      async () => {
        const p = await client.workflow
          .getHandle(projectId)
          .query<{ checkpoints: unknown[] }>('projectProgress')
          .catch(() => undefined);
        return p && p.checkpoints.length >= 2 ? true : undefined;
      },
      'two checkpoints',
      300_000,
    );
    const note = path.join(dir, 'client-note.md');
    writeFileSync(note, '# Client note\n\nPlease keep entries short.\n');
    const fb = collectOutput(
      spawnCli(
        ['feedback', file, '--system', 'oracle', '--project', 'long', '--file', note, '--json'],
        server().address,
      ),
    );
    expect(await fb.exit, fb.text()).toBe(0);
    expect(fb.text()).toContain('"accepted":true');
    const done = collectOutput(spawnCli(['status', file, '--wait'], server().address));
    expect(await done.exit, done.text()).toBe(0);
    process.kill(worker.pid ?? 0, 'SIGTERM');
    await worker.exit;

    const [record] = await readProjects(path.join(dir, 'results'));
    expect(record?.checkpoints).toHaveLength(21);
    expect(record?.checkpoints.every((c) => c.score === 100)).toBe(true);
    expect(record?.process.score).toBe(100);
    expect(record?.final.score).toBe(100);
    // t01's file is unchanged at the end, so its verdict is reused, not recomputed.
    expect(record?.final.verdicts.find((v) => v.criterionId === 'first-kept')?.source).toBe('reused');
    // The feedback reached the workspace before a later subtask, and is preserved from then on.
    expect(record?.injectedFeedback.map((f) => f.name)).toEqual(['client-note.md']);
    const has = (c: { snapshot: { files: { path: string }[] } }) =>
      c.snapshot.files.some((f) => f.path === 'inputs/feedback/client-note.md');
    expect(has(record!.checkpoints[0]!)).toBe(false);
    expect(has(record!.checkpoints[20]!)).toBe(true);

    const sizes: Record<string, number> = {};
    for (const id of [jobWorkflowId('long21'), projectId, `${projectId}:t21`]) {
      sizes[id] = (await client.workflow.getHandle(id).fetchHistory()).events?.length ?? 0;
    }
    await connection.close();
    console.log(`history events: ${JSON.stringify(sizes)}`);
    expect(Math.max(...Object.values(sizes))).toBeLessThan(1_000);
  }, 600_000);
});
