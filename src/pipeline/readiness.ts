/**
 * Whether a worker may receive traffic, and if not, why: what `/readyz` answers. Not ready while
 * stopping, after the dead-letter guard tripped, before the group assigned partitions, when records
 * have waited with nothing committed for STALL_READINESS_MS, or when a retry loop has been failing
 * that long (a dependency down: the worker is retrying, not serving).
 */
import type { RetryBoard } from '../errors/retry.js';
import type { DeadLetterGuard } from './dlq-guard.js';
import type { ProgressMonitor } from './progress.js';

export interface WorkerState {
  readonly stopping: boolean;
  readonly guard: DeadLetterGuard;
  readonly assigned: boolean;
  readonly monitor: ProgressMonitor | null;
  readonly board: RetryBoard;
  readonly stallReadinessMs: number;
}

export function readinessOf(s: WorkerState): string | null {
  if (s.stopping) return 'shutting down';
  if (s.guard.tripped) return `dead-letter guard tripped (share ${s.guard.share().toFixed(2)})`;
  if (!s.assigned) return 'not yet assigned partitions';
  const stalled = s.monitor?.secondsSinceProgress() ?? 0;
  if (stalled * 1000 > s.stallReadinessMs) {
    return `no progress for ${Math.round(stalled)} s while records wait (lag ${s.monitor?.lag() ?? 'unknown'})`;
  }
  const retrying = s.board.longest();
  if (retrying && retrying.seconds * 1000 > s.stallReadinessMs) {
    return `${retrying.loop} retrying for ${Math.round(retrying.seconds)} s: ${retrying.failure.code}`;
  }
  return null;
}
