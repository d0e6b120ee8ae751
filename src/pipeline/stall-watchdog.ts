/**
 * Every few seconds: probe progress (progress.ts), publish it as metrics, and when records have
 * waited with nothing committed for STALL_RESTART_MS, restart the worker's Kafka side (consumer and
 * producers). A consumer stuck on a dead coordinator recovers that way without a person; after
 * MAX_RESTARTS restarts in a row without progress the worker gives up loudly (exit non-zero, for its
 * supervisor), since restarting again would only hide the problem.
 */
import { InfrastructureError } from '../errors/catalog.js';
import type { RetryBoard } from '../errors/retry.js';
import type { Logger } from '../observability/logger.js';
import type { WorkerMetrics } from './metrics.js';
import type { ProgressMonitor } from './progress.js';

const PROBE_INTERVAL_MS = 5_000;
export const MAX_RESTARTS = 3;

export interface WatchdogDependencies {
  readonly monitor: ProgressMonitor;
  readonly board: RetryBoard;
  readonly metrics: WorkerMetrics;
  readonly log: Logger;
  readonly stallRestartMs: number;
  /** Whether the worker holds partitions (a stall means nothing without them). */
  isAssigned(): boolean;
  restart(): Promise<void>;
  fatal(error: Error): void;
}

export class StallWatchdog {
  private timer: NodeJS.Timeout | null = null;
  private restarts = 0;
  private busy = false;

  constructor(private readonly deps: WatchdogDependencies) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), PROBE_INTERVAL_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Progress was made: restarts count from zero again. */
  progressed(): void {
    this.restarts = 0;
  }

  async tick(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const { monitor, metrics, board } = this.deps;
      await monitor.probe();
      const stalled = monitor.secondsSinceProgress();
      metrics.secondsSinceProgress.set(stalled);
      metrics.retryingSince.reset();
      for (const { loop, seconds } of board.entries()) metrics.retryingSince.set({ loop }, seconds);
      if (this.timer === null || !this.deps.isAssigned() || stalled * 1000 < this.deps.stallRestartMs) return;
      if (++this.restarts > MAX_RESTARTS) {
        this.deps.fatal(
          new InfrastructureError(
            'RETRIES_EXHAUSTED',
            `no progress for ${Math.round(stalled)} s after ${MAX_RESTARTS} restarts of the consumer`,
          ),
        );
        return;
      }
      metrics.consumerRestarts.inc();
      this.deps.log.error(
        { stalledSeconds: Math.round(stalled), lag: monitor.lag(), restart: this.restarts },
        'no progress while records wait: restarting the consumer and producers',
      );
      await this.deps.restart();
    } catch (error) {
      this.deps.fatal(error instanceof Error ? error : new Error(String(error)));
    } finally {
      this.busy = false;
    }
  }
}
