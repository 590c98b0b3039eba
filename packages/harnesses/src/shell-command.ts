// The container command of a CLI harness: a tiny POSIX shell script that reads the
// instruction file, picks the fresh or resume argv (by whether the session folder
// already holds a session of this CLI), and execs the CLI with the prompt as one argv.
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

/** ['/bin/sh', '-c', script]: exec fresh or resume argv of `adapter` with the instruction as the prompt. */
export function harnessCommand(adapter: HarnessAdapter, ctx: AdapterContext): string[] {
  const fresh = shellLine([adapter.bin, ...adapter.freshArgs(ctx)]);
  const resume = shellLine([adapter.bin, ...adapter.resumeArgs(ctx)]);
  const lines = ['ASSAY_PROMPT="$(cat "$ASSAY_INSTRUCTION_FILE")"', 'cd /workspace'];
  if (!adapter.epilogue) {
    lines.push(
      `if ${adapter.resumeTest}; then echo "[assay] continuing the session in $HOME" >&2; exec ${resume}; fi`,
      `exec ${fresh}`,
    );
    if (adapter.prologue) lines.splice(2, 0, adapter.prologue);
    return ['/bin/sh', '-c', lines.join('\n')];
  }
  // With an epilogue the shell stays the CLI's parent, and exits with the CLI's code.
  if (adapter.prologue) lines.push(adapter.prologue);
  lines.push(
    `if ${adapter.resumeTest}; then echo "[assay] continuing the session in $HOME" >&2; ${resume}; else ${fresh}; fi`,
    'assay_rc=$?',
    adapter.epilogue,
    'exit $assay_rc',
  );
  const script = lines.join('\n');
  return ['/bin/sh', '-c', script];
}
