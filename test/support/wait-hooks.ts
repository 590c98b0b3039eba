// runAgentContainer's hooks for a test that runs one container outside any activity: no other
// attempt, no heartbeat, never cancelled, real sleeps.
import type { WaitHooks } from '../../activities/src/run-agent-container.js';

export const TEST_WAIT_HOOKS: WaitHooks = {
  finishedElsewhere: () => false,
  heartbeat: () => undefined,
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  cancelled: () => false,
};
