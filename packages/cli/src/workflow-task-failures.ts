// A workflow task that keeps failing (search attributes the namespace lacks, a non-determinism
// error, a workflow bundle that throws) is retried by the server forever while nothing moves and
// the SDK says nothing to the client. These find such workflows among a job's open workflows: the
// job's and its descendants' describe results (a pending workflow task on its n-th attempt), and
// the failure's own message from the newest WorkflowTaskFailed event of the history.
import type { temporal } from '@temporalio/proto';

/** The two calls a scan makes: a full client's `connection.workflowService` or status's read connection. */
export type TaskFailureService = Pick<
  temporal.api.workflowservice.v1.WorkflowService,
  'describeWorkflowExecution' | 'getWorkflowExecutionHistoryReverse'
>;
/** WorkflowTaskFailedCause value -> name, from whichever protobuf root the service uses. */
export type CauseNames = Record<number, string | undefined>;

export interface WorkflowTaskFailure {
  workflowId: string;
  /** The pending task's attempt: it failed attempt - 1 times in a row. */
  attempt: number;
  /** e.g. "BadSearchAttributes: Namespace default has no mapping defined for search attribute AssaySystem". */
  message: string;
}

interface TaskFailureScan {
  /** Workflows of the job whose pending workflow task is at this attempt or later (default 3: two failures). */
  minAttempt?: number;
  /** Describe calls per scan; a big job's running children are visited in turn over several scans. */
  budget?: number;
}

/** A scanner over one job's open workflows; each `scan()` looks at the job and the next children in turn. */
export function createTaskFailureScanner(
  service: TaskFailureService,
  causes: CauseNames,
  namespace: string,
  jobWorkflowId: string,
) {
  let offset = 0;
  const describe = (workflowId: string) =>
    service.describeWorkflowExecution({ namespace, execution: { workflowId } }).catch(() => null);

  return {
    async scan(opts: TaskFailureScan = {}): Promise<WorkflowTaskFailure[]> {
      const minAttempt = opts.minAttempt ?? 3;
      let budget = opts.budget ?? 25;
      const failures: WorkflowTaskFailure[] = [];
      const look = async (workflowId: string) => {
        budget--;
        const d = await describe(workflowId);
        const attempt = d?.pendingWorkflowTask?.attempt ?? 0;
        if (d && attempt >= minAttempt) {
          const runId = d.workflowExecutionInfo?.execution?.runId ?? '';
          const message = await currentTaskFailure(service, causes, namespace, workflowId, runId);
          if (message !== null) failures.push({ workflowId, attempt, message });
        }
        return (d?.pendingChildren ?? []).map((c) => c.workflowId ?? '').filter(Boolean);
      };
      const children = await look(jobWorkflowId);
      if (offset >= children.length) offset = 0;
      const turn = [...children.slice(offset), ...children.slice(0, offset)];
      // Children first, then their own children (a project's subtasks), while the budget lasts.
      const queue = [...turn];
      let visitedChildren = 0;
      while (queue.length > 0 && budget > 0) {
        const id = queue.shift()!;
        if (visitedChildren < turn.length && id === turn[visitedChildren]) visitedChildren++;
        queue.push(...(await look(id)));
      }
      offset = (offset + visitedChildren) % Math.max(1, children.length);
      return failures;
    },
  };
}

/**
 * "Cause: message" of the WorkflowTaskFailed event since the last completed workflow task (the
 * server records the first failure of a streak only); null when there is none, e.g. when the
 * attempts timed out on a worker that died (a restarted worker picks those up by itself).
 */
async function currentTaskFailure(
  service: TaskFailureService,
  causes: CauseNames,
  namespace: string,
  workflowId: string,
  runId: string,
): Promise<string | null> {
  const page = await service
    .getWorkflowExecutionHistoryReverse({ namespace, execution: { workflowId, runId }, maximumPageSize: 100 })
    .catch(() => null);
  const events = page?.history?.events ?? [];
  const failed = events.find((e) => e.workflowTaskFailedEventAttributes || e.workflowTaskCompletedEventAttributes);
  const attrs = failed?.workflowTaskFailedEventAttributes;
  if (!attrs) return null;
  const cause = causeName(causes, attrs.cause ?? 0);
  const message = (attrs.failure?.message ?? '').replace(/\s+/g, ' ').trim();
  return cause && !message.startsWith(cause) ? `${cause}: ${message}` : message;
}

/** WORKFLOW_TASK_FAILED_CAUSE_BAD_SEARCH_ATTRIBUTES -> BadSearchAttributes. */
function causeName(causes: CauseNames, cause: number): string {
  const name = causes[cause];
  if (!name || cause === 0) return '';
  return name
    .replace(/^WORKFLOW_TASK_FAILED_CAUSE_/, '')
    .toLowerCase()
    .replace(/(^|_)([a-z])/g, (_m, _s: string, c: string) => c.toUpperCase());
}

/** One sentence per stuck workflow, for `run` and `status`. */
export function describeTaskFailure(f: WorkflowTaskFailure): string {
  return (
    `workflow ${f.workflowId} is stuck: its workflow task failed ${f.attempt - 1} times in a row (${f.message}); ` +
    'nothing in it runs until the cause is fixed (the server keeps retrying it)'
  );
}

/** The seconds between scans while `run` or `status --wait` waits (ASSAY_TASK_FAILURE_SECONDS, default 5). */
export function taskFailureScanMs(env: NodeJS.ProcessEnv = process.env): number {
  const s = Number(env.ASSAY_TASK_FAILURE_SECONDS ?? 5);
  return (Number.isFinite(s) && s > 0 ? s : 5) * 1000;
}

/**
 * Scans every `periodMs` until stopped; `stuck` resolves with the failures of the first scan that
 * finds any (and never resolves otherwise). A scan that errors is skipped: the next one tries again.
 */
export function watchForStuckTasks(scanner: ReturnType<typeof createTaskFailureScanner>, periodMs: number) {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const stuck = new Promise<WorkflowTaskFailure[]>((resolve) => {
    const tick = async () => {
      const found = await scanner.scan().catch(() => []);
      if (stopped) return;
      if (found.length > 0) resolve(found);
      else timer = setTimeout(() => void tick(), periodMs);
    };
    timer = setTimeout(() => void tick(), periodMs);
  });
  return {
    stuck,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
