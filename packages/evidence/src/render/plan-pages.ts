// Which pages to rasterise and at what resolution, within the pixel budgets: a page larger than the
// per-page budget at the asked resolution is rendered at a lower one (never skipped for its size),
// and pages stop once the total budget would be passed. Page sizes come from pdfinfo.
import { msg } from '../messages.js';

export interface PageSize {
  page: number;
  /** In points (1/72 inch). */
  width: number;
  height: number;
}

/** Consecutive pages rendered in one pdftoppm run at one resolution. */
interface RenderGroup {
  first: number;
  last: number;
  dpi: number;
}

export interface PagePlan {
  groups: RenderGroup[];
  pixels: number;
  notes: string[];
}

/** Page sizes from `pdfinfo -f 1 -l N` output ("Page    1 size: 612 x 792 pts"). */
export function parsePageSizes(pdfinfo: string): PageSize[] {
  return [...pdfinfo.matchAll(/^Page\s+(\d+) size:\s+([\d.]+) x ([\d.]+) pts/gm)].map((m) => ({
    page: Number(m[1]),
    width: Number(m[2]),
    height: Number(m[3]),
  }));
}

const pixelsAt = (p: PageSize, dpi: number) => Math.ceil((p.width / 72) * dpi) * Math.ceil((p.height / 72) * dpi);

export function planPages(sizes: PageSize[], dpi: number, maxPagePixels: number, maxTotalPixels: number): PagePlan {
  const groups: RenderGroup[] = [];
  const notes: string[] = [];
  let pixels = 0;
  let planned = 0;
  for (const p of sizes) {
    let d = dpi;
    const asked = pixelsAt(p, dpi);
    if (asked > maxPagePixels) {
      d = Math.max(1, Math.floor(dpi * Math.sqrt(maxPagePixels / asked)));
      while (d > 1 && pixelsAt(p, d) > maxPagePixels) d--;
      notes.push(msg.renderPageScaled(p.page, asked, maxPagePixels, d));
    }
    const px = pixelsAt(p, d);
    if (pixels + px > maxTotalPixels) {
      notes.push(msg.renderPixelBudget(maxTotalPixels, planned));
      break;
    }
    pixels += px;
    planned++;
    const last = groups[groups.length - 1];
    if (last && last.dpi === d && last.last === p.page - 1) last.last = p.page;
    else groups.push({ first: p.page, last: p.page, dpi: d });
  }
  return { groups, pixels, notes };
}
