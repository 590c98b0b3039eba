// Child-process helpers: capture output, or stream it to a log file with a heartbeat
// so that minute-long steps (apt, debootstrap, docker build) show they are alive.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { messages } from './messages.js';

export type Log = (line: string) => void;

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  input?: string;
  timeoutMs?: number;
}

function describeCommand(cmd: string, args: readonly string[]): string {
  return [cmd, ...args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** Runs a command to completion and captures its output; never throws on a non-zero exit. */
export function run(cmd: string, args: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = opts.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs) : undefined;
    child.on('error', (err) => {
      if (timer) clearTimeout(timer);
      reject((err as NodeJS.ErrnoException).code === 'ENOENT' ? new Error(messages.commandMissing(cmd)) : err);
    });
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** Like run, but throws a readable error on a non-zero exit. */
export async function runChecked(cmd: string, args: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
  const result = await run(cmd, args, opts);
  if (result.code !== 0) {
    throw new Error(
      messages.commandFailed(describeCommand(cmd, args), result.code, tailLines(result.stderr + result.stdout, 15)),
    );
  }
  return result;
}

export interface LoggedOptions extends RunOptions {
  log: Log;
  logFile: string;
  heartbeatMs?: number;
}

/** Runs a long command, appending its output to logFile and reporting progress through log. */
export function runLogged(cmd: string, args: readonly string[], opts: LoggedOptions): Promise<void> {
  fs.mkdirSync(path.dirname(opts.logFile), { recursive: true });
  const command = describeCommand(cmd, args);
  const out = fs.openSync(opts.logFile, 'a');
  fs.writeSync(out, `\n$ ${command}\n`);
  const started = Date.now();
  let lastLine = '';
  let recent: string[] = [];
  const onData = (d: Buffer) => {
    fs.writeSync(out, d);
    const lines = d
      .toString('utf8')
      .split('\n')
      .map((l) => l.trimEnd())
      .filter(Boolean);
    if (lines.length) {
      lastLine = lines[lines.length - 1] ?? lastLine;
      recent = [...recent, ...lines].slice(-20);
    }
  };
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const beat = setInterval(() => {
      const secs = Math.round((Date.now() - started) / 1000);
      opts.log(`  … ${path.basename(cmd)} still running (${secs} s)${lastLine ? `: ${lastLine.slice(0, 120)}` : ''}`);
    }, opts.heartbeatMs ?? 15_000);
    const timer = opts.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs) : undefined;
    const finish = (err?: Error) => {
      clearInterval(beat);
      if (timer) clearTimeout(timer);
      fs.closeSync(out);
      if (err) reject(err);
      else resolve();
    };
    child.on('error', (err) =>
      finish((err as NodeJS.ErrnoException).code === 'ENOENT' ? new Error(messages.commandMissing(cmd)) : err),
    );
    child.on('close', (code) => {
      if (code === 0) finish();
      else finish(new Error(messages.commandFailed(command, code, recent.join('\n'), opts.logFile)));
    });
  });
}

function tailLines(text: string, n: number): string {
  return text.trimEnd().split('\n').slice(-n).join('\n');
}

export function tailFile(file: string, n: number): string {
  try {
    return tailLines(fs.readFileSync(file, 'utf8'), n);
  } catch {
    return '';
  }
}

/** Finds an executable on PATH, like `which`. */
export function which(cmd: string, searchPath = process.env.PATH ?? ''): string | undefined {
  const dirs = [...searchPath.split(':'), '/usr/sbin', '/sbin', '/usr/local/sbin'];
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = path.join(dir, cmd);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The command line of a live process, or '' (Linux /proc). */
export function processCommandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function readPidFile(file: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8').trim(), 10);
    return Number.isFinite(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Spawns a long-lived daemon in its own process group, output to logFile; returns its pid. */
export function spawnDetached(cmd: string, args: readonly string[], logFile: string, env?: NodeJS.ProcessEnv): number {
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const out = fs.openSync(logFile, 'a');
  fs.writeSync(out, `\n$ ${describeCommand(cmd, args)}   # ${new Date().toISOString()}\n`);
  const child = spawn(cmd, args, { detached: true, stdio: ['ignore', out, out], env: env ?? process.env });
  fs.closeSync(out);
  child.unref();
  if (child.pid === undefined) throw new Error(messages.commandMissing(cmd));
  return child.pid;
}
