// @assay/core/pure is what workflow code imports: it must not reach zod (or any package), and it
// must offer the same values as the full entry under the same names.
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import * as full from '../src/index.js';
import * as pure from '../src/pure.js';

describe('@assay/core/pure', () => {
  it('bundles without zod or any other package', async () => {
    const out = await build({
      entryPoints: [path.resolve(import.meta.dirname, '../src/pure.ts')],
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'neutral',
    });
    const inputs = Object.keys(out.metafile.inputs);
    expect(inputs.filter((f) => f.includes('node_modules'))).toEqual([]);
    expect(inputs.every((f) => f.startsWith('packages/core/src/') || f.startsWith('src/'))).toBe(true);
  });

  it('exports the full entry’s values under the same names', () => {
    for (const [name, value] of Object.entries(pure)) expect(full[name as keyof typeof full], name).toBe(value);
  });
});
