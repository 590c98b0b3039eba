// The trial page: the record, the instruction, the transcript, the deliverables as the judge saw
// them, and every rubric item with its anchors resolved to the deliverable.
import path from 'node:path';
import { readHarborText, type HarborTrialInfo } from '@assay/analysis';
import type { SubmissionView } from '@assay/evidence';
import { trialDirKey, trialRecordKey } from '@assay/results';
import { taskContext } from './benchmark-context.js';
import { describeHarborRewards } from './describe-harbor-rewards.js';
import { citedEvidence, verdictAnchors } from './evidence-anchors.js';
import { messages } from './messages.js';
import { readHarborTrajectory } from './read-harbor-trajectory.js';
import { readSourceRecords } from './read-source-records.js';
import { readTranscript } from './read-transcript.js';
import { submissionView } from './submission-views.js';
import type { ViewerSource } from './viewer-source.js';

export class NotFoundError extends Error {}

export async function buildTrialDetail(source: ViewerSource, system: string, task: string, trial: number) {
  const records = await readSourceRecords(source);
  const { trials } = records;
  const record = trials.find((r) => r.system.id === system && r.task.id === task && r.trial === trial);
  if (!record) throw new NotFoundError(messages.unknownTrial(trialRecordKey(system, task, trial)));
  const harborInfo = records.harborTrials?.find((t) => t.key === `${system}/${task}/${trial}`) ?? null;
  const [context, transcript, view] = await Promise.all([
    taskContext(source, task),
    // A Harbor job's trial: its ATIF trajectory is the transcript (a multi-step trial's are shown per step).
    harborInfo ? harborTranscriptOf(harborInfo) : readTranscript(source.store, trialDirKey(system, task, trial)),
    submissionView(source, record.deliverables),
  ]);
  const paths = record.deliverables.map((d) => d.path);
  const items = record.verdicts.map((v) => {
    const spec = context.items[v.itemId];
    const evidence = citedEvidence(v.judge);
    return {
      ...v,
      text: spec?.text ?? null,
      check: spec?.check ?? null,
      evidence,
      anchors: verdictAnchors(v, paths, spec?.check),
      cost: judgeCost(v.judge),
    };
  });
  const siblings = trials
    .filter((r) => r.system.id === system && r.task.id === task)
    .map((r) => r.trial)
    .sort((a, b) => a - b);
  return {
    source: source.id,
    record,
    task: { title: context.title, instruction: context.instruction, outputs: context.outputs, note: context.note },
    transcript,
    deliverables: deliverablesOf(view),
    items,
    siblings,
    /** Harbor tasks: the verifier's rewards per key and how the score was made of them (null for rubric tasks). */
    harborRewards: describeHarborRewards(record.verifier),
    /** A trial of a Harbor job folder: its name, agent version, exception and phase timings as Harbor wrote them. */
    harborTrial: harborInfo ? harborTrialShown(harborInfo) : null,
  };
}

function harborTranscriptOf(info: HarborTrialInfo) {
  const shown = readHarborTrajectory(info.trajectoryFile, jobDirOf(info));
  if (!info.steps) return shown;
  return { ...shown, note: "A multi-step trial: each step's ATIF trajectory is shown with its step above." };
}

/** Trial folders are the job folder's children: reads stay inside it. */
const jobDirOf = (info: HarborTrialInfo): string => path.dirname(info.dir);

function harborTrialShown(info: HarborTrialInfo) {
  // Local paths stay on the server (a viewer may listen beyond 127.0.0.1).
  const { key: _key, dir: _dir, trajectoryFile, logFile, exceptionFile, steps, ...shown } = info;
  const root = jobDirOf(info);
  return {
    ...shown,
    trajectory: trajectoryFile !== null,
    /** Each step's exception, timings and ATIF trajectory (null: a single-step trial). */
    steps:
      steps?.map(({ trajectoryFile: file, ...step }) => ({
        ...step,
        transcript: readHarborTrajectory(file, root, `steps/${step.name}/agent/trajectory.json`),
      })) ?? null,
    /** trial.log and exception.txt, bounded (head and tail of a large file) and never through a symlink out. */
    logs: [logFile ?? path.join(info.dir, 'trial.log'), exceptionFile ?? path.join(info.dir, 'exception.txt')]
      .map((file) => readHarborText(root, file))
      .map(({ name, ...text }) => ({ ...text, name: path.basename(name) })),
  };
}

/** The judge's usage share and latency for this item, when a model judged it. */
export function judgeCost(judge: Record<string, unknown> | undefined) {
  if (!judge) return null;
  const usage = judge.usage as Record<string, unknown> | undefined;
  if (!usage && judge.latencyMs === undefined) return null;
  return {
    provider: judge.provider ?? null,
    model: judge.model ?? null,
    usage: usage ?? null,
    latencyMs: judge.latencyMs ?? null,
    reused: judge.reused ?? null,
  };
}

/** The evidence view per file, as JSON for the page (the judge's own view, not re-parsed). */
export function deliverablesOf(view: SubmissionView) {
  return {
    notes: view.notes,
    files: view.files.map((f) => ({
      path: f.path,
      format: f.format,
      type: f.type,
      size: f.size,
      sha256: f.sha256,
      notes: f.notes,
      evidence: f.evidence,
      // Office files and PDFs have pages the judge can view.
      paged: f.format === 'xlsx' || f.format === 'docx' || f.format === 'pptx' || f.format === 'pdf',
    })),
  };
}
