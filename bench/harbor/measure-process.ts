// Runs one orchestrator command under measure-tree.py (a child subreaper: CPU of the whole tree,
// orphans included) while sampling /proc every 100 ms for the peak RSS of the orchestrator process
// and of its whole process tree (containers are the Docker engine's children, not counted).
import { spawn } from 'node:child_process';
import { openSync, readdirSync, readFileSync, closeSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const MEASURE = path.join(import.meta.dirname, 'measure-tree.py');
const PAGE_KB = 4;

export interface Measured {
  exitCode: number;
  startMs: number;
  endMs: number;
  wallSeconds: number;
  cpuSeconds: number;
  orchestratorPeakRssMb: number;
  treePeakRssMb: number;
  /** Most processes in the tree at one sample. */
  treePeakProcesses: number;
}

interface ProcInfo {
  ppid: number;
  rssKb: number;
}

function readProcs(): Map<number, ProcInfo> {
  const out = new Map<number, ProcInfo>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // After the command: state(0) ppid(1) ... rss is field 24 of stat = index 21 here.
      out.set(Number(name), { ppid: Number(fields[1]), rssKb: Number(fields[21]) * PAGE_KB });
    } catch {
      // The process exited between readdir and read.
    }
  }
  return out;
}

/** RSS of `root` and of its whole tree (KB), and the tree's size. */
export function sampleTree(root: number): { rootKb: number; treeKb: number; count: number } {
  const procs = readProcs();
  const children = new Map<number, number[]>();
  for (const [pid, p] of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), pid]);
  let treeKb = 0;
  let count = 0;
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    const p = procs.get(pid);
    if (p) {
      treeKb += p.rssKb;
      count++;
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return { rootKb: procs.get(root)?.rssKb ?? 0, treeKb, count };
}

export async function runMeasured(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; logFile: string },
): Promise<Measured> {
  const dir = mkdtempSync(path.join(tmpdir(), 'assay-measure-'));
  const resultFile = path.join(dir, 'result.json');
  const resultFd = openSync(resultFile, 'w');
  const logFd = openSync(opts.logFile, 'a');
  const child = spawn('python3', [MEASURE, cmd, ...args], {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['ignore', logFd, logFd, resultFd],
  });
  closeSync(resultFd);
  closeSync(logFd);
  let rootPeak = 0;
  let treePeak = 0;
  let mostProcs = 0;
  const wrapper = child.pid ?? 0;
  const timer = setInterval(() => {
    try {
      // The wrapper's own few MB are left out: the tree below it is the orchestrator's.
      const s = sampleTree(wrapper);
      const own = readProcs().get(wrapper)?.rssKb ?? 0;
      const kids = readFileSync(`/proc/${wrapper}/task/${wrapper}/children`, 'utf8').trim().split(/\s+/);
      const orchestrator = Number(kids[0]);
      if (orchestrator > 0) rootPeak = Math.max(rootPeak, sampleTree(orchestrator).rootKb);
      treePeak = Math.max(treePeak, s.treeKb - own);
      mostProcs = Math.max(mostProcs, s.count - 1);
    } catch {
      // The wrapper is exiting.
    }
  }, 100);
  const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? -1)));
  clearInterval(timer);
  const r = JSON.parse(readFileSync(resultFile, 'utf8')) as {
    exitCode: number;
    startMs: number;
    endMs: number;
    userSeconds: number;
    systemSeconds: number;
  };
  if (code !== 0) throw new Error(`${cmd}: measuring wrapper failed (${code}); see ${opts.logFile}`);
  return {
    exitCode: r.exitCode,
    startMs: r.startMs,
    endMs: r.endMs,
    wallSeconds: (r.endMs - r.startMs) / 1000,
    cpuSeconds: r.userSeconds + r.systemSeconds,
    orchestratorPeakRssMb: rootPeak / 1024,
    treePeakRssMb: treePeak / 1024,
    treePeakProcesses: mostProcs,
  };
}

/** CPU seconds (user + system) a running process has used so far, e.g. the Temporal server. */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

/** Resident memory of one process now, in MB. */
export function processRssMb(pid: number): number {
  return (readProcs().get(pid)?.rssKb ?? 0) / 1024;
}
