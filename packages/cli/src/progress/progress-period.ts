import type { DisplayMode } from './progress-display.js';

/**
 * Seconds between plain summaries or JSON progress events: ASSAY_PROGRESS_SECONDS, else 30 for
 * plain lines (a log stays readable over thousands of trials) and 10 for JSON events.
 */
export function progressPeriodSeconds(mode: DisplayMode, env: NodeJS.ProcessEnv = process.env): number {
  const set = Number(env.ASSAY_PROGRESS_SECONDS);
  if (env.ASSAY_PROGRESS_SECONDS && Number.isFinite(set) && set >= 0) return set;
  return mode === 'json' ? 10 : 30;
}
