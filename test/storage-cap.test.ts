// The storage cap end to end: an agent that tries to write past resources.storageGiB
// fills its volume and fails; the failure is a recorded result, and the record says
// the cap was enforced.
import { statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { trialPaths } from '@assay/activities';
import { readTrials } from './support/records.js';
import { ensureBaseImage } from '@assay/infra';
import { ROOT, collectOutput, spawnCli, useTestServer, writeJob } from './support/e2e.js';

const server = useTestServer();

describe('storage cap', () => {
  it('stops an agent at its workspace volume size', async () => {
    const base = (await ensureBaseImage({ root: ROOT })).tag;
    const file = writeJob({
      id: 'storage-cap',
      trials: 1,
      tasks: ['legal-nda-review'],
      systems: [
        {
          id: 'filler',
          harness: 'command',
          settings: { image: base, command: 'dd if=/dev/zero of={outputs_dir}/big.bin bs=1M count=96' },
        },
      ],
      resources: { storageGiB: 0.0625 },
    });
    const run = collectOutput(spawnCli(['run', file], server().address));
    expect(await run.exit, run.text()).toBe(0);
    const resultsDir = path.join(path.dirname(file), 'results');
    const [record] = await readTrials(resultsDir);
    expect(record?.storage).toEqual({ limitGiB: 0.0625, enforced: true, note: null });
    expect(record?.status).toBe('agent-failed');
    const big = record?.deliverables.find((d) => d.path === 'big.bin');
    expect(big?.size ?? 0).toBeGreaterThan(16 * 1024 ** 2);
    expect(big?.size ?? Infinity).toBeLessThan(64 * 1024 ** 2);
    // After recording, the volume is unmounted and kept as a sparse image next to the work folder.
    const work = trialPaths({
      resultsDir,
      system: { id: 'filler', harness: 'command', settings: {} },
      taskId: 'legal-nda-review',
      trial: 1,
    }).workDir;
    expect(statSync(`${work}.ext4`).isFile()).toBe(true);
  }, 300_000);
});
