// Harbor 0.25's resume_trajectory: on a step after the first, each model CLI runs with the resume flags Harbor's
// agent for it passes when `self._resume` is set (harbor/agents/installed/<cli>.py; its command builders run inside
// `run()` against an environment, so the flags are read from the source, and checked against it below when
// .assay/harbor25-venv is there): claude_code.py `--continue`, codex.py `codex exec resume --last`, gemini_cli.py
// `--resume latest`, qwen_code.py and kimi_cli.py `--continue`, hermes.py `--resume <the previous run's session id>`
// (and, its version being pinned, an error when there is none). nanobot has no Harbor agent: its fixed session id
// continues the session the folder holds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SystemSpec } from '@assay/core';
import { startModelProxy, type ModelProxy } from '../src/model-proxy.js';
import { prepareHarnessRun } from '../src/prepare-harness-run.js';
import { ADAPTERS, type CliHarness } from '../src/adapters/index.js';

const HARBOR_AGENTS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../.assay/harbor25-venv/lib/python3.12/site-packages/harbor/agents/installed',
);

/** Per CLI: Harbor's line that sets its resume flag, and the start of the command line step 2 runs here. */
const HARBOR_RESUME: Record<Exclude<CliHarness, 'nanobot'>, { file: string; line: string; command: string }> = {
  'claude-code': {
    file: 'claude_code.py',
    line: 'resume_flag = "--continue " if self._resume else ""',
    command: 'exec claude --continue -p "$ASSAY_PROMPT" ',
  },
  codex: {
    file: 'codex.py',
    line: `codex exec {'resume --last ' if resume_run else ''}`,
    command: 'exec codex exec resume --last --json ',
  },
  'gemini-cli': {
    file: 'gemini_cli.py',
    line: 'resume_flag = "--resume latest " if self._resume else ""',
    command: 'exec gemini --resume latest -p "$ASSAY_PROMPT" ',
  },
  'qwen-code': {
    file: 'qwen_code.py',
    line: 'resume_flag = "--continue " if self._resume else ""',
    command: 'exec qwen --continue "$ASSAY_PROMPT" ',
  },
  'kimi-cli': {
    file: 'kimi_cli.py',
    line: 'resume_flag = "--continue " if self._resume else ""',
    command: 'exec kimi --continue --print ',
  },
  hermes: {
    file: 'hermes.py',
    line: 'cli_parts.extend(["--resume", shlex.quote(native_session_id or "latest")])',
    command: 'hermes chat -q "$ASSAY_PROMPT" --resume 20261206_101010_ab12cd -Q ',
  },
};

/** A Harbor agent's source, its adjacent string literals joined as Python joins them. */
const harborSource = (file: string) =>
  fs.readFileSync(path.join(HARBOR_AGENTS, file), 'utf8').replace(/"\s*\n\s*"/g, '');

let proxy: ModelProxy;
let tmp: string;
beforeAll(async () => {
  proxy = await startModelProxy({ port: 0 });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-harbor-resume-'));
});
afterAll(async () => {
  await proxy.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const limits = { maxSteps: 7, agentSeconds: 600 };
const system = (harness: CliHarness): SystemSpec => ({
  id: harness,
  harness,
  model: 'mock-model',
  settings: { baseUrl: 'http://127.0.0.1:9' },
  harbor: { resumeTrajectory: true },
});

/** The script step `step` of a Harbor trial runs: the first fresh (or as its folder says), later ones resuming. */
function stepScript(harness: CliHarness, step: number, sessionId: string | null = null): string {
  const prepared = prepareHarnessRun({
    system: system(harness),
    runId: `wf:${harness}:step-${step}`,
    sessionDir: path.join(tmp, harness, `step-${step}`),
    image: 'img',
    proxy,
    limits,
    ...(step > 1 ? { resume: { sessionId } } : {}),
  });
  prepared.collect('');
  return prepared.container.cmd.at(-1) ?? '';
}

describe.each(Object.entries(HARBOR_RESUME))('%s on a Harbor step that resumes', (harness, harbor) => {
  const cli = harness as Exclude<CliHarness, 'nanobot'>;

  it.skipIf(!fs.existsSync(HARBOR_AGENTS))(`takes its flags from Harbor 0.25's ${harbor.file}`, () => {
    expect(harborSource(harbor.file)).toContain(harbor.line);
  });

  it("runs Harbor's resume command on step 2, always (not only when the folder holds a session)", () => {
    const script = stepScript(cli, 2, '20261206_101010_ab12cd');
    expect(script).toContain(harbor.command);
    expect(script).toContain('[assay] continuing the session in $HOME');
    // Not chosen by the test of the folder, no fresh command to fall back to: Harbor passes the flag whatever is there.
    expect(script).not.toContain(`if ${ADAPTERS[cli].resumeTest}; then`);
  });

  it('step 1 runs as before: the resume command only behind the test of its (empty) session folder', () => {
    expect(stepScript(cli, 1)).toMatch(/\nif .+; then echo "\[assay\] continuing the session in \$HOME" >&2; /);
  });
});

describe("codex with no session in step 2's folder", () => {
  it("ends with Harbor's error before running the CLI, as codex.py checks", () => {
    if (fs.existsSync(HARBOR_AGENTS))
      expect(harborSource('codex.py')).toContain('echo "Cannot resume Codex: no previous session logs found" >&2');
    const script = stepScript('codex', 2);
    expect(script).toContain(
      [
        `if ! ${ADAPTERS.codex.resumeTest}; then echo 'Cannot resume Codex: no previous session logs found' >&2; exit 1; fi`,
        'echo "[assay] continuing the session in $HOME" >&2',
        'exec codex exec resume --last ',
      ].join('\n'),
    );
  });
});

describe('hermes without a session id from step 1', () => {
  it("ends with Harbor's error for its pinned version, without running the CLI", () => {
    if (fs.existsSync(HARBOR_AGENTS))
      expect(harborSource('hermes.py')).toContain(
        'Cannot resume the pinned Hermes version because the previous run did not export a native session ID.',
      );
    const script = stepScript('hermes', 2, null);
    expect(script).toContain(
      "echo 'Cannot resume the pinned Hermes version because the previous run did not export a native session ID.' >&2\nexit 1",
    );
    expect(script).not.toContain('hermes chat');
  });
});

describe('nanobot (no Harbor agent)', () => {
  it('continues by its fixed session id, the same command line as a fresh run', () => {
    const script = stepScript('nanobot', 2);
    expect(script).toContain('exec nanobot agent -m "$ASSAY_PROMPT" -s cli:assay ');
    expect(script).not.toContain(' then ');
  });
});
