// Short commands of a trial's work volume (mkfs.ext4, mount, umount) run from a small long-lived
// Python process instead of the worker. Node forks the whole worker on its event loop's thread for
// each spawn: about 7 ms of a 220 MB worker blocked per command, three commands per trial, while
// the other trials' activities and workflow tasks wait (profiled: 40 % of the worker's busy main
// thread). The helper forks a 10 MB process, off the worker's thread; the worker writes one line.
// Without /usr/bin/python3, or once the helper has died, commands are spawned directly as before.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** Reads JSON lines {id, argv}; runs each in a thread; answers {id, code, stdout, stderr}; exits at EOF. */
const HELPER = String.raw`
import json, subprocess, sys, threading
lock = threading.Lock()
def run(req):
    try:
        p = subprocess.run(req["argv"], stdin=subprocess.DEVNULL, capture_output=True, timeout=600)
        out = {"id": req["id"], "code": p.returncode, "stdout": p.stdout.decode(errors="replace"), "stderr": p.stderr.decode(errors="replace")}
    except Exception as e:
        out = {"id": req["id"], "code": -1, "stdout": "", "stderr": str(e)}
    with lock:
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()
threads = []
for line in sys.stdin:
    t = threading.Thread(target=run, args=(json.loads(line),))
    t.start()
    threads.append(t)
    threads = [t for t in threads if t.is_alive()]
for t in threads:
    t.join()
`;

const PYTHON = '/usr/bin/python3';

interface Reply {
  id: number;
  code: number;
  stdout: string;
  stderr: string;
}

/** An execFile-like failure: the command's stderr is on the error, as callers read it. */
export class CommandFailed extends Error {
  override name = 'CommandFailed';
  constructor(
    readonly argv: string[],
    readonly code: number,
    readonly stderr: string,
  ) {
    super(`${argv.join(' ')} exited ${code}: ${stderr.trim().split('\n')[0] ?? ''}`);
  }
}

let helper: ChildProcess | null = null;
let unusable = !existsSync(PYTHON);
let nextId = 1;
const pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();

function startHelper(): ChildProcess | null {
  if (helper) return helper;
  if (unusable) return null;
  const child = spawn(PYTHON, ['-I', '-c', HELPER], { stdio: ['pipe', 'pipe', 'ignore'] });
  child.on('error', () => undefined);
  child.stdin?.on('error', () => undefined);
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const reply = JSON.parse(line) as Reply;
    pending.get(reply.id)?.resolve(reply);
    pending.delete(reply.id);
  });
  child.once('exit', () => {
    // What it was running may or may not have run: its callers get an error, later commands spawn directly.
    helper = null;
    unusable = true;
    for (const { reject } of pending.values()) reject(new Error('the command helper exited'));
    pending.clear();
  });
  // Idle, it never keeps the worker alive (it exits when the worker's end of its stdin closes);
  // with a command under way, it does.
  holdOpen(child, false);
  helper = child;
  return child;
}

function holdOpen(child: ChildProcess, hold: boolean): void {
  for (const h of [child, child.stdin, child.stdout] as unknown as { ref?: () => void; unref?: () => void }[])
    if (hold) h?.ref?.();
    else h?.unref?.();
}

/** Run `file args`, resolving with its output, rejecting with CommandFailed (stderr on it) on a non-zero exit. */
export async function runCommand(file: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  const child = startHelper();
  if (!child?.stdin) return execFileAsync(file, args);
  const id = nextId++;
  if (pending.size === 0) holdOpen(child, true);
  const reply = await new Promise<Reply>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    child.stdin!.write(`${JSON.stringify({ id, argv: [file, ...args] })}\n`);
  }).finally(() => {
    if (pending.size === 0 && helper === child) holdOpen(child, false);
  });
  if (reply.code !== 0) throw new CommandFailed([file, ...args], reply.code, reply.stderr);
  return { stdout: reply.stdout, stderr: reply.stderr };
}
