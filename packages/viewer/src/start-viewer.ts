// `assay view`: build the front end, serve it and the API on 127.0.0.1 until stopped.
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { REVIEWER_NAME } from '@assay/core';
import { buildClient } from './build-client.js';
import { createViewerApp } from './create-viewer-app.js';
import { resolveSources } from './resolve-sources.js';
import { messages } from './messages.js';
import { scratchDir } from './submission-views.js';

export interface ViewerOptions {
  resultsDirs: readonly string[];
  /** 0 (default): any free port. */
  port?: number;
  /** Where the bundled front end goes (default: the viewer's scratch folder). */
  clientOutDir?: string;
  /** The reviewer name the labelling page starts with (`assay view --reviewer NAME`). */
  reviewer?: string | null;
}

export interface RunningViewer {
  url: string;
  close: () => Promise<void>;
}

export async function startViewer(options: ViewerOptions): Promise<RunningViewer> {
  if (options.reviewer && !REVIEWER_NAME.test(options.reviewer))
    throw new Error(messages.badReviewer(options.reviewer));
  const sources = await resolveSources(options.resultsDirs);
  const clientDir = await buildClient(options.clientOutDir ?? path.join(scratchDir(), 'client'));
  let listening = 0;
  const app = createViewerApp(sources, clientDir, { port: () => listening, reviewer: options.reviewer ?? null });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: options.port ?? 0 }, () => resolve(s));
    s.once('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(messages.cannotListen(options.port ?? 0, err.code ?? err.message))),
    );
  });
  const { port } = server.address() as AddressInfo;
  listening = port;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      const closed = new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
      // A browser keeps idle keep-alive connections open; close() alone would wait for them.
      if ('closeAllConnections' in server) server.closeAllConnections();
      await closed;
      // Materialized submissions and rendered pages are this process's scratch only. A page
      // rendering still in flight may be writing there: what it leaves is in the temp folder.
      try {
        rmSync(scratchDir(), { recursive: true, force: true, maxRetries: 3, retryDelay: 200 });
      } catch {
        // Left for the temp folder's own clean-up.
      }
    },
  };
}
