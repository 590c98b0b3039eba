// Bootstrap of the isolated parser process. Plain JS on purpose: pdfjs-dist (~3 MB of ESM) is loaded
// natively BEFORE the TypeScript loader (tsx) is registered — loaded through tsx it costs ~150 MB
// more memory per process and about twice the time. Then tsx is registered for our own sources.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const url = (path) => pathToFileURL(path).href;

await import(url(require.resolve('pdfjs-dist/legacy/build/pdf.mjs')));
// pdfjs's in-process ("fake") worker picks its handler up from here instead of importing it later.
globalThis.pdfjsWorker = await import(url(require.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs')));
const { register } = await import(url(join(dirname(require.resolve('tsx/package.json')), 'dist/esm/api/index.mjs')));
register();
await import('./child-main.ts');
