// Host-affine activities (issue #10): after a unit's workspace is prepared on some host, whatever
// touches that workspace or its container goes to the host's own task queue, with a limit on how
// long it may wait there. A wait that runs out means the host is gone: the unit moves.
import {
  ActivityFailure,
  ApplicationFailure,
  ChildWorkflowFailure,
  TimeoutFailure,
  upsertSearchAttributes,
  type ActivityOptions,
} from '@temporalio/workflow';
import { DEFAULT_HOST_WAIT_SECONDS, hostQueue, type UnitSettings } from '@assay/core/pure';
import { searchKeys } from './definitions.js';

/** `options` sent to the host's queue; without a host (a worker that names none) they stay on this queue. */
export function onHost(options: ActivityOptions, unit: UnitSettings, hostId: string | undefined): ActivityOptions {
  if (!hostId) return options;
  return {
    ...options,
    taskQueue: hostQueue(hostId),
    scheduleToStartTimeout: `${unit.hostWaitSeconds ?? DEFAULT_HOST_WAIT_SECONDS}s`,
  };
}

/**
 * Why this failure means the host is gone, or null. A lost worker's running activity times out
 * by heartbeat and its retry waits on the host's queue: no worker takes it in time, and
 * ScheduleToStart timeouts are never retried.
 */
export function hostLostReason(err: unknown, hostId: string, unit: UnitSettings): string | null {
  // A child (a project's subtask) that lost its host says so as a HostLost failure.
  if (err instanceof ChildWorkflowFailure && err.cause instanceof ApplicationFailure && err.cause.type === HOST_LOST)
    return err.cause.message;
  if (!(err instanceof ActivityFailure) || !(err.cause instanceof TimeoutFailure)) return null;
  if (err.cause.timeoutType !== 'SCHEDULE_TO_START') return null;
  const wait = unit.hostWaitSeconds ?? DEFAULT_HOST_WAIT_SECONDS;
  return `no worker of host "${hostId}" took ${err.activityType} within ${wait} s`;
}

/** The failure type a child workflow ends with when its host was gone. */
export const HOST_LOST = 'HostLost';

/** The Web UI's AssayHost: where the unit's workspace is now. */
export function showHost(hostId: string | undefined): void {
  if (hostId) upsertSearchAttributes([{ key: searchKeys.host, value: hostId }]);
}
