// The viewer's HTTP surface (Hono): a JSON API over the results sources and the bundled front end.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Hono, type Context } from 'hono';
import { buildAgreement } from './build-agreement.js';
import { buildComparison } from './build-comparison.js';
import { buildOverview } from './build-overview.js';
import { buildProjectDetail, findProject, judgedOutputs } from './build-project-detail.js';
import { buildTrialDetail, deliverablesOf, NotFoundError } from './build-trial-detail.js';
import { diffFileContents } from './diff-file-contents.js';
import { messages } from './messages.js';
import { sourceRevision } from './read-source-records.js';
import { requireToken } from './require-token.js';
import { addReviewRoutes, BadRequestError, ForbiddenError, type SourceOf } from './review-routes.js';
import { pageImages, readPng, submissionView } from './submission-views.js';
import type { ViewerSource } from './viewer-source.js';

const SHA256 = /^[0-9a-f]{64}$/;
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html' };

export interface ViewerAppOptions {
  /** The port the viewer listens on (known once it listens): writes must name it as Host and Origin. */
  port: () => number;
  /** `assay view --reviewer NAME`: the reviewer the labelling page starts with. */
  reviewer?: string | null;
  /** The address it listens on (default 127.0.0.1): writes may name it as Host and Origin too. */
  host?: string;
  /** When set, every request must carry it (see require-token.ts). */
  token?: string | null;
}

const statusOf = (err: Error) =>
  err instanceof NotFoundError ? 404 : err instanceof BadRequestError ? 400 : err instanceof ForbiddenError ? 403 : 500;

export function createViewerApp(sources: readonly ViewerSource[], clientDir: string, options: ViewerAppOptions): Hono {
  const app = new Hono();
  const sourceOf = sourceFinder(sources);
  app.onError((err, c) => c.json({ error: err.message }, statusOf(err)));
  if (options.token) app.use('*', requireToken(options.token, options.port));
  addReviewRoutes(app, sourceOf, options.port, options.host);
  addSourcesRoutes(app, sources, options);
  addRecordRoutes(app, sourceOf);
  addPageRoutes(app, sourceOf);
  // Last: its catch-all answers any path the routes above did not take.
  addClientRoutes(app, clientDir);
  return app;
}

function sourceFinder(sources: readonly ViewerSource[]): SourceOf {
  return (c) => {
    const id = c.req.param('source') ?? '';
    const s = sources.find((x) => x.id === id);
    if (!s) throw new NotFoundError(messages.unknownSource(id));
    return s;
  };
}

const trialNumber = (c: Context) => Number(c.req.param('trial'));

/** The settings of the page, and what spans whole sources: the overview, agreement, comparison. */
function addSourcesRoutes(app: Hono, sources: readonly ViewerSource[], options: ViewerAppOptions): void {
  app.get('/api/config', (c) => c.json({ reviewer: options.reviewer ?? null }));

  app.get('/api/overview', async (c) => c.json(await buildOverview(sources)));
  // Polled by the page: a new value means records landed (or went) since it last loaded.
  app.get('/api/revision', async (c) =>
    c.json({ revision: (await Promise.all(sources.map(sourceRevision))).join('.') }),
  );
  app.get('/api/agreement/:source', async (c) => c.json(await buildAgreement(sources, c.req.param('source'))));
  app.get('/api/compare/:a/:b', async (c) =>
    c.json(await buildComparison(sources, c.req.param('a'), c.req.param('b'))),
  );
}

/** One trial or project record, a file's change between checkpoints, and a checkpoint's outputs. */
function addRecordRoutes(app: Hono, sourceOf: SourceOf): void {
  app.get('/api/trial/:source/:system/:task/:trial', async (c) =>
    c.json(await buildTrialDetail(sourceOf(c), c.req.param('system'), c.req.param('task'), trialNumber(c))),
  );
  app.get('/api/project/:source/:system/:project/:trial', async (c) =>
    c.json(await buildProjectDetail(sourceOf(c), c.req.param('system'), c.req.param('project'), trialNumber(c))),
  );
  // Inside one file, checkpoint `checkpoint` (0-based) against the one before it.
  app.get('/api/project/:source/:system/:project/:trial/diff', async (c) => {
    const source = sourceOf(c);
    const record = await findProject(source, c.req.param('system'), c.req.param('project'), trialNumber(c));
    const index = Number(c.req.query('checkpoint'));
    const file = c.req.query('path') ?? '';
    const after = record.checkpoints[index]?.snapshot.files.find((f) => f.path === file) ?? null;
    const before = record.checkpoints[index - 1]?.snapshot.files.find((f) => f.path === file) ?? null;
    return c.json(await diffFileContents(source, file, before, after));
  });
  // The outputs of checkpoint `n` (0-based) or of the final package, as the judge saw them.
  app.get('/api/project/:source/:system/:project/:trial/view/:which', async (c) => {
    const source = sourceOf(c);
    const record = await findProject(source, c.req.param('system'), c.req.param('project'), trialNumber(c));
    const which = c.req.param('which');
    // Package files are already relative to outputs/; a snapshot holds the whole workspace.
    const snapshot = record.checkpoints[Number(which)]?.snapshot.files;
    const files = which === 'final' ? record.final.packageFiles : snapshot && judgedOutputs(snapshot);
    if (!files) throw new NotFoundError(messages.unknownCheckpoint(which));
    return c.json(deliverablesOf(await submissionView(source, files)));
  });
}

/** A file's page images: how many, and each as PNG. */
function addPageRoutes(app: Hono, sourceOf: SourceOf): void {
  app.get('/api/pages/:source/:sha', async (c) => {
    const pages = await pagesFor(c, sourceOf);
    return c.json({ pages: pages.length });
  });
  app.get('/api/pages/:source/:sha/:page', async (c) => {
    const pages = await pagesFor(c, sourceOf);
    const page = Number(c.req.param('page'));
    const file = pages[page - 1];
    if (!file) throw new NotFoundError(messages.noPage(c.req.param('sha'), page));
    return c.body(readPng(file) as Uint8Array<ArrayBuffer>, 200, {
      'content-type': 'image/png',
      'cache-control': 'max-age=86400',
    });
  });
}

async function pagesFor(c: Context, sourceOf: SourceOf): Promise<string[]> {
  const sha = c.req.param('sha') ?? '';
  if (!SHA256.test(sha)) throw new NotFoundError(messages.notInSubmission(sha));
  return pageImages(sourceOf(c), sha, c.req.query('name') ?? 'file');
}

/** The bundled front end: its files by name, and the single-page app for every other path. */
function addClientRoutes(app: Hono, clientDir: string): void {
  app.get('/assets/:file', (c) => {
    const name = path.basename(c.req.param('file'));
    try {
      const body = readFileSync(path.join(clientDir, name));
      return c.body(body, 200, { 'content-type': TYPES[path.extname(name)] ?? 'application/octet-stream' });
    } catch {
      return c.notFound();
    }
  });
  // Every other path is the single-page app (routes live in the URL hash).
  app.get('*', (c) => c.html(readFileSync(path.join(clientDir, 'index.html'), 'utf8')));
}
