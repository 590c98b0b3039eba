// The JSON API's shapes, taken from the server's own builders (one definition), and fetch helpers.
import type { buildAgreement } from '../src/build-agreement.js';
import type { buildComparison } from '../src/build-comparison.js';
import type { buildOverview } from '../src/build-overview.js';
import type { buildProjectDetail } from '../src/build-project-detail.js';
import type { buildTrialDetail } from '../src/build-trial-detail.js';
import type { diffFileContents } from '../src/diff-file-contents.js';
import type { Review } from '@assay/core';
import type { ReviewInput, reviewQueue } from '../src/review-routes.js';

export type Overview = Awaited<ReturnType<typeof buildOverview>>;
export type AgreementView = Awaited<ReturnType<typeof buildAgreement>>;
export type TrialDetail = Awaited<ReturnType<typeof buildTrialDetail>>;
export type Comparison = Awaited<ReturnType<typeof buildComparison>>;
export type ProjectDetail = Awaited<ReturnType<typeof buildProjectDetail>>;
export type FileDiff = Awaited<ReturnType<typeof diffFileContents>>;
export type TrialItem = TrialDetail['items'][number];
export type DeliverableFile = TrialDetail['deliverables']['files'][number];
export type Checkpoint = ProjectDetail['checkpoints'][number];
export type CriterionItem = Checkpoint['verdicts'][number];
export type AnchorRef = TrialItem['anchors'][number];
export type ReviewQueue = Awaited<ReturnType<typeof reviewQueue>>;
export type QueueEntry = ReviewQueue['entries'][number];
/** The body of POST /api/reviews/:source, as the server parses it. */
export type ReviewPost = ReviewInput;
export interface PostedReview {
  review: Review;
  judge: { decision: 'satisfied' | 'not-satisfied' | 'unjudged'; reason: string; anchors: AnchorRef[] };
}

export async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  const body = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(body.error ?? `${res.status} ${res.statusText}`);
  return body;
}

const enc = encodeURIComponent;

async function postJson<T>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const got = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(got.error ?? `${res.status} ${res.statusText}`);
  return got;
}

export const api = {
  overview: () => getJson<Overview>('/api/overview'),
  revision: () => getJson<{ revision: string }>('/api/revision'),
  config: () => getJson<{ reviewer: string | null }>('/api/config'),
  reviewQueue: (s: string, query: URLSearchParams) =>
    getJson<ReviewQueue>(`/api/review-queue/${enc(s)}?${query.toString()}`),
  reviewDeliverables: (s: string, system: string, task: string, trial: number) =>
    getJson<TrialDetail['deliverables']>(`/api/review-deliverables/${enc(s)}/${enc(system)}/${enc(task)}/${trial}`),
  postReview: (s: string, body: ReviewPost) => postJson<PostedReview>(`/api/reviews/${enc(s)}`, body),
  compare: (a: string, b: string) => getJson<Comparison>(`/api/compare/${enc(a)}/${enc(b)}`),
  agreement: (s: string) => getJson<AgreementView>(`/api/agreement/${enc(s)}`),
  trial: (s: string, system: string, task: string, trial: number) =>
    getJson<TrialDetail>(`/api/trial/${enc(s)}/${enc(system)}/${enc(task)}/${trial}`),
  project: (s: string, system: string, project: string, trial: number) =>
    getJson<ProjectDetail>(`/api/project/${enc(s)}/${enc(system)}/${enc(project)}/${trial}`),
  diff: (s: string, system: string, project: string, trial: number, checkpoint: number, path: string) =>
    getJson<FileDiff>(
      `/api/project/${enc(s)}/${enc(system)}/${enc(project)}/${trial}/diff?checkpoint=${checkpoint}&path=${enc(path)}`,
    ),
  checkpointView: (s: string, system: string, project: string, trial: number, which: string) =>
    getJson<TrialDetail['deliverables']>(
      `/api/project/${enc(s)}/${enc(system)}/${enc(project)}/${trial}/view/${enc(which)}`,
    ),
  pageCount: (s: string, sha: string, name: string) =>
    getJson<{ pages: number }>(`/api/pages/${enc(s)}/${sha}?name=${enc(name)}`),
  pageUrl: (s: string, sha: string, page: number, name: string) =>
    `/api/pages/${enc(s)}/${sha}/${page}?name=${enc(name)}`,
};
