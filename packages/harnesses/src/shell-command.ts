// The container command of a CLI harness: a tiny POSIX shell script that reads the
// instruction file, picks the fresh or resume argv (by whether the session folder
// already holds a session of this CLI, or always the resume argv where the caller says
// the run continues a session), and execs the CLI with the prompt as one argv.
import type { AdapterContext, HarnessAdapter } from './harness-adapter.js';

/** Quote one word for POSIX sh; `{prompt}` becomes "$ASSAY_PROMPT". */
export function shellWord(word: string): string {
  if (word === '{prompt}') return '"$ASSAY_PROMPT"';
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'"'"'`)}'`;
}

function shellLine(argv: readonly string[]): string {
  return argv.map(shellWord).join(' ');
}

/**
 * `auto`: the resume argv when the session folder holds a session (a project's later subtasks), else the fresh one.
 * `resume`: the resume argv always, as Harbor's agents pass their resume flag on a step that resumes
 * (resume_trajectory) whatever the session folder holds.
 */
export type SessionMode = 'auto' | 'resume';

const CONTINUING = 'echo "[assay] continuing the session in $HOME" >&2';

/** ['/bin/sh', '-c', script]: exec fresh or resume argv of `adapter` with the instruction as the prompt. */
export function harnessCommand(adapter: HarnessAdapter, ctx: AdapterContext, mode: SessionMode = 'auto'): string[] {
  const fresh = shellLine([adapter.bin, ...adapter.freshArgs(ctx)]);
  const resume = shellLine([adapter.bin, ...adapter.resumeArgs(ctx)]);
  const lines = ['ASSAY_PROMPT="$(cat "$ASSAY_INSTRUCTION_FILE")"', 'cd /workspace'];
  if (mode === 'resume' && adapter.resumeNeedsSessionId && !ctx.resumeSessionId)
    return ['/bin/sh', '-c', [...lines, `echo ${shellWord(adapter.resumeNeedsSessionId)} >&2`, 'exit 1'].join('\n')];
  if (mode === 'resume' && adapter.resumeNeedsSession)
    lines.push(`if ! ${adapter.resumeTest}; then echo ${shellWord(adapter.resumeNeedsSession)} >&2; exit 1; fi`);
  if (!adapter.epilogue) {
    if (adapter.prologue) lines.push(adapter.prologue);
    if (mode === 'resume') lines.push(CONTINUING, `exec ${resume}`);
    else lines.push(`if ${adapter.resumeTest}; then ${CONTINUING}; exec ${resume}; fi`, `exec ${fresh}`);
    return ['/bin/sh', '-c', lines.join('\n')];
  }
  // With an epilogue the shell stays the CLI's parent, and exits with the CLI's code.
  if (adapter.prologue) lines.push(adapter.prologue);
  if (mode === 'resume') lines.push(CONTINUING, resume);
  else lines.push(`if ${adapter.resumeTest}; then ${CONTINUING}; ${resume}; else ${fresh}; fi`);
  lines.push('assay_rc=$?', adapter.epilogue, 'exit $assay_rc');
  return ['/bin/sh', '-c', lines.join('\n')];
}
