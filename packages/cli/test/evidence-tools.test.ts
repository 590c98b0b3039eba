// The worker's parser pool starts no process until a trial collects its first deliverable (not at
// worker start, where it competed with the job's start-up), then warms while the evaluation follows.
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ParserPool } from '@assay/evidence';
import { createEvidenceTools } from '../src/worker/evidence-tools.js';

const CSV = path.resolve(import.meta.dirname, '../../evidence/test/fixtures/data.csv');
const pool = new ParserPool({ size: 2 });

afterAll(() => pool.close());

describe('createEvidenceTools', () => {
  it('starts the pool with the first detected deliverable, every member at once', async () => {
    const tools = createEvidenceTools(pool);
    await new Promise((r) => setTimeout(r, 200));
    expect(pool.running).toBe(0);
    expect(await tools.detectFormat(CSV)).toBe('csv');
    expect(pool.running).toBe(2);
    // A second deliverable starts nothing more.
    await tools.detectFormat(CSV);
    expect(pool.running).toBe(2);
  }, 30_000);

  it('starts the pool when told a trial begins, before any deliverable', async () => {
    const fresh = new ParserPool({ size: 2 });
    try {
      const tools = createEvidenceTools(fresh);
      expect(fresh.running).toBe(0);
      tools.warm?.();
      await vi.waitFor(() => expect(fresh.running).toBe(2), { timeout: 10_000 });
    } finally {
      fresh.close();
    }
  }, 30_000);
});
