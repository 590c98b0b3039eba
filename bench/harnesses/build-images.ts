// Build every harness image once, sequentially, and print per-harness build times.
// Usage: npx tsx bench/harnesses/build-images.ts [harness ...]
import { ensureHarnessImage } from '../../packages/harnesses/src/ensure-harness-image.js';
import { INSTALLS, type InstalledHarness } from '../../packages/harnesses/src/installs.js';

const root = new URL('../..', import.meta.url).pathname;
const wanted = (process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(INSTALLS)) as InstalledHarness[];
for (const harness of wanted) {
  const started = Date.now();
  try {
    const img = await ensureHarnessImage({ root, harness, log: (l) => console.error(`[${harness}] ${l}`) });
    console.log(
      JSON.stringify({
        harness,
        ok: true,
        tag: img.tag,
        built: img.built,
        seconds: (Date.now() - started) / 1000,
        runtimeSeconds: img.runtime?.seconds ?? 0,
      }),
    );
  } catch (err) {
    console.log(
      JSON.stringify({
        harness,
        ok: false,
        seconds: (Date.now() - started) / 1000,
        error: (err as Error).message.slice(0, 4000),
      }),
    );
  }
}
