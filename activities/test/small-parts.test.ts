import { describe, expect, it } from 'vitest';
import { diffSnapshots, taskSpecSchema } from '@assay/core';
import { assessFormatCompliance, containerNameFor, parseFaultDelays } from '../src/index.js';
import { demuxDockerLog } from '../src/run-agent-container.js';
import { isThisAttempt, type AgentRun } from '../src/run-harness.js';
import { parseUsageLine } from '@assay/harnesses';

describe('output-format compliance', () => {
  const spec = taskSpecSchema.parse({
    schema: 'assay.task/v1',
    id: 't',
    title: 'T',
    domain: 'legal',
    request: 'r',
    outputs: [
      { path: 'memo.pdf', format: 'pdf' },
      { path: 'model.xlsx', format: 'xlsx' },
      { path: 'notes.md', format: 'md', required: false },
    ],
  });
  const d = (p: string, f: 'pdf' | 'md' | 'xlsx' | 'txt' | null) => ({
    path: p,
    sha256: 'x',
    size: 1,
    detectedFormat: f,
  });

  it('is compliant when every required file is there in its format', () => {
    expect(assessFormatCompliance(spec, [d('memo.pdf', 'pdf'), d('model.xlsx', 'xlsx')])).toEqual({
      required: true,
      compliant: true,
      missing: [],
      wrongType: [],
    });
  });

  it('separates a wrong file type from a missing deliverable', () => {
    expect(assessFormatCompliance(spec, [d('memo.md', 'md')])).toEqual({
      required: true,
      compliant: false,
      missing: ['model.xlsx'],
      wrongType: ['memo.pdf'],
    });
    // Right name, wrong content (detected from bytes, not the extension).
    expect(assessFormatCompliance(spec, [d('memo.pdf', 'txt'), d('model.xlsx', 'xlsx')]).wrongType).toEqual([
      'memo.pdf',
    ]);
  });
});

describe('snapshots', () => {
  it('diffs by content hash', () => {
    const a = [
      { path: 'x', sha256: '1', size: 1 },
      { path: 'y', sha256: '2', size: 1 },
    ];
    const b = [
      { path: 'y', sha256: '3', size: 1 },
      { path: 'z', sha256: '4', size: 1 },
    ];
    expect(diffSnapshots(a, b)).toEqual({ added: ['z'], removed: ['x'], changed: ['y'] });
  });
});

describe('agent container helpers', () => {
  it('names a container after its workflow, the same on every attempt', () => {
    expect(containerNameFor('assay-trial:j:s:t:1')).toBe(containerNameFor('assay-trial:j:s:t:1'));
    expect(containerNameFor('assay-trial:j:s:t:1')).not.toBe(containerNameFor('assay-trial:j:s:t:2'));
    expect(containerNameFor('x')).toMatch(/^assay-[0-9a-f]{24}$/);
  });

  it('demultiplexes docker log frames', () => {
    const frame = (stream: number, text: string) => {
      const body = Buffer.from(text);
      const head = Buffer.alloc(8);
      head.writeUInt8(stream, 0);
      head.writeUInt32BE(body.length, 4);
      return Buffer.concat([head, body]);
    };
    expect(demuxDockerLog(Buffer.concat([frame(1, 'out\n'), frame(2, 'err\n')]))).toBe('out\nerr\n');
  });

  it('parses the usage line of a scripted agent and ignores other JSON', () => {
    const logs = 'starting\n{"progress": 1}\n{"agent":"oracle","usage":{"inputTokens":12,"outputTokens":3}}\n';
    expect(parseUsageLine(logs)).toEqual({
      inputTokens: 12,
      outputTokens: 3,
      cachedInputTokens: 0,
      costUsd: null,
      turns: null,
    });
    expect(parseUsageLine('no json here')).toBeNull();
  });

  it('parses fault-injection delays', () => {
    expect(parseFaultDelays('evaluate=6000, snapshot=3000,bad,x=y')).toEqual({ evaluate: 6000, snapshot: 3000 });
    expect(parseFaultDelays(undefined)).toEqual({});
  });
});

describe('an agent result left in the store', () => {
  const run = (containerKey?: string): AgentRun => ({
    exitCode: 0,
    timedOut: false,
    reason: null,
    startedAt: '2026-12-01T00:00:00Z',
    endedAt: '2026-12-01T00:00:01Z',
    durationSeconds: 1,
    containerAttempts: 1,
    usage: null,
    ...(containerKey ? { containerKey } : {}),
  });

  it('is taken up by a retry of the same attempt, never by a trial that moved host since', () => {
    expect(isThisAttempt(run(), undefined)).toBe(true);
    expect(isThisAttempt(run('wf:move-1'), 'wf:move-1')).toBe(true);
    // Written by the lost host just before it died: the moved trial's workspace is a clean one.
    expect(isThisAttempt(run(), 'wf:move-1')).toBe(false);
    expect(isThisAttempt(run('wf:move-1'), 'wf:move-2')).toBe(false);
  });
});
