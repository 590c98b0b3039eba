// The job's control state as its workflow last wrote it (`job-control.json`), for the overview's
// banner: paused (by whom, why, since when), cancelled, concurrency, the endpoints back-pressure limits.
import { describeEndpoint, jobControlFileSchema, type JobControlFile } from '@assay/core';
import { jobControlKey } from '@assay/results';
import { messages } from './messages.js';
import type { ViewerSource } from './viewer-source.js';

export interface JobControlView {
  file: JobControlFile;
  /** `127.0.0.1:18080 2/8 lanes, 37 throttled in the last 5 min`, for each endpoint limited or lately throttled. */
  lanes: string[];
}

/** Null for a re-judged source (it has no job of its own) and for results written before the file existed. */
export async function readJobControl(
  source: ViewerSource,
): Promise<{ control: JobControlView | null; problem: string | null }> {
  if (source.judge !== null) return { control: null, problem: null };
  let raw: unknown;
  try {
    raw = await source.store.getJson(jobControlKey());
  } catch (err) {
    return { control: null, problem: messages.badJobControl(jobControlKey(), (err as Error).message) };
  }
  if (raw === null) return { control: null, problem: null };
  const parsed = jobControlFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const reason = issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid';
    return { control: null, problem: messages.badJobControl(jobControlKey(), reason) };
  }
  const file = parsed.data;
  const lanes = file.endpoints.filter((v) => v.limit < v.concurrency || v.recentThrottled > 0).map(describeEndpoint);
  return { control: { file, lanes }, problem: null };
}

/** What changes the file's revision: its update time (the page reloads when the job's state changed). */
export async function jobControlRevision(source: ViewerSource): Promise<string> {
  if (source.judge !== null) return '';
  return (await source.store.getText(jobControlKey()).catch(() => null)) ?? '';
}
