// Screenshots of each page kind for docs/viewer/, from a real run's results (default: the
// quickstart's .assay/results/sample; run `pnpm assay run jobs/sample.yaml` first).
//
//   pnpm exec tsx packages/viewer/scripts/take-screenshots.ts [RESULTS_DIR]
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startViewer } from '../src/index.js';
import { launchChromium } from './launch-chromium.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const OUT = path.join(ROOT, 'docs/viewer');
const results = path.resolve(process.argv[2] ?? path.join(ROOT, '.assay/results/sample'));

const viewer = await startViewer({ resultsDirs: [results] });
const browser = await launchChromium();
try {
  const { page, errors } = await browser.newPage();
  const shot = async (name: string) => {
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(OUT, `${name}.png`) });
    console.log(`docs/viewer/${name}.png`);
  };

  await page.goto(viewer.url);
  await page.waitForSelector('[data-testid=leaderboard-decided] .chart svg');
  await shot('overview');

  await page.goto(`${viewer.url}#/trial/0/correction-not-applied/biz-quarterly-review-deck/1/item/rotterdam-decision`);
  await page.waitForSelector('[data-testid=page-image]', { timeout: 180_000 });
  await page.waitForFunction(() => {
    const img = document.querySelector<HTMLImageElement>('[data-testid=page-image]');
    return !!img && img.complete && img.naturalWidth > 0;
  });
  // The jump itself: the anchor "slide 6" opens slide 6's page image and highlights its text.
  await page.click('[data-item=rotterdam-decision] button.anchor[data-anchor="slide 6"]');
  await page.waitForSelector('[data-testid=page-image][data-page="6"]');
  await page.waitForFunction(() => {
    const img = document.querySelector<HTMLImageElement>('[data-testid=page-image]');
    return !!img && img.complete && img.naturalWidth > 0;
  });
  await page.locator('[data-item=rotterdam-decision]').scrollIntoViewIfNeeded();
  await shot('trial-page-image');

  await page.goto(`${viewer.url}#/trial/0/no-cached-values/fin-term-loan-schedule/1/item/live-formulas`);
  await page.waitForSelector('.grid td.focus');
  await page.locator('[data-testid=items]').scrollIntoViewIfNeeded();
  await shot('trial-formulas');

  await page.goto(`${viewer.url}#/project/0/correction-not-applied/fdd-hengtai/1/checkpoint/2`);
  await page.waitForSelector('[data-testid=timeline] .chart svg');
  await shot('project-timeline');
  await page.click('[data-testid=snapshot-diff] li[data-diff=changed] button:has-text("outputs/dd_model.xlsx")');
  await page.waitForSelector('[data-testid=file-diff]', { timeout: 120_000 });
  await page.locator('[data-testid=snapshot-diff]').scrollIntoViewIfNeeded();
  await shot('project-diff');
  await page.locator('[data-testid=final-package]').scrollIntoViewIfNeeded();
  await shot('project-final');

  if (errors.length > 0) throw new Error(`errors on the pages:\n${errors.join('\n')}`);
} finally {
  await browser.close();
  await viewer.close();
}
