// Write schemas/*.schema.json from the zod types (`pnpm schemas`).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { toJsonSchemas } from '@assay/core';

const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../schemas');
mkdirSync(out, { recursive: true });
for (const [file, schema] of Object.entries(toJsonSchemas())) {
  writeFileSync(path.join(out, file), `${JSON.stringify(schema, null, 2)}\n`);
  console.log(`wrote schemas/${file}`);
}
