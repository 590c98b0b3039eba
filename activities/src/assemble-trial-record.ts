// The trial record from what the trial's activities produced; scores come from core.
import { digestTask, type LoadedTask } from '@assay/benchmark';
import {
  TRIAL_RECORD_SCHEMA,
  agentRunSchema,
  pinOf,
  scoreTask,
  trialRecordSchema,
  type AssayVersion,
  type DeliverableEntry,
  type TrialInput,
  type TrialRecord,
} from '@assay/core';
import { agentProvenanceOf } from './agent-provenance.js';
import { judgeProvenanceOf } from './judge-provenance.js';
import { agentStatusOf, type AgentRun } from './run-harness.js';
import type { Evaluation } from './task-evaluation.js';
import type { StorageCap } from './workspace-volume.js';
import type { HostRecord } from './host-identity.js';

export function assembleTrialRecord(args: {
  trial: TrialInput;
  task: LoadedTask;
  run: AgentRun;
  deliverables: DeliverableEntry[];
  evaluation: Evaluation;
  storage: StorageCap | undefined;
  placement?: HostRecord;
  /** The assay that runs this worker (absent: not known here, and not recorded). */
  assay?: AssayVersion;
  /** The runs `run` sums up (a multi-step task's steps), for their images and models; default: `run` alone. */
  agentRuns?: AgentRun[];
}): TrialRecord {
  const { trial, task, run } = args;
  return trialRecordSchema.parse({
    schema: TRIAL_RECORD_SCHEMA,
    jobId: trial.jobId,
    benchmark: { id: trial.benchmark.id, version: trial.benchmark.version },
    system: { id: trial.system.id, harness: trial.system.harness, model: trial.system.model ?? null },
    task: { id: task.spec.id, domain: task.spec.domain, formatRequired: task.spec.formatRequired },
    trial: trial.trial,
    status: agentStatusOf(run),
    agent: agentRunSchema.parse(run),
    usage: run.usage,
    deliverables: args.deliverables,
    formatCompliance: args.evaluation.formatCompliance,
    verdicts: args.evaluation.verdicts,
    score: scoreTask(args.evaluation.verdicts),
    ...(args.storage ? { storage: args.storage } : {}),
    ...(args.placement ? { host: args.placement.host, moves: args.placement.moves } : {}),
    provenance: {
      unit: pinOf(digestTask(task)),
      ...(args.assay ? { assay: args.assay } : {}),
      ...agentProvenanceOf(args.agentRuns ?? [run]),
      // A Harbor task's verifier and sidecar images (absent in evaluations made before them).
      ...args.evaluation.harborImages,
      // A verifier's reward scores a Harbor trial: no judge decides anything in it.
      ...(args.evaluation.verifier ? {} : { judge: judgeProvenanceOf(trial.judge, args.evaluation.verdicts) }),
    },
    recordedAt: new Date().toISOString(),
  });
}
