import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { toJsonSchemas } from '../src/index.js';

const schemasDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../schemas');

describe('JSON Schemas', () => {
  it('are committed up to date with the zod types (run `pnpm schemas`)', () => {
    for (const [file, schema] of Object.entries(toJsonSchemas())) {
      expect(JSON.parse(readFileSync(path.join(schemasDir, file), 'utf8')), file).toEqual(schema);
    }
  });

  it('describe the rubric importance levels and check kinds', () => {
    const rubric = JSON.stringify(toJsonSchemas()['rubric.schema.json']);
    for (const word of ['core', 'important', 'auxiliary', 'deliverable-present', 'formula-cached', 'files-agree'])
      expect(rubric).toContain(word);
  });
});
