// `assay setup` in one call: every machine-level prerequisite, in order, each timed.
// Each step is idempotent, so a second run only checks (seconds).
import fs from 'node:fs';
import path from 'node:path';
import { ensureBaseImage } from './base-image.js';
import { ensureDocker } from './docker-engine.js';
import { ensureDocumentTools } from './document-tools.js';
import { scriptedAgentSourceDir } from './paths.js';
import { runChecked, type Log } from './run.js';
import { ensureVersitygw } from './s3-server.js';
import { postgresBinDir } from './postgres.js';
import { aptInstall } from './apt.js';
import { ensureTemporalServerBinaries } from './temporal-production.js';
import { ensureScriptedAgentImage } from './scripted-agent-image.js';
import { ensureTemporalCli } from './temporal-cli.js';
import { ensureTemporalTestServer } from './temporal-test-server.js';

export interface SetupOptions {
  root: string;
  log?: Log;
  /** LibreOffice + poppler + fonts (default true: the judges' evidence view needs them). */
  withDocumentTools?: boolean;
  withChromium?: boolean;
  /** versitygw, the local S3-compatible server the S3 results backend is tested against (a Go build). */
  withS3Server?: boolean;
  /** temporal-server and temporal-sql-tool built from the Go module proxy, and PostgreSQL (for --postgres). */
  withTemporalServer?: boolean;
}

export interface SetupStep {
  step: string;
  seconds: number;
  status: 'done' | 'skipped';
  detail: string;
}

export async function setupAll(opts: SetupOptions): Promise<SetupStep[]> {
  const log = opts.log ?? (() => {});
  const steps: SetupStep[] = [];
  const step = async (name: string, fn: () => Promise<{ status?: SetupStep['status']; detail: string }>) => {
    log(`== ${name}`);
    const started = Date.now();
    const r = await fn();
    const seconds = Math.round((Date.now() - started) / 100) / 10;
    steps.push({ step: name, seconds, status: r.status ?? 'done', detail: r.detail });
    log(`== ${name}: ${r.status ?? 'done'} in ${seconds} s — ${r.detail}`);
  };
  const { root } = opts;

  // The compiled CLI `pnpm assay` runs (it would build itself on first use; CI gets it here).
  await step('cli-build', async () => {
    const r = await runChecked(process.execPath, [path.join(root, 'scripts/build-cli.mjs')], { cwd: root });
    return { detail: r.stdout.trim() };
  });
  await step('temporal-cli', async () => ({ detail: await ensureTemporalCli({ root, log }) }));
  // Workflow unit tests (workflows/test) run against it; installing it here gives CI it too.
  await step('temporal-test-server', async () => ({ detail: await ensureTemporalTestServer({ root, log }) }));
  await step('docker', async () => {
    const d = await ensureDocker({ root, log });
    return { detail: `${d.host} (engine ${d.version ?? '?'}${d.startedByUs ? ', started now' : ''})` };
  });
  await step('base-image', async () => {
    const b = await ensureBaseImage({ root, log });
    return { detail: `${b.tag}${b.built ? ' (built)' : ''}` };
  });
  await step('scripted-agent-image', async () => {
    const agent = path.join(scriptedAgentSourceDir(root), 'assay_agent.py');
    if (!fs.existsSync(agent)) return { status: 'skipped', detail: `${agent} does not exist yet` };
    const i = await ensureScriptedAgentImage({ root, log });
    return { detail: `${i.tag}${i.built ? ' (built)' : ''}` };
  });
  if (opts.withDocumentTools ?? true) {
    await step('document-tools', async () => {
      const t = await ensureDocumentTools({ log, root, chromium: opts.withChromium ?? false });
      return { detail: [t.soffice, t.pdftoppm, t.chromium].filter(Boolean).join(', ') };
    });
  } else if (opts.withChromium) {
    await step('chromium', async () => {
      const t = await ensureDocumentTools({ log, root, chromium: true });
      return { detail: t.chromium ?? '' };
    });
  }
  if (opts.withTemporalServer) {
    await step('temporal-server', async () => {
      if (!postgresBinDir()) await aptInstall(['postgresql'], { log, root, noRecommends: true });
      const b = await ensureTemporalServerBinaries({ root, log });
      return { detail: `${b.server}, ${b.sqlTool}, PostgreSQL in ${postgresBinDir() ?? '?'}` };
    });
  }
  if (opts.withS3Server) {
    await step('s3-server', async () => ({ detail: await ensureVersitygw({ root, log }) }));
  }
  return steps;
}
