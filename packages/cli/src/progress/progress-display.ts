// Where a live progress view goes: bars on a terminal, a periodic plain summary (plus a line per
// failure) otherwise, or JSON events (one object per line) with --json.
import type { ProgressView, UnitResult } from './progress-model.js';
import { failureEvent, progressEvent, renderFailure, renderPlainProgress } from './render-progress.js';
import { createTtyProgress } from './tty-progress.js';

export type DisplayMode = 'tty' | 'plain' | 'json';

export interface ProgressDisplay {
  /** A new view; shown now (terminal), or when the period has passed (plain, json). */
  update(view: ProgressView): void;
  /** A line of its own (worker messages): above the bars on a terminal, dropped with --json. */
  log(line: string): void;
  /** The last view, shown whatever the period; the terminal is given back. */
  finish(view: ProgressView): void;
}

export interface DisplayOptions {
  mode: DisplayMode;
  /** The link of a failed unit's workflow in the Web UI, when the UI is known. */
  linkOf: (unit: UnitResult) => string | null;
  /** Seconds between plain summaries or JSON progress events. */
  periodSeconds: number;
  stdout?: NodeJS.WriteStream;
  now?: () => number;
}

/** --json wins; then a terminal gets bars and anything else plain lines. */
export function displayModeOf(opts: { json?: boolean }, stdout: { isTTY?: boolean }): DisplayMode {
  if (opts.json) return 'json';
  return stdout.isTTY && !process.env.CI ? 'tty' : 'plain';
}

export function createProgressDisplay(opts: DisplayOptions): ProgressDisplay {
  const out = opts.stdout ?? process.stdout;
  const now = opts.now ?? Date.now;
  const write = (line: string) => out.write(`${line}\n`);
  const reported = new Set<string>();
  let last = -Infinity;
  const tty = opts.mode === 'tty' ? createTtyProgress(out) : null;

  const failures = (view: ProgressView): void => {
    for (const f of view.failures) {
      if (reported.has(f.key)) continue;
      reported.add(f.key);
      const link = opts.linkOf(f);
      if (opts.mode === 'json') write(JSON.stringify(failureEvent(f, link, new Date(now()).toISOString())));
      else if (tty) tty.log(renderFailure(f, link));
      else write(renderFailure(f, link));
    }
  };
  const show = (view: ProgressView): void => {
    if (tty) return tty.update(view);
    if (opts.mode === 'json') write(JSON.stringify(progressEvent(view, new Date(now()).toISOString())));
    else for (const line of renderPlainProgress(view)) write(line);
  };

  return {
    update(view) {
      failures(view);
      if (!tty && now() - last < opts.periodSeconds * 1000) return;
      last = now();
      show(view);
    },
    log(line) {
      if (tty) tty.log(line);
      else if (opts.mode === 'plain') write(line);
    },
    finish(view) {
      failures(view);
      show(view);
      tty?.stop();
    },
  };
}
