// Every user-facing sentence of the CLI, in one place.
export const messages = {
  invalidInput: (count: number) => `found ${count} problem${count === 1 ? '' : 's'}; nothing was started`,
  valid: (what: string) => `${what} is valid`,
  temporalUnreachable: (address: string) =>
    `cannot reach the Temporal server at ${address}: start it with "pnpm assay server start" or set TEMPORAL_ADDRESS`,
  dockerUnreachable: 'cannot reach a Docker engine: run "pnpm assay setup" (as root) or set DOCKER_HOST',
  harnessNotRunnable: (system: string, harness: string, runnable: readonly string[]) =>
    `system "${system}" uses harness "${harness}", which this build cannot run yet (runnable: ${runnable.join(', ')})`,
  jobNotFound: (jobId: string) =>
    `no job "${jobId}" on this Temporal server (submit it with "pnpm assay run JOB.yaml")`,
  noResults: (dir: string) => `no trial records under ${dir}`,
  jobFailed: (reason: string) => `the job failed: ${reason}`,
} as const;
