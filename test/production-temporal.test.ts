// The production server end to end: temporal-server v1.32.2 on PostgreSQL (built from the Go module
// proxy, schema by temporal-sql-tool), a job run on it through the CLI as on any external cluster,
// then the server restarted: the finished job and its search attributes are still there.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ensureScriptedAgentImage,
  freePort,
  freeProductionTemporalPort,
  startProductionTemporal,
  stopProductionTemporal,
  temporalCliPath,
} from '@assay/infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTrials } from './support/records.js';
import { ROOT, collectOutput, spawnCli, writeJob } from './support/e2e.js';

// Its own folder for PostgreSQL's data and the server's state, so the test never touches a user's;
// the built binaries and the CLI venv are the repository's (the first build takes minutes).
const stateDir = mkdtempSync(path.join(os.tmpdir(), 'assay-production-'));
// PostgreSQL runs as the postgres user, which must be able to reach its data folder.
chmodSync(stateDir, 0o755);
const where = () => ({ root: ROOT, stateDir, port, postgresPort });
let port = 0;
let postgresPort = 0;
let address = '';

beforeAll(async () => {
  [port, postgresPort] = [await freeProductionTemporalPort(), await freePort()];
  await ensureScriptedAgentImage({ root: ROOT });
  address = (await startProductionTemporal({ ...where(), log: (l) => console.log(l) })).address;
}, 40 * 60_000);

afterAll(async () => {
  if (port) await stopProductionTemporal(where());
  rmSync(stateDir, { recursive: true, force: true });
});

describe('a job on temporal-server on PostgreSQL', () => {
  it('runs, and survives a server restart with its history and search attributes', async () => {
    const file = writeJob({
      id: 'on-postgres',
      trials: 1,
      tasks: ['fin-term-loan-schedule', 'legal-nda-review'],
      concurrency: 2,
      systems: [
        { id: 'oracle', harness: 'oracle' },
        { id: 'nop', harness: 'nop' },
      ],
    });
    const run = collectOutput(spawnCli(['run', file], address));
    expect(await run.exit, run.text()).toBe(0);
    const records = await readTrials(path.join(path.dirname(file), 'results'));
    expect(records.map((r) => `${r.system.id}/${r.task.id}`).sort()).toEqual([
      'nop/fin-term-loan-schedule',
      'nop/legal-nda-review',
      'oracle/fin-term-loan-schedule',
      'oracle/legal-nda-review',
    ]);

    await stopProductionTemporal(where());
    await startProductionTemporal(where());
    const status = collectOutput(spawnCli(['status', file, '--json'], address));
    expect(await status.exit, status.text()).toBe(0);
    const json = JSON.parse(status.text().slice(status.text().indexOf('{'))) as { workflow: { status: string } };
    expect(json.workflow.status).toBe('COMPLETED');
    // The trials are found by search attribute, which only works when the namespace has them registered.
    const list = spawnSync(
      temporalCliPath(ROOT),
      ['workflow', 'count', '--address', address, '--query', "AssayJob = 'on-postgres' AND AssaySystem = 'oracle'"],
      { encoding: 'utf8' },
    );
    expect(list.stdout + list.stderr).toMatch(/Total: 2\b/);
  }, 600_000);
});
