// Harbor's resume_trajectory end to end through a real model CLI (as test/harbor-harness.test.ts, opt-in with
// ASSAY_HARNESS_E2E=1; ASSAY_HARNESSES picks CLIs, default codex): step 2 asks for a word only step 1's instruction
// gave. The scripted model writes it only when step 2's request carries step 1's conversation, so the system with
// harbor.resumeTrajectory gets reward 1 and the same CLI starting fresh sessions gets 0.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@assay/infra';
import { startMockLlm, type MockLlmServer, type MockReply, type MockRequest } from '@assay/mock-llm';
import { toolSchemas } from '../packages/harnesses/test/support/deliverable-script.js';
import { ROOT, collectOutput, spawnCli, useTestServer, writeJob } from './support/e2e.js';
import { readTrials } from './support/records.js';

const DATASET = path.join(ROOT, 'test/fixtures/harbor-model-resume');
const enabled = process.env.ASSAY_HARNESS_E2E === '1';
const harnesses = process.env.ASSAY_HARNESSES?.split(',').filter(Boolean) ?? ['codex'];
const SHELL_TOOL =
  /^(bash|shell|shell_command|exec|exec_command|run_shell_command|terminal|run_command|execute_command)$/i;
const USAGE = { input: 1200, output: 20, cachedInput: 0 };

/** The model's side: step 1 is acknowledged; step 2 writes the word when the conversation holds it, else "forgotten". */
function reply(req: MockRequest): MockReply {
  const tools = toolSchemas(req);
  if (tools.length === 0 || !req.all.includes('Write the secret word')) return { text: 'noted', usage: USAGE };
  if (req.messages.at(-1)?.role === 'tool' || req.toolResult.length > 0) return { text: 'Done.', usage: USAGE };
  const shell = tools.find((t) => SHELL_TOOL.test(t.name));
  const params = (shell?.params.properties ?? {}) as Record<string, { type?: unknown }>;
  const key = ['command', 'cmd', 'script'].find((k) => k in params);
  if (!shell || !key) return { text: 'I cannot do that.', usage: USAGE };
  const word = req.all.includes('SECRET-WORD: papaya') ? 'papaya' : 'forgotten';
  const script = `echo ${word} > /app/answer.txt`;
  const command = params[key]?.type === 'array' ? ['bash', '-lc', script] : script;
  return { toolCalls: [{ name: shell.name, arguments: { [key]: command } }], usage: USAGE };
}

describe.skipIf(!enabled)("Harbor's resume_trajectory for a model CLI", () => {
  const server = useTestServer();
  const secret = `sk-real-${randomBytes(12).toString('hex')}`;
  let mock: MockLlmServer;
  beforeAll(async () => {
    mock = await startMockLlm({ script: { rules: [], default: reply } });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it.each(harnesses)(
    "%s continues step 1's session on step 2 only when the system resumes",
    async (harness) => {
      const settings = {
        baseUrl: harness === 'codex' ? `${mock.url}/v1` : mock.url,
        apiKeyEnv: 'ASSAY_E2E_PROVIDER_KEY',
      };
      const system = { harness, model: 'mock-model', settings };
      const job = writeJob({
        id: `harbor-resume-${harness}`,
        benchmark: `harbor:${DATASET}`,
        trials: 1,
        systems: [
          { id: 'resumed', ...system, harbor: { resumeTrajectory: true } },
          { id: 'fresh', ...system },
        ],
        limits: { maxSteps: 20 },
      });
      const env = { ASSAY_E2E_PROVIDER_KEY: secret, ASSAY_MODEL_PROXY_PORT: String(await freePort()) };
      const run = collectOutput(spawnCli(['run', job, '--json'], server().address, env));
      expect(await run.exit, run.text()).toBe(0);
      const records = await readTrials(path.join(path.dirname(job), 'results'));
      const stepsOf = (id: string) => records.find((r) => r.system.id === id)?.steps?.map((s) => s.verifier.reward);
      expect(stepsOf('resumed'), run.text().slice(-4000)).toEqual([1, 1]);
      expect(stepsOf('fresh'), run.text().slice(-4000)).toEqual([1, 0]);
    },
    1_800_000,
  );
});
