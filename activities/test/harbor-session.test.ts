// A model CLI's session folder on a multi-step Harbor trial: one per step; under resume_trajectory a step starts
// with the previous step's folder as that step's run left it, and counts only what it appends itself.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SystemSpec } from '@assay/core';
import { prepareHarnessRun, startModelProxy, type ModelProxy } from '@assay/harnesses';
import { harborSessionPaths, startHarborSession } from '../src/harbor/harbor-session.js';

let tmp: string;
let proxy: ModelProxy;
beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-harbor-session-'));
  proxy = await startModelProxy({ port: 0 });
});
afterAll(async () => {
  await proxy.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const ROLLOUT = '.codex/sessions/2026/12/06/rollout-2026-12-06T04-00-00-thread.jsonl';
const tokenCount = (input: number, cached: number, output: number) =>
  `${JSON.stringify({
    type: 'event_msg',
    payload: {
      type: 'token_count',
      info: { total_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output } },
    },
  })}\n`;

/** Every file and link under `dir`, relative, with its content (a link: its target). */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const p = path.join(e.parentPath, e.name);
    const rel = path.relative(dir, p);
    if (e.isSymbolicLink()) out[rel] = `-> ${fs.readlinkSync(p)}`;
    else if (e.isFile()) out[rel] = fs.readFileSync(p, 'utf8');
  }
  return out;
}

/** Step 1's folder as its codex run left it: config, a rollout, a link to its auth file. */
function finishedFirstStep(workDir: string) {
  const first = harborSessionPaths(workDir, 'first');
  fs.mkdirSync(path.join(first.sessionDir, path.dirname(ROLLOUT)), { recursive: true });
  fs.writeFileSync(path.join(first.sessionDir, '.codex/config.toml'), 'model = "m"\n');
  fs.writeFileSync(path.join(first.sessionDir, ROLLOUT), tokenCount(1000, 100, 50));
  fs.symlinkSync('/tmp/codex-secrets/auth.json', path.join(first.sessionDir, '.codex/auth.json'));
  const past = new Date('2026-12-06T04:00:00Z');
  fs.utimesSync(path.join(first.sessionDir, ROLLOUT), past, past);
  fs.writeFileSync(first.stateFile, '{"before":{}}');
  return first;
}

describe("a Harbor step's session folder", () => {
  it("starts with the previous step's content when it resumes, nothing of an earlier attempt's", async () => {
    const workDir = path.join(tmp, 'resume');
    const first = finishedFirstStep(workDir);
    const second = harborSessionPaths(workDir, 'second');
    expect(second.sessionDir).not.toBe(first.sessionDir);
    // An earlier attempt of step 2 whose container is gone: its files and its recorded state go.
    fs.mkdirSync(second.sessionDir, { recursive: true });
    fs.writeFileSync(path.join(second.sessionDir, 'stale.txt'), 'from the lost attempt');
    fs.writeFileSync(second.stateFile, '{"before":{"stale.txt":21}}');
    // A socket the CLI left listening in its HOME: no session state, and not copyable.
    const socket = net.createServer();
    await new Promise<void>((resolve) => socket.listen(path.join(first.sessionDir, 'ide.sock'), resolve));

    startHarborSession(second, first);
    await new Promise((resolve) => socket.close(resolve));

    expect(tree(second.sessionDir)).toEqual(tree(first.sessionDir));
    expect(tree(second.sessionDir)).toMatchObject({ '.codex/auth.json': '-> /tmp/codex-secrets/auth.json' });
    expect(fs.statSync(path.join(second.sessionDir, ROLLOUT)).mtime.toISOString()).toBe('2026-12-06T04:00:00.000Z');
    expect(fs.existsSync(second.stateFile)).toBe(false);
    expect(fs.existsSync(path.join(second.sessionDir, 'ide.sock'))).toBe(false);
    // A copy: step 2 writing its folder leaves step 1's as step 1 left it (a restarted step 2 copies it again).
    fs.appendFileSync(path.join(second.sessionDir, ROLLOUT), 'more\n');
    expect(fs.readFileSync(path.join(first.sessionDir, ROLLOUT), 'utf8')).toBe(tokenCount(1000, 100, 50));
  });

  it('starts empty when it does not resume, and a single-step trial keeps its one folder', () => {
    const workDir = path.join(tmp, 'fresh');
    finishedFirstStep(workDir);
    const second = harborSessionPaths(workDir, 'second');
    fs.mkdirSync(second.sessionDir, { recursive: true });
    fs.writeFileSync(path.join(second.sessionDir, 'stale.txt'), 'x');
    startHarborSession(second, null);
    expect(fs.existsSync(second.sessionDir)).toBe(false);
    expect(harborSessionPaths(workDir).sessionDir).toBe(path.join(workDir, 'harbor-session'));
  });

  it("is step 2's /session, its CLI resumes, and its usage is what it appended to the session", () => {
    const workDir = path.join(tmp, 'planned');
    const first = finishedFirstStep(workDir);
    const second = harborSessionPaths(workDir, 'second');
    startHarborSession(second, first);
    const system: SystemSpec = {
      id: 'codex',
      harness: 'codex',
      model: 'm',
      settings: { baseUrl: 'http://127.0.0.1:9' },
      harbor: { resumeTrajectory: true },
    };
    const prepared = prepareHarnessRun({
      system,
      runId: 'wf:step-2',
      ...second,
      image: 'img',
      proxy,
      limits: { maxSteps: 5, agentSeconds: 60 },
      resume: { sessionId: null },
    });
    expect(prepared.container.binds).toContain(`${second.sessionDir}:/session`);
    expect(prepared.container.cmd.at(-1)).toContain('exec codex exec resume --last ');
    // The resumed thread goes on in the same rollout, its running total now past step 1's.
    fs.appendFileSync(path.join(second.sessionDir, ROLLOUT), tokenCount(2500, 400, 80));
    expect(prepared.collect('').usage).toEqual({
      inputTokens: 1500,
      cachedInputTokens: 300,
      outputTokens: 30,
      costUsd: null,
      turns: 1,
    });
  });
});
