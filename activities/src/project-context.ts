// What the project activities share: benchmark lookup, the job's results store and the keys
// of one project trial in it.
import type { LoadedProject } from '@assay/benchmark';
import type { AssayVersion, CheckpointRecord, ProjectTrialInput } from '@assay/core';
import {
  CHECKPOINT_RECORD_FILE,
  openResultsStore,
  projectDirKey,
  subtaskDirKey,
  type ResultsStore,
} from '@assay/results';
import type { EvidenceTools } from './evaluate-deliverables.js';
import type { JudgeFactory } from './evaluate-items.js';
import { createBenchmarkLookup } from './load-benchmark-once.js';
import { allSubtasks, type EvaluationDeps } from './project-evaluation.js';
import type { HarnessDeps } from './run-harness.js';
import { LOCAL_HOST, type HostIdentity } from './host-identity.js';
import { projectPaths } from './project-paths.js';

export interface ProjectActivityDeps extends HarnessDeps {
  evidence: EvidenceTools;
  /** The judge for a job's setup; absent: every criterion without a decisive check stays unjudged. */
  judgeFor?: JudgeFactory;
  /** Fault injection for chaos tests: step name -> hold in ms (see parseFaultDelays). */
  faults?: Record<string, number>;
  /** This worker's host (default: one machine, work folders in the results folder). */
  host?: HostIdentity;
  /** The assay this worker runs, read once at its start (see readAssayVersion): every record names it. */
  assay?: AssayVersion;
}

export type ProjectContext = ReturnType<typeof createProjectContext>;

export function createProjectContext(deps: ProjectActivityDeps) {
  const benchmarks = createBenchmarkLookup();
  const projectOf = (p: ProjectTrialInput): LoadedProject => benchmarks.project(p.benchmark.root, p.projectId);
  const host = deps.host ?? LOCAL_HOST;
  const pathsOf = (p: ProjectTrialInput) => projectPaths(p, host.workRoot);
  const storeOf = (p: ProjectTrialInput): ResultsStore => openResultsStore(p.resultsDir);
  const subtaskKey = (p: ProjectTrialInput, id: string) => subtaskDirKey(p.system.id, p.projectId, p.trial, id);
  const projectKey = (p: ProjectTrialInput) => projectDirKey(p.system.id, p.projectId, p.trial);
  const readCheckpoints = (p: ProjectTrialInput, project: LoadedProject) =>
    Promise.all(
      allSubtasks(project).map(
        async (id) =>
          (await requireJson(storeOf(p), `${subtaskKey(p, id)}/${CHECKPOINT_RECORD_FILE}`)) as CheckpointRecord,
      ),
    );
  const evalDeps = (p: ProjectTrialInput): EvaluationDeps => ({
    evidence: deps.evidence,
    judge: deps.judgeFor?.(p.judge, { resultsDir: p.resultsDir }) ?? null,
    judgeSetup: p.judge,
    store: storeOf(p),
  });
  return { deps, host, pathsOf, projectOf, storeOf, subtaskKey, projectKey, readCheckpoints, evalDeps };
}

export async function requireJson(store: ResultsStore, key: string): Promise<unknown> {
  const value = await store.getJson(key);
  if (value === null) throw new Error(`${store.location}: ${key} is missing`);
  return value;
}
