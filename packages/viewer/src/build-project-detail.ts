// The project page: the stage/subtask timeline with checkpoint scores, what changed between
// consecutive snapshots (core's diffSnapshots), reused verdicts, and the final package's
// criteria with signed weights, gates and dependencies.
import { diffSnapshots, type CriterionVerdict, type SnapshotFile } from '@assay/core';
import { projectRecordKey, subtaskDirKey } from '@assay/results';
import { projectContext } from './benchmark-context.js';
import { judgeCost, NotFoundError } from './build-trial-detail.js';
import { citedEvidence, verdictAnchors } from './evidence-anchors.js';
import { messages } from './messages.js';
import { readSourceRecords } from './read-source-records.js';
import { readTranscript } from './read-transcript.js';
import type { ViewerSource } from './viewer-source.js';

type Described = { text: string; dependsOn: string[]; check: unknown; reuses: string | null };

export async function findProject(source: ViewerSource, system: string, project: string, trial: number) {
  const { projects } = await readSourceRecords(source);
  const record = projects.find((r) => r.system.id === system && r.project.id === project && r.trial === trial);
  if (!record) throw new NotFoundError(messages.unknownProject(projectRecordKey(system, project, trial)));
  return record;
}

export async function buildProjectDetail(source: ViewerSource, system: string, project: string, trial: number) {
  const record = await findProject(source, system, project, trial);
  const context = await projectContext(source, project);
  let previous: SnapshotFile[] = [];
  const checkpoints = [];
  for (const cp of record.checkpoints) {
    const files = cp.snapshot.files;
    const specs = context.checkpointCriteria[cp.subtaskId] ?? {};
    checkpoints.push({
      ...cp,
      diff: diffSnapshots(previous, files),
      verdicts: cp.verdicts.map((v) => describeVerdict(v, specs[v.criterionId], outputsOf(files))),
      transcript: await readTranscript(source.store, subtaskDirKey(system, project, trial, cp.subtaskId)),
    });
    previous = files;
  }
  const packageFiles = record.final.packageFiles;
  return {
    source: source.id,
    record: { ...record, checkpoints: undefined },
    context: { title: context.title, objective: context.objective, stages: context.stages, note: context.note },
    checkpoints,
    final: {
      ...record.final,
      verdicts: record.final.verdicts.map((v) =>
        describeVerdict(
          v,
          context.finalCriteria[v.criterionId],
          packageFiles.map((f) => f.path),
        ),
      ),
    },
  };
}

function describeVerdict(v: CriterionVerdict, spec: Described | undefined, files: string[]) {
  const evidence = citedEvidence(v.judge);
  return {
    ...v,
    text: spec?.text ?? null,
    dependsOn: spec?.dependsOn ?? [],
    reuses: spec?.reuses ?? null,
    check: spec?.check ?? null,
    evidence,
    anchors: verdictAnchors(v, files, spec?.check),
    cost: judgeCost(v.judge),
  };
}

/** What the judge reads of a snapshot: the files under outputs/, relative to it. */
export function outputsOf(files: readonly SnapshotFile[]): string[] {
  return files.filter((f) => f.path.startsWith('outputs/')).map((f) => f.path.slice('outputs/'.length));
}

/** The snapshot files under outputs/, relative to it: the submission the judge evaluated. */
export function judgedOutputs(files: readonly SnapshotFile[]): SnapshotFile[] {
  return files
    .filter((f) => f.path.startsWith('outputs/'))
    .map((f) => ({ ...f, path: f.path.slice('outputs/'.length) }));
}
