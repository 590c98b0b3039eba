// Hostile-input benchmark: generates every case at run time (bench/hostile/hostile-cases.ts), runs
// each in a fresh process (run-case.ts) with the package's default limits, and prints per case the
// wall time, the peak RSS of that process (the caller of the evidence API) and of its children (the
// parser process, LibreOffice, pdftoppm: sampled from /proc every 10 ms, so a child that dies between
// two samples may have peaked a little higher), and the outcome (the notes, or the crash).
//   pnpm tsx bench/hostile/run-bench.ts [--evidence DIR] [--only a,b] [--timeout-s 120] [--json FILE]
// --evidence points at another checkout's packages/evidence (e.g. a `git worktree` of an older
// commit) to measure it on the same inputs.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BENCH_CASES, makeCase, type BenchCase } from './hostile-cases.js';

const REPO = resolve(import.meta.dirname, '../..');

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
const evidenceDir = resolve(arg('evidence') ?? join(REPO, 'packages/evidence'));
const only = arg('only')?.split(',');
const timeoutMs = Number(arg('timeout-s') ?? 120) * 1000;
const jsonOut = arg('json');

interface CaseResult {
  name: string;
  group: BenchCase['group'];
  seconds: number;
  parentPeakMb: number;
  childPeakMb: number;
  childName: string;
  outcome: string;
}

function statusKb(pid: number, field: string): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

function descendants(pid: number): number[] {
  const out: number[] = [];
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const t of tasks) {
    let kids = '';
    try {
      kids = readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const k of kids.split(/\s+/).filter(Boolean).map(Number)) out.push(k, ...descendants(k));
  }
  return out;
}

function comm(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '?';
  }
}

interface CaseLine {
  ms: number;
  outcome: string;
  parentMaxRssMb: number;
}

function parseLine(line: string): CaseLine | null {
  try {
    return JSON.parse(line) as CaseLine;
  } catch {
    return null;
  }
}

/** Runs one case's process, sampling its and its descendants' peak RSS until it exits. */
function runCase(c: BenchCase, dir: string): Promise<CaseResult> {
  return new Promise((done) => {
    const t0 = performance.now();
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(import.meta.dirname, 'run-case.ts'),
        join(evidenceDir, 'src/index.ts'),
        c.mode,
        dir,
        c.file,
      ],
      { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    let parentPeak = 0;
    let childPeak = 0;
    let childName = '';
    const sample = () => {
      if (!child.pid) return;
      parentPeak = Math.max(parentPeak, statusKb(child.pid, 'VmHWM') / 1024);
      for (const pid of descendants(child.pid)) {
        const hwm = statusKb(pid, 'VmHWM') / 1024;
        if (hwm > childPeak) [childPeak, childName] = [hwm, comm(pid)];
      }
    };
    const poll = setInterval(sample, 10);
    const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code, signal) => {
      clearInterval(poll);
      clearTimeout(killer);
      const wall = (performance.now() - t0) / 1000;
      const last = stdout.trim().split('\n').pop() ?? '';
      const r = parseLine(last);
      const crash = stderr.trim().split('\n').filter(Boolean).slice(-2).join(' / ');
      const outcome = r
        ? r.outcome
        : signal === 'SIGKILL' && wall * 1000 >= timeoutMs
          ? `KILLED after ${timeoutMs / 1000} s (still running)`
          : `CRASH (${signal ?? `exit ${code}`}): ${crash.slice(0, 300)}`;
      done({
        name: c.name,
        group: c.group,
        seconds: r ? r.ms / 1000 : wall,
        parentPeakMb: Math.max(parentPeak, r?.parentMaxRssMb ?? 0),
        childPeakMb: childPeak,
        childName,
        outcome,
      });
    });
  });
}

const cases = BENCH_CASES.filter((c) => !only || only.includes(c.name));
const root = await mkdtemp(join(tmpdir(), 'assay-hostile-bench-'));
const hostDir = await mkdtemp(join(tmpdir(), 'assay-hostile-host-'));
const results: CaseResult[] = [];
try {
  console.log(`evidence package: ${evidenceDir}; ${cases.length} cases; default limits\n`);
  console.log('case | group | time s | parent peak MiB | child peak MiB | outcome');
  for (const c of cases) {
    const t = performance.now();
    const dir = await makeCase(c, root, hostDir);
    const made = ((performance.now() - t) / 1000).toFixed(1);
    const r = await runCase(c, dir);
    results.push(r);
    const child = r.childPeakMb ? `${r.childPeakMb.toFixed(0)} (${r.childName})` : '-';
    console.log(
      `${r.name} | ${r.group} | ${r.seconds.toFixed(2)} | ${r.parentPeakMb.toFixed(0)} | ${child} | ${r.outcome.slice(0, 240)} [input ${made} s]`,
    );
    await rm(dir, { recursive: true, force: true });
  }
  const max = <K extends 'seconds' | 'parentPeakMb' | 'childPeakMb'>(k: K) =>
    results.reduce((a, b) => (b[k] > a[k] ? b : a), results[0]!);
  const crashes = results.filter((r) => /^(CRASH|KILLED)/.test(r.outcome));
  console.log(
    `\nlargest parent peak ${max('parentPeakMb').parentPeakMb.toFixed(0)} MiB (${max('parentPeakMb').name}); ` +
      `largest child peak ${max('childPeakMb').childPeakMb.toFixed(0)} MiB (${max('childPeakMb').name}); ` +
      `longest ${max('seconds').seconds.toFixed(2)} s (${max('seconds').name}); ${crashes.length} crashed or killed` +
      (crashes.length ? `: ${crashes.map((r) => r.name).join(', ')}` : ''),
  );
  if (jsonOut) await writeFile(jsonOut, `${JSON.stringify(results, null, 2)}\n`);
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await rm(root, { recursive: true, force: true });
  await rm(hostDir, { recursive: true, force: true });
  process.exit(); // the socket case's server would keep the loop alive
}
