// Every user-facing message of the scripted model server, in one place.

export const messages = {
  noRuleMatched: (api: string, model: string) =>
    `mock-llm: no script rule matched this ${api} request (model "${model}") and the script has no default reply`,
  unknownRoute: (method: string, path: string) => `mock-llm: no such endpoint ${method} ${path}`,
  badJson: (detail: string) => `mock-llm: request body is not valid JSON (${detail})`,
  rateLimited: (seconds: number) => `mock-llm: rate limited (injected fault); retry after ${seconds} s`,
  serverError: () => 'mock-llm: internal server error (injected fault)',
  scriptInvalid: (where: string, detail: string) => `mock-llm: script ${where} is invalid: ${detail}`,
  scriptUnreadable: (where: string, detail: string) => `mock-llm: cannot read script ${where}: ${detail}`,
  secretLeaked: (where: string) =>
    `mock-llm: a secret value appears in plain text in ${where} (it must only ever be recorded as a hash)`,
  // Anthropic's own wording, as clients may match on it.
  tooManyCacheBreakpoints: (found: number) =>
    `A maximum of 4 blocks with cache_control may be provided. Found ${found}.`,
  listening: (url: string) => `mock-llm listening on ${url}`,
} as const;
