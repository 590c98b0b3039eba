// The terminal view through cli-progress on a stand-in terminal stream: the last frame holds every
// system's counts, and a line logged just before the end is not lost (cli-progress's stop() alone
// drops lines logged since its previous frame).
import { describe, expect, it } from 'vitest';
import { computeProgress } from '../src/progress/progress-model.js';
import { createTtyProgress } from '../src/progress/tty-progress.js';

function fakeTerminal() {
  let out = '';
  const stream = {
    isTTY: true,
    columns: 200,
    write: (s: string) => ((out += s), true),
    cursorTo: () => true,
    moveCursor: () => true,
    clearLine: () => true,
    clearScreenDown: () => true,
    on: () => stream,
    removeListener: () => stream,
  };
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => out };
}

describe('createTtyProgress', () => {
  it('draws a bar per system and keeps lines logged before it stops', () => {
    const t = fakeTerminal();
    const tty = createTtyProgress(t.stream);
    tty.log('before any bar');
    const view = computeProgress({
      systems: ['oracle', 'broken'],
      unitsPerSystem: 2,
      startedAt: 0,
      now: 60_000,
      running: [],
      units: [
        { key: 'oracle/a/1', kind: 'task', status: 'completed', unjudged: 0, reason: null, at: 1 },
        { key: 'broken/a/1', kind: 'task', status: 'agent-failed', unjudged: 0, reason: 'exit 3', at: 2 },
      ],
      usage: { agentTokens: 1500, agentUsd: null, judgeTokens: 0, judgeUsd: null },
    });
    tty.update(view);
    tty.log('  agent-failed broken/a/1: exit 3');
    tty.stop();
    const text = t.text();
    expect(text).toContain('before any bar\n');
    expect(text.split('agent-failed broken/a/1: exit 3')).toHaveLength(2);
    expect(text).toMatch(/oracle .* 1\/2 done, 0 running, 0 failed, 0 unjudged/);
    expect(text).toMatch(/broken .* 1\/2 done, 0 running, 1 failed, 0 unjudged/);
    expect(text).toMatch(/job .* 2\/4 done, 0 running, 1 failed, 0 unjudged \| 2\.0 trials\/min, ETA 1m00s/);
    expect(text).toContain('tokens: agent 1.5k, judge 0');
  });
});
