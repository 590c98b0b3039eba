// ASSAY_TIMINGS=1: how long each start-up phase of a command took, on stderr (bench/cli reads it).
export interface PhaseTimer {
  /** Ends the current phase under `name` and starts the next. */
  mark(name: string): void;
}

export function createPhaseTimer(env: NodeJS.ProcessEnv = process.env, write = (s: string) => process.stderr.write(s)) {
  const on = env.ASSAY_TIMINGS === '1';
  // From the process start: the CLI's own loading is the first phase.
  let last = performance.timeOrigin;
  return {
    mark(name: string): void {
      if (!on) return;
      const now = performance.timeOrigin + performance.now();
      write(`timing: ${name} ${((now - last) / 1000).toFixed(3)} s\n`);
      last = now;
    },
  } satisfies PhaseTimer;
}
