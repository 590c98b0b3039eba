// Runs a rendering tool (LibreOffice, pdfinfo, pdftoppm) under a time limit and an address-space
// cap: the command is started through `prlimit --as` when prlimit exists, in its own process group
// that is killed whole when the time is up (soffice leaves helpers behind).
import { spawn } from 'node:child_process';

export interface ToolResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  missing: boolean;
  /** The address-space cap was in force (prlimit ran). */
  capped: boolean;
}

let prlimitMissing = false;

/** prlimit's way of saying the command itself does not exist. */
const NOT_EXECUTED = /prlimit: failed to execute .*: (No such file or directory|Permission denied)/;

export async function runTool(cmd: string, args: string[], timeoutMs: number, memoryMb: number): Promise<ToolResult> {
  if (!prlimitMissing) {
    const bytes = memoryMb * 1024 * 1024;
    const r = await spawnTool('prlimit', [`--as=${bytes}:${bytes}`, cmd, ...args], timeoutMs);
    if (r.missing) prlimitMissing = true;
    else return { ...r, missing: r.code === 127 && NOT_EXECUTED.test(r.stderr), capped: true };
  }
  return { ...(await spawnTool(cmd, args, timeoutMs)), capped: false };
}

function spawnTool(cmd: string, args: string[], timeoutMs: number): Promise<Omit<ToolResult, 'capped'>> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const child = spawn(cmd, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(
      () => {
        timedOut = true;
        killGroup();
      },
      Math.max(1, timeoutMs),
    );
    // Bounded: a tool's output is only read for a page count or an error message.
    child.stdout.on('data', (d: Buffer) => (stdout = (stdout + d.toString('utf8')).slice(-200_000)));
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString('utf8')).slice(-2000)));
    child.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ code: null, signal: null, stdout, stderr: err.message, timedOut, missing: err.code === 'ENOENT' });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      killGroup();
      resolve({ code, signal, stdout, stderr, timedOut, missing: false });
    });
  });
}
