/**
 * A fetched batch of one input partition, cut into micro-batches of at most BATCH_MAX_RECORDS, each
 * committed from the partition's floor (micro-batch.ts). Infrastructure failures are retried with
 * backoff until RETRY_BUDGET_MS, reported on the retry board; between attempts the worker heartbeats,
 * so the group keeps it, and a rebalance ends the retrying (the partition's next owner takes over).
 */
import type { EachBatchPayload, KafkaMessage } from 'kafkajs';
import type { Config } from '../config.js';
import { InfrastructureError } from '../errors/catalog.js';
import { withDeadline } from '../errors/deadline.js';
import { sleep, withRetry, type RetryBoard } from '../errors/retry.js';
import type { Sink } from '../kafka/transactional-sink.js';
import type { Logger } from '../observability/logger.js';
import type { WorkerMetrics } from './metrics.js';
import { commitMicroBatch, type Committed, type MicroBatchContext } from './micro-batch.js';
import { StopWorker } from './steps.js';

export interface BatchRunnerDependencies {
  readonly config: Pick<
    Config,
    'batchMaxRecords' | 'maxInFlightBytes' | 'retryMaxDelayMs' | 'retryBudgetMs' | 'kafkaSessionTimeoutMs'
  >;
  readonly sink: Sink;
  readonly board: RetryBoard;
  readonly metrics: WorkerMetrics;
  readonly log: Logger;
  readonly stepTimeoutMs: number;
  /** The micro-batch context of a partition (a fresh `now` each time). */
  context(topic: string, partition: number): MicroBatchContext;
  isStopping(): boolean;
  /** The worker cannot go on (retry budget spent, or a bug with its policy set to stop). */
  fatal(error: Error): void;
  /** Told about each commit: input up to `nextOffset` (exclusive) and what it carried. */
  onCommitted(topic: string, partition: number, nextOffset: bigint, committed: Committed): void;
}

export class BatchRunner {
  private inFlightBytes = 0;

  constructor(private readonly deps: BatchRunnerDependencies) {}

  async run(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const { topic, partition } = batch;
    const { batchMaxRecords } = this.deps.config;
    for (let start = 0; start < batch.messages.length; start += batchMaxRecords) {
      if (this.abandoned(payload)) return;
      const messages = batch.messages.slice(start, start + batchMaxRecords);
      const lastMessage = messages[messages.length - 1] as KafkaMessage;
      // The fetched batch's last micro-batch also commits past its trailing control records.
      const nextOffset =
        start + messages.length >= batch.messages.length
          ? BigInt(batch.lastOffset()) + 1n
          : BigInt(lastMessage.offset) + 1n;
      const bytes = messages.reduce((n, m) => n + (m.value?.length ?? 0), 0);
      await this.acquire(bytes);
      let done: boolean;
      try {
        done = await this.commitWithRetry(payload, messages, nextOffset);
      } finally {
        this.release(bytes);
      }
      if (!done) return;
      payload.resolveOffset(lastMessage.offset);
      await payload.heartbeat();
      const lag = BigInt(batch.highWatermark) - BigInt(lastMessage.offset) - 1n;
      this.deps.metrics.consumerLag.set({ topic, partition: String(partition) }, Number(lag < 0n ? 0n : lag));
    }
  }

  /** True once committed (by us now, or before: nothing above the floor); false when abandoned. */
  private async commitWithRetry(
    payload: EachBatchPayload,
    messages: readonly KafkaMessage[],
    nextOffset: bigint,
  ): Promise<boolean> {
    const { topic, partition } = payload.batch;
    const { deps } = this;
    const started = performance.now();
    try {
      const committed = await withRetry(
        `committing ${topic}[${partition}]`,
        async () => {
          const floor = await deps.sink.floor(topic, partition);
          const pending = messages.filter((m) => BigInt(m.offset) >= floor);
          if (pending.length === 0) return null;
          return {
            pending,
            result: await commitMicroBatch(pending, deps.context(topic, partition), nextOffset),
          };
        },
        {
          maxDelayMs: deps.config.retryMaxDelayMs,
          budgetMs: deps.config.retryBudgetMs,
          board: deps.board,
          loop: `partition ${topic}[${partition}]`,
          shouldStop: () => this.abandoned(payload),
          wait: (ms) => this.waitBeating(payload, ms),
          onRetry: (attempt, delayMs, _error, failure) => {
            deps.metrics.retries.inc({ code: failure.code });
            deps.log.warn(
              { topic, partition, attempt, delayMs, code: failure.code, err: failure.message },
              'infrastructure failure: retrying',
            );
          },
        },
      );
      if (committed !== null) {
        deps.onCommitted(topic, partition, nextOffset, committed.result);
        this.observe(committed.pending, started);
      }
      return true;
    } catch (error) {
      if (this.abandoned(payload)) return false;
      if (error instanceof InfrastructureError || error instanceof StopWorker) deps.fatal(error);
      throw error;
    }
  }

  private observe(messages: readonly KafkaMessage[], started: number): void {
    const m = this.deps.metrics;
    const now = Date.now();
    for (const msg of messages) m.endToEndLatency.observe(Math.max(0, now - Number(msg.timestamp)) / 1000);
    m.batchSize.observe(messages.length);
    m.batchDuration.observe((performance.now() - started) / 1000);
  }

  private abandoned(payload: EachBatchPayload): boolean {
    return this.deps.isStopping() || !payload.isRunning() || payload.isStale();
  }

  /** Waits `ms`, heartbeating so the group keeps us; a rebalance ends the wait by throwing. */
  private async waitBeating(payload: EachBatchPayload, ms: number): Promise<void> {
    const beat = Math.max(500, Math.floor(this.deps.config.kafkaSessionTimeoutMs / 10));
    for (let left = ms; left > 0 && !this.deps.isStopping(); left -= beat) {
      await sleep(Math.min(beat, left));
      await withDeadline(
        payload.heartbeat(),
        this.deps.stepTimeoutMs,
        'KAFKA_UNAVAILABLE',
        'heartbeat',
      ).catch((error: unknown) => {
        if ((error as { type?: string }).type === 'REBALANCE_IN_PROGRESS' || payload.isStale()) throw error;
      });
    }
  }

  /** Backpressure: one micro-batch always gets through, so a single huge message cannot stall us. */
  private async acquire(bytes: number): Promise<void> {
    while (this.inFlightBytes > 0 && this.inFlightBytes + bytes > this.deps.config.maxInFlightBytes)
      await sleep(5);
    this.inFlightBytes += bytes;
    this.deps.metrics.inFlightBytes.set(this.inFlightBytes);
  }

  private release(bytes: number): void {
    this.inFlightBytes -= bytes;
    this.deps.metrics.inFlightBytes.set(this.inFlightBytes);
  }
}
