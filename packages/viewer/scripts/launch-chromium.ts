// Headless Chromium for the viewer's tests and screenshots (playwright-core over the system
// Chromium, a fresh profile each time). Every request off 127.0.0.1 is refused and reported, so
// a page that needed a CDN would fail; console errors, page errors and HTTP errors are collected.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.ASSAY_CHROMIUM ?? '/usr/bin/chromium';

export interface ViewerBrowser {
  context: BrowserContext;
  /** A new page whose console errors, page errors, failed and off-host requests land in `errors`. */
  newPage: () => Promise<{ page: Page; errors: string[] }>;
  close: () => Promise<void>;
}

export async function launchChromium(): Promise<ViewerBrowser> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'assay-view-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 1000 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    newPage: async () => {
      const page = await context.newPage();
      const errors: string[] = [];
      await page.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith('http://127.0.0.1:') || url.startsWith('data:') || url.startsWith('blob:'))
          return route.continue();
        errors.push(`off-host request refused: ${url}`);
        return route.abort();
      });
      page.on('console', (m) => void (m.type() === 'error' && errors.push(`console: ${m.text()}`)));
      page.on('pageerror', (e) => void errors.push(`page error: ${e.message}`));
      page.on('response', (r) => void (r.status() >= 400 && errors.push(`HTTP ${r.status()}: ${r.url()}`)));
      return { page, errors };
    },
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
