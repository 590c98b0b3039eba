import { runMockLlmServer } from '@assay/mock-llm';

/** `assay mock-llm`: the scripted model server on 127.0.0.1 until interrupted. */
export async function mockLlmCommand(opts: { port?: string; script?: string; json?: boolean }): Promise<void> {
  await runMockLlmServer({
    port: opts.port ? Number(opts.port) : 0,
    ...(opts.script ? { scriptPath: opts.script } : {}),
    onListening: (server) => {
      if (opts.json) console.log(JSON.stringify({ url: server.url }));
      else
        console.log(
          `scripted model server at ${server.url} (OpenAI: ${server.url}/v1, Anthropic: ${server.url}, Gemini: ${server.url}/v1beta)`,
        );
    },
  });
}
