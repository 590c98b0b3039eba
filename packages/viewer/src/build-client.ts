// Bundles the front end (Preact + Vega-Lite) with esbuild into one folder: index.html, app.js,
// app.css. Everything the page needs is in there: it works offline, no CDN.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { messages } from './messages.js';

const CLIENT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../client');

const INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>assay view</title>
<link rel="stylesheet" href="/assets/app.css">
</head>
<body>
<div id="app"></div>
<script type="module" src="/assets/app.js"></script>
</body>
</html>
`;

/** Builds the front end into `outDir` and returns it. */
export async function buildClient(outDir: string): Promise<string> {
  const { build } = await import('esbuild');
  mkdirSync(outDir, { recursive: true });
  try {
    await build({
      entryPoints: { app: path.join(CLIENT_DIR, 'main.tsx') },
      outdir: outDir,
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      minify: true,
      jsx: 'automatic',
      jsxImportSource: 'preact',
      loader: { '.css': 'css' },
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'silent',
    });
  } catch (err) {
    const first = (err as { errors?: { text: string }[] }).errors?.[0]?.text ?? (err as Error).message;
    throw new Error(messages.clientBuildFailed(first));
  }
  writeFileSync(path.join(outDir, 'index.html'), INDEX_HTML);
  return outDir;
}
