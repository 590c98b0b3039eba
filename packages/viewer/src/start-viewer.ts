// `assay view`: build the front end, serve it and the API on 127.0.0.1 (or `host`, with a token) until stopped.
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { REVIEWER_NAME } from '@assay/core';
import { buildClient } from './build-client.js';
import { createViewerApp } from './create-viewer-app.js';
import { resolveSources } from './resolve-sources.js';
import { messages } from './messages.js';
import { bareHost, viewerToken } from './require-token.js';
import { scratchDir } from './submission-views.js';

export interface ViewerOptions {
  resultsDirs: readonly string[];
  /** 0 (default): any free port. */
  port?: number;
  /** Where the bundled front end goes (default: the viewer's scratch folder). */
  clientOutDir?: string;
  /** The reviewer name the labelling page starts with (`assay view --reviewer NAME`). */
  reviewer?: string | null;
  /** The address to listen on (default 127.0.0.1). Anything but 127.0.0.1, ::1 or localhost needs a token. */
  host?: string;
  /** Every request must carry it (at least 16 characters). Not given: none on loopback, else a generated one. */
  token?: string | null;
}

export interface RunningViewer {
  /** With `?token=` when there is a token: opening it lets the browser in. */
  url: string;
  close: () => Promise<void>;
}

export async function startViewer(options: ViewerOptions): Promise<RunningViewer> {
  if (options.reviewer && !REVIEWER_NAME.test(options.reviewer))
    throw new Error(messages.badReviewer(options.reviewer));
  const host = bareHost(options.host ?? '127.0.0.1');
  const token = viewerToken(host, options.token);
  const sources = await resolveSources(options.resultsDirs);
  const clientDir = await buildClient(options.clientOutDir ?? path.join(scratchDir(), 'client'));
  let listening = 0;
  const app = createViewerApp(sources, clientDir, {
    port: () => listening,
    reviewer: options.reviewer ?? null,
    host,
    token,
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port: options.port ?? 0 }, () => resolve(s));
    s.once('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(messages.cannotListen(options.port ?? 0, err.code ?? err.message, host))),
    );
  });
  const { port } = server.address() as AddressInfo;
  listening = port;
  return {
    url: `http://${urlHost(host)}:${port}/${token ? `?token=${encodeURIComponent(token)}` : ''}`,
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

/** The host of the printed URL: a wildcard is no address to open, the machine's name is (and writes accept it). */
function urlHost(host: string): string {
  const name = host === '0.0.0.0' || host === '::' ? os.hostname() : host;
  return name.includes(':') ? `[${name}]` : name;
}
