// Every user-facing message of the judge package, in one place.

export const messages = {
  missingKey: (env: string) => `judge: the API key environment variable ${env} is not set`,
  missingKeyEnv: () => 'judge: the judge setup has no apiKeyEnv (the name of the environment variable holding the key)',
  missingProvider: (mode: string) => `judge: mode "${mode}" needs a provider (openai or anthropic) and a model`,
  checksOnly: () => 'no deterministic check decides this item and the judge mode is checks-only',
  checkCannotEvaluate: (reason: string) => `the deterministic check cannot evaluate this item (${reason})`,
  noJudge: () => 'no judge model is configured for this item',
  malformed: (n: number) =>
    `the judge returned no valid verdict for this item after ${n} malformed repl${n === 1 ? 'y' : 'ies'}`,
  incomplete: () => 'the judge answered without a verdict for this item within the attempt bound',
  modelError: (detail: string) => `the judge model request failed: ${detail}`,
  timeout: (seconds: number) => `the judge model request timed out after ${seconds} s`,
  maxSteps: (steps: number) => `the judge used its ${steps} steps without submitting a verdict`,
  cancelled: () => 'judging was cancelled',
  deferred: () => 'a judge turn waits for its batch',
  batchFailed: (kind: string, error: string) => `the batched judge turn ${kind}: ${error}`,
  toolUnknown: (name: string) => `unknown tool "${name}"`,
  toolArgs: (name: string, detail: string) => `invalid arguments for ${name}: ${detail}`,
  fileMissing: (path: string) => `no file "${path}" in the submission`,
  rangeMissing: (file: string, range: string) => `cannot read ${range} in "${file}" (no such file, sheet or range)`,
  pageMissing: (file: string, page: number) => `no page image ${page} for "${file}"`,
  submitInvalid: (detail: string) => `verdict rejected: ${detail}. Call the submit tool again with valid arguments.`,
  submitMissing: (tool: string) => `You must finish by calling ${tool}; a plain text answer is not recorded.`,
  unknownItems: (ids: string[]) => `unknown item ids: ${ids.join(', ')}`,
  setupInvalid: (where: string, detail: string) => `judge setup ${where} is invalid: ${detail}`,
  cacheCorrupt: (path: string) => `verdict cache entry ${path} is unreadable; ignoring it`,
} as const;
