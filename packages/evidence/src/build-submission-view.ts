// The whole-submission evidence view: a manifest of every entry (path, type by content, size,
// sha256), per-file evidence parsed in an isolated process, notes for whatever could not be read,
// and optionally page images. The files' evidence shares one size budget (maxViewBytes): each file
// may use what is left of it, so the view never holds more.
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { walkSubmission } from './walk-submission.js';
import { IsolatedExtractor, type Extractor, type MeasuredResult } from './isolate/run-isolated.js';
import { extractionCacheKey, type ExtractionCache } from './extraction-cache.js';
import { renderPageImages } from './render-page-images.js';
import type { RenderOptions } from './render-page-images.js';
import { resolveLimits } from './limits.js';
import type { EvidenceLimits } from './limits.js';
import { msg } from './messages.js';
import type { FileView, SubmissionView } from './types.js';

export interface BuildOptions {
  limits?: Partial<EvidenceLimits>;
  /** Render page images of docx/xlsx/pptx/pdf files into `render.outDir/<file path>/page-N.png`. */
  render?: RenderOptions & { outDir: string };
  /** Reuse a parser process across submissions (the caller closes it); default: one per call. */
  extractor?: Extractor;
  /** Reuse extraction results of files with the same content, name and budgets. */
  cache?: ExtractionCache;
}

async function sha256(abs: string, maxBytes: number): Promise<string> {
  const fh = await open(abs, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    const s = await fh.stat();
    if (!s.isFile()) throw new Error('not a regular file');
    if (s.nlink > 1) throw new Error('a hard link (refused)');
    const hash = createHash('sha256');
    const buf = Buffer.alloc(1 << 20);
    let total = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) throw new Error('file grew past the hashing cap');
      hash.update(buf.subarray(0, bytesRead));
    }
    return hash.digest('hex');
  } finally {
    await fh.close();
  }
}

/** The file's extraction, from the cache when its content was parsed under the same budgets before. */
async function extractCached(
  extractor: Extractor,
  cache: ExtractionCache | undefined,
  e: { abs: string; path: string },
  sha: string | null,
  budget: { maxEvidenceBytes: number; sizeScope: 'file' | 'submission' },
): Promise<MeasuredResult> {
  const key =
    cache && sha ? extractionCacheKey({ sha256: sha, name: e.path, limits: extractor.limits, ...budget }) : null;
  const hit = key && cache ? await cache.get(key) : null;
  if (hit) return hit;
  const fresh = await extractor.extractMeasured(e.abs, e.path, budget);
  if (key && cache) await cache.put(key, fresh);
  return fresh;
}

/** Below this much of the submission's size budget a file is not parsed at all (its envelope alone fills it). */
const MIN_FILE_BUDGET = 32 * 1024;

/** Folder name for a file's page images: its path flattened, plus a hash so names never collide. */
function renderDirName(path: string): string {
  return `${path.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80)}-${createHash('sha256').update(path).digest('hex').slice(0, 8)}`;
}

export async function buildSubmissionView(dir: string, opts: BuildOptions = {}): Promise<SubmissionView> {
  const limits = resolveLimits(opts.limits);
  const { entries, notes } = await walkSubmission(dir, limits);
  const own = opts.extractor ? null : new IsolatedExtractor(limits);
  const extractor = opts.extractor ?? own!;
  const files: FileView[] = [];
  let viewBytes = 0;
  try {
    for (const e of entries) {
      const view: FileView = {
        path: e.path,
        entry: e.entry,
        format: null,
        type: e.entry === 'file' ? 'unknown' : (e.kind ?? e.entry),
        size: e.size,
        sha256: null,
        evidence: null,
        notes: e.note ? [e.note] : [],
      };
      files.push(view);
      if (e.entry !== 'file') continue;
      if (e.size <= limits.maxHashBytes) {
        try {
          view.sha256 = await sha256(e.abs, limits.maxHashBytes);
        } catch (err) {
          view.notes.push(msg.unreadable(err));
        }
      } else view.notes.push(msg.notHashed(limits.maxHashBytes));
      const left = limits.maxViewBytes - viewBytes;
      if (left < MIN_FILE_BUDGET) {
        view.notes.push(msg.viewBudgetSpent(limits.maxViewBytes));
        continue;
      }
      const budget = {
        maxEvidenceBytes: Math.min(limits.maxEvidenceBytes, left),
        sizeScope: left < limits.maxEvidenceBytes ? ('submission' as const) : ('file' as const),
      };
      const { result, bytes } = await extractCached(extractor, opts.cache, e, view.sha256, budget);
      viewBytes += bytes;
      view.format = result.detection.format;
      view.type = result.detection.type;
      view.evidence = result.evidence;
      view.notes.push(...result.notes);
      const f = view.format;
      if (opts.render && view.evidence && (f === 'docx' || f === 'xlsx' || f === 'pptx' || f === 'pdf')) {
        const r = await renderPageImages(e.abs, join(opts.render.outDir, renderDirName(e.path)), {
          ...opts.render,
          format: f,
        });
        view.pageImages = r.pages;
        view.notes.push(...r.notes);
      }
    }
  } finally {
    own?.close();
  }
  return { version: 1, root: dir, files, notes };
}
