// A project's workspace made again from its newest checkpoint: agent runs of later subtasks that
// left no checkpoint (finished, or stopped by pause --now / cancel) go under their attempts/,
// in a folder of files read back through the results store.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LoadedProject } from '@assay/benchmark';
import type { ProjectTrialInput } from '@assay/core';
import { openResultsStore } from '@assay/results';
import type { ProjectContext } from '../src/project-context.js';
import { restoreProjectWorkspace } from '../src/restore-project-workspace.js';

const SUBTASKS = ['t01', 't02', 't03', 't04'];
const project = { spec: { stages: [{ id: 's1', subtasks: SUBTASKS.map((id) => ({ id })) }] } } as LoadedProject;
const sub = (id: string) => `projects/s/p/1/subtasks/${id}`;

function results(files: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-restore-'));
  for (const [key, value] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, key)), { recursive: true });
    writeFileSync(path.join(dir, key), typeof value === 'string' ? value : JSON.stringify(value));
  }
  return dir;
}

describe('restoreProjectWorkspace', () => {
  it('restores the newest checkpoint and sets aside finished and stopped runs after it, finishing a half-made move', async () => {
    const dir = results({
      [`${sub('t01')}/checkpoint.json`]: { manifestSha256: 'x', files: [] },
      [`${sub('t01')}/agent-result.json`]: { exitCode: 0 },
      // Stopped now, after an earlier finished run already set aside.
      [`${sub('t02')}/host.txt`]: 'h1',
      [`${sub('t02')}/stopped.json`]: { reason: 'stopped by assay pause --now' },
      [`${sub('t02')}/attempts/1/agent-result.json`]: { exitCode: 0 },
      // A set-aside that a crash cut off after host.txt: it is finished into the same attempt.
      [`${sub('t03')}/stopped.json`]: { reason: 'stopped by assay cancel' },
      [`${sub('t03')}/attempts/1/host.txt`]: 'h1',
      // Started, nothing that marks it ended: left alone (the next run overwrites host.txt).
      [`${sub('t04')}/host.txt`]: 'h1',
    });
    const store = openResultsStore(dir);
    const ctx = { storeOf: () => store } as unknown as ProjectContext;
    const input = { system: { id: 's' }, projectId: 'p', trial: 1 } as ProjectTrialInput;
    const workspace = path.join(dir, 'workspace');
    mkdirSync(workspace);

    expect(await restoreProjectWorkspace(ctx, input, project, workspace)).toBe('t01');
    expect(await store.has(`${sub('t01')}/agent-result.json`)).toBe(true);
    expect(await store.getJson(`${sub('t02')}/attempts/2/stopped.json`)).toEqual({
      reason: 'stopped by assay pause --now',
    });
    expect(await store.getText(`${sub('t02')}/attempts/2/host.txt`)).toBe('h1');
    expect(await store.has(`${sub('t02')}/stopped.json`)).toBe(false);
    expect(await store.getJson(`${sub('t03')}/attempts/1/stopped.json`)).toEqual({ reason: 'stopped by assay cancel' });
    expect(existsSync(path.join(dir, sub('t03'), 'attempts', '2'))).toBe(false);
    expect(await store.getText(`${sub('t04')}/host.txt`)).toBe('h1');
    expect(existsSync(path.join(dir, sub('t04'), 'attempts'))).toBe(false);
  });
});
