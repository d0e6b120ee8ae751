/**
 * The enrichment worker: a consumer group over the raw topics. Each fetched batch of an input
 * partition is cut into micro-batches of at most BATCH_MAX_RECORDS; each runs the chain of steps
 * (steps.ts) and commits in one Kafka transaction with its dead letters and the input offset
 * (micro-batch.ts, src/kafka/transactional-sink.ts). Consumers of the output reading with
 * `read_committed` see every input exactly once, across crashes, rebalances and broker failures.
 *
 * This file is the lifecycle around that: start, assignment, retries of a micro-batch through
 * infrastructure failures (bounded, reported), the progress watchdog, readiness and shutdown.
 */
import type { Admin, Consumer, EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import type { Config } from '../config.js';
import { InfrastructureError } from '../errors/catalog.js';
import { withDeadline } from '../errors/deadline.js';
import { RetryBoard, sleep, withRetry } from '../errors/retry.js';
import { createKafka } from '../kafka/client.js';
import { recordEncoderInstalled } from '../kafka/record-encoder.js';
import { ensureTopics, maxMessageBytes } from '../kafka/topics.js';
import { TransactionalSink } from '../kafka/transactional-sink.js';
import type { Logger } from '../observability/logger.js';
import { RegistryCodec } from '../schema-registry/codec.js';
import { DeadLetterGuard } from './dlq-guard.js';
import { createWorkerMetrics, type WorkerMetrics } from './metrics.js';
import { commitMicroBatch, type Committed, type MicroBatchContext } from './micro-batch.js';
import { ProgressMonitor } from './progress.js';
import type { BrandStorePort, StepContext } from './steps.js';

export type WorkerConfig = Pick<
  Config,
  | 'kafkaBrokers'
  | 'kafkaClientId'
  | 'schemaRegistryUrl'
  | 'inputTopics'
  | 'inputTopicPattern'
  | 'outputTopic'
  | 'dlqTopic'
  | 'consumerGroup'
  | 'batchMaxRecords'
  | 'batchMaxWaitMs'
  | 'partitionsConcurrency'
  | 'kafkaRecordEncoder'
  | 'maxInFlightBytes'
  | 'dlqGuardMaxShare'
  | 'dlqGuardWindow'
  | 'defaultTenant'
  | 'logoBaseUrl'
  | 'shutdownDeadlineMs'
  | 'retryMaxDelayMs'
  | 'retryBudgetMs'
  | 'kafkaRequestTimeoutMs'
  | 'kafkaSessionTimeoutMs'
  | 'kafkaRebalanceTimeoutMs'
  | 'stallReadinessMs'
  | 'stallRestartMs'
  | 'onBugDecode'
  | 'onBugProcess'
  | 'onBugProduce'
>;

export interface WorkerOptions {
  readonly metrics?: WorkerMetrics;
  /** Where retry loops report (shared with the feedback services of the same process). */
  readonly board?: RetryBoard;
  /** Replaces decode → … → encode (the end-to-end benchmark's passthrough). */
  readonly process?: MicroBatchContext['process'];
}

const TRANSACTION_TIMEOUT_MS = 60_000;
const PROBE_INTERVAL_MS = 5_000;
/** Restarts of the Kafka side without progress in between, before the worker gives up. */
const MAX_RESTARTS = 3;

export class Worker {
  readonly metrics: WorkerMetrics;
  readonly board: RetryBoard;
  private readonly kafka: Kafka;
  private readonly codec: RegistryCodec;
  private readonly guard: DeadLetterGuard;
  private readonly stepTimeoutMs: number;
  private admin: Admin | null = null;
  private sink: TransactionalSink | null = null;
  private monitor: ProgressMonitor | null = null;
  private consumer: Consumer | null = null;
  private watchdog: NodeJS.Timeout | null = null;
  private base: Omit<StepContext, 'topic' | 'partition' | 'now'> | null = null;
  private joined = false;
  private assignedTopics: string[] = [];
  private stopping = false;
  private restarts = 0;
  private restarting = false;
  private inFlightBytes = 0;
  private fatal: (error: Error) => void = () => undefined;

  constructor(
    private readonly config: WorkerConfig,
    private readonly log: Logger,
    private readonly store: BrandStorePort,
    private readonly options: WorkerOptions = {},
  ) {
    this.metrics = options.metrics ?? createWorkerMetrics();
    this.board = options.board ?? new RetryBoard();
    this.kafka = createKafka(config, log);
    this.codec = new RegistryCodec(config.schemaRegistryUrl);
    this.guard = new DeadLetterGuard(config.dlqGuardWindow, config.dlqGuardMaxShare);
    this.stepTimeoutMs = 2 * config.kafkaRequestTimeoutMs;
  }

  /** null when ready to receive traffic, else why not. */
  readiness(): string | null {
    if (this.stopping) return 'shutting down';
    if (this.guard.tripped) return `dead-letter guard tripped (share ${this.guard.share().toFixed(2)})`;
    if (!this.joined) return 'not yet assigned partitions';
    const stalled = this.monitor?.secondsSinceProgress() ?? 0;
    if (stalled * 1000 > this.config.stallReadinessMs) {
      return `no progress for ${Math.round(stalled)} s while records wait (lag ${this.monitor?.lag() ?? 'unknown'})`;
    }
    const retrying = this.board.longest();
    if (retrying && retrying.seconds * 1000 > this.config.stallReadinessMs) {
      return `${retrying.loop} retrying for ${Math.round(retrying.seconds)} s: ${retrying.failure.code}`;
    }
    return null;
  }

  /** Starts consuming; resolves once running. `onFatal` is called if the worker cannot go on. */
  async start(onFatal: (error: Error) => void): Promise<void> {
    this.fatal = onFatal;
    const retry = {
      maxDelayMs: this.config.retryMaxDelayMs,
      shouldStop: () => this.stopping,
      board: this.board,
    };
    const admin = this.kafka.admin();
    this.admin = admin;
    await withRetry('connecting to Kafka', () => admin.connect(), { ...retry, loop: 'startup' });
    const { outputTopic, dlqTopic } = this.config;
    const topics = [
      { topic: outputTopic, numPartitions: 6 },
      { topic: dlqTopic, numPartitions: 1 },
    ];
    await withRetry('creating output topics', () => ensureTopics(admin, topics, this.log), {
      ...retry,
      loop: 'startup',
    });
    const limits = await withRetry(
      'reading topic limits',
      () => maxMessageBytes(admin, [outputTopic, dlqTopic]),
      {
        ...retry,
        loop: 'startup',
      },
    );
    const outputSchemaId = await withRetry(
      'registering the output schema',
      () => this.codec.register(outputTopic, 'enriched-transaction'),
      { ...retry, loop: 'startup' },
    );
    this.monitor = new ProgressMonitor(admin, { probeTimeoutMs: this.stepTimeoutMs });
    this.sink = new TransactionalSink(this.kafka, admin, {
      groupId: this.config.consumerGroup,
      transactionTimeoutMs: TRANSACTION_TIMEOUT_MS,
      stepTimeoutMs: this.stepTimeoutMs,
      retryMaxDelayMs: this.config.retryMaxDelayMs,
      recordEncoder: this.config.kafkaRecordEncoder,
      log: this.log,
      onAbort: () => this.metrics.aborts.inc(),
      onFloor: (topic, partition, floor) => this.monitor?.skipped(topic, partition, floor),
    });
    this.metrics.recordEncoderActive.set(recordEncoderInstalled() ? 1 : 0);
    this.base = {
      codec: this.codec,
      store: this.store,
      outputTopic,
      dlqTopic,
      outputSchemaId,
      outputMaxBytes: limits.get(outputTopic) as number,
      dlqMaxBytes: limits.get(dlqTopic) as number,
      defaultTenant: this.config.defaultTenant,
      logoBaseUrl: this.config.logoBaseUrl ?? '',
      onDecodeBug: this.config.onBugDecode,
    };
    await this.startConsumer();
    this.watchdog = setInterval(() => void this.watch(), PROBE_INTERVAL_MS);
    this.log.info(
      {
        output: outputTopic,
        dlq: dlqTopic,
        group: this.config.consumerGroup,
        limits: Object.fromEntries(limits),
      },
      'worker started',
    );
  }

  /** Graceful stop: finish the micro-batch in flight or abort it at the deadline, leave the group. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    if (this.watchdog) clearInterval(this.watchdog);
    const consumer = this.consumer;
    const outcome = consumer
      ? await withDeadline(
          consumer.disconnect(),
          this.config.shutdownDeadlineMs,
          'KAFKA_UNAVAILABLE',
          'leaving the group',
        ).then(
          () => 'stopped' as const,
          () => 'deadline' as const,
        )
      : 'stopped';
    if (outcome === 'deadline') {
      this.log.warn(
        { deadlineMs: this.config.shutdownDeadlineMs },
        'shutdown deadline passed: aborting open transactions',
      );
    }
    // Open transactions are aborted here; their records are read again by the next owner.
    await this.sink?.closeAll();
    await withDeadline(
      this.admin?.disconnect() ?? Promise.resolve(),
      this.stepTimeoutMs,
      'KAFKA_UNAVAILABLE',
      'disconnecting',
    ).catch(() => undefined);
    this.log.info({ outcome }, 'worker stopped');
  }

  private async startConsumer(): Promise<void> {
    const config = this.config;
    const consumer = this.kafka.consumer({
      groupId: config.consumerGroup,
      readUncommitted: false,
      maxWaitTimeInMs: config.batchMaxWaitMs,
      maxBytes: config.maxInFlightBytes,
      maxBytesPerPartition: Math.max(1, Math.floor(config.maxInFlightBytes / config.partitionsConcurrency)),
      sessionTimeout: config.kafkaSessionTimeoutMs,
      rebalanceTimeout: config.kafkaRebalanceTimeoutMs,
      heartbeatInterval: Math.max(500, Math.floor(config.kafkaSessionTimeoutMs / 10)),
      retry: { retries: 8, initialRetryTime: 300, maxRetryTime: config.retryMaxDelayMs },
    });
    this.consumer = consumer;
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => this.assigned(payload.memberAssignment));
    consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
      // A fetched batch with nothing to process (control records, aborted transactions) moves us on.
      if (payload.batchSize === 0)
        this.monitor?.skipped(payload.topic, payload.partition, BigInt(payload.lastOffset) + 1n);
    });
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (!payload.restart && !this.stopping && this.consumer === consumer) this.fatal(payload.error);
    });
    await withRetry('connecting the consumer', () => consumer.connect(), {
      maxDelayMs: config.retryMaxDelayMs,
      shouldStop: () => this.stopping,
      board: this.board,
      loop: 'startup',
    });
    const topics = config.inputTopicPattern ? [config.inputTopicPattern] : [...config.inputTopics];
    await consumer.subscribe({ topics, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: config.partitionsConcurrency,
      eachBatch: (payload) => this.onBatch(payload),
    });
  }

  private assigned(assignment: Record<string, number[]>): void {
    this.joined = true;
    this.assignedTopics = Object.keys(assignment);
    const partitions = Object.entries(assignment).flatMap(([topic, ps]) =>
      ps.map((partition) => ({ topic, partition })),
    );
    this.log.info({ assignment }, 'partitions assigned');
    this.monitor?.assign(partitions);
    const keep = new Set(partitions.map((p) => TransactionalSink.key(p.topic, p.partition)));
    // Partitions that moved away: end their sessions (their new owner fences them anyway). Start the
    // new ones now, not at their first batch: starting one fences the previous owner and takes
    // several round trips that would otherwise fall on the first records' latency.
    void this.sink?.retain(keep).then((closed) => {
      if (closed.length > 0)
        this.log.info(
          { closed: closed.map((k) => k.replace('\u0000', ':')) },
          'ended sessions of revoked partitions',
        );
    });
    for (const p of partitions) this.sink?.open(p.topic, p.partition);
  }

  private async onBatch(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const { topic, partition } = batch;
    for (let start = 0; start < batch.messages.length; start += this.config.batchMaxRecords) {
      if (this.stopping || !payload.isRunning() || payload.isStale()) return;
      const messages = batch.messages.slice(start, start + this.config.batchMaxRecords);
      const last = start + messages.length >= batch.messages.length;
      // The fetched batch's last micro-batch also commits past its trailing control records.
      const nextOffset = last ? BigInt(batch.lastOffset()) + 1n : undefined;
      const bytes = messages.reduce((n, m) => n + (m.value?.length ?? 0), 0);
      await this.acquire(bytes);
      let committed: Committed | null;
      try {
        committed = await this.commitWithRetry(payload, messages, nextOffset);
      } finally {
        this.release(bytes);
      }
      if (committed === null) return;
      payload.resolveOffset((messages[messages.length - 1] as KafkaMessage).offset);
      await payload.heartbeat();
      const lag =
        BigInt(batch.highWatermark) - BigInt((messages[messages.length - 1] as KafkaMessage).offset) - 1n;
      this.metrics.consumerLag.set({ topic, partition: String(partition) }, Number(lag < 0n ? 0n : lag));
    }
  }

  /**
   * Commits a micro-batch from the partition's floor, retrying infrastructure failures with backoff
   * (heartbeats between attempts keep the group membership) until RETRY_BUDGET_MS. Resolves null
   * when the partition is no longer ours, or the worker stops.
   */
  private async commitWithRetry(
    payload: EachBatchPayload,
    messages: readonly KafkaMessage[],
    nextOffset: bigint | undefined,
  ): Promise<Committed | null> {
    const { topic, partition } = payload.batch;
    const abandoned = () => this.stopping || !payload.isRunning() || payload.isStale();
    const started = performance.now();
    try {
      const committed = await withRetry(
        `committing ${topic}[${partition}]`,
        async () => {
          const sink = this.sink as TransactionalSink;
          const floor = await sink.floor(topic, partition);
          const pending = messages.filter((m) => BigInt(m.offset) >= floor);
          if (pending.length === 0) return null;
          const end = nextOffset ?? BigInt((messages[messages.length - 1] as KafkaMessage).offset) + 1n;
          return {
            result: await commitMicroBatch(pending, this.context(topic, partition), nextOffset),
            end,
            pending,
          };
        },
        {
          maxDelayMs: this.config.retryMaxDelayMs,
          budgetMs: this.config.retryBudgetMs,
          board: this.board,
          loop: `partition ${topic}[${partition}]`,
          shouldStop: abandoned,
          wait: (ms) => this.waitBeating(payload, ms),
          onRetry: (attempt, delayMs, error, failure) => {
            this.metrics.retries.inc({ code: failure.code });
            this.log.warn(
              { topic, partition, attempt, delayMs, code: failure.code, err: failure.message },
              'infrastructure failure: retrying',
            );
          },
        },
      );
      if (committed === null) return null;
      this.committed(topic, partition, committed.result, committed.end, committed.pending, started);
      return committed.result;
    } catch (error) {
      if (abandoned()) return null;
      if (error instanceof InfrastructureError || (error as Error).name === 'StopWorker')
        this.fatal(error as Error);
      throw error;
    }
  }

  private committed(
    topic: string,
    partition: number,
    result: Committed,
    end: bigint,
    messages: readonly KafkaMessage[],
    started: number,
  ): void {
    this.monitor?.committed(topic, partition, end);
    this.restarts = 0;
    const m = this.metrics;
    m.commits.inc(result.transactions);
    m.recordsIn.inc({ topic }, result.enriched + result.deadLetterCodes.length);
    m.recordsOut.inc(result.enriched);
    for (const code of result.deadLetterCodes) m.deadLettered.inc({ code });
    const now = Date.now();
    for (const msg of messages) m.endToEndLatency.observe(Math.max(0, now - Number(msg.timestamp)) / 1000);
    m.batchSize.observe(messages.length);
    m.batchDuration.observe((performance.now() - started) / 1000);
    if (this.guard.record(result.enriched, result.deadLetterCodes.length)) this.tripGuard();
  }

  private context(topic: string, partition: number): MicroBatchContext {
    return {
      ...(this.base as NonNullable<Worker['base']>),
      topic,
      partition,
      now: Date.now(),
      sink: this.sink as TransactionalSink,
      onProcessBug: this.config.onBugProcess,
      onProduceBug: this.config.onBugProduce,
      ...(this.options.process ? { process: this.options.process } : {}),
      onIsolated: (message, failure) => {
        this.metrics.isolated.inc({ code: failure.code });
        this.log.error(
          { topic, partition, offset: message.offset, code: failure.code, err: failure.message },
          'record dead-lettered alone',
        );
      },
    };
  }

  /** Waits `ms`, heartbeating so the group keeps us; a rebalance ends the wait by throwing. */
  private async waitBeating(payload: EachBatchPayload, ms: number): Promise<void> {
    const beat = Math.max(500, Math.floor(this.config.kafkaSessionTimeoutMs / 10));
    for (let left = ms; left > 0 && !this.stopping; left -= beat) {
      await sleep(Math.min(beat, left));
      await withDeadline(payload.heartbeat(), this.stepTimeoutMs, 'KAFKA_UNAVAILABLE', 'heartbeat').catch(
        (error: unknown) => {
          if ((error as { type?: string }).type === 'REBALANCE_IN_PROGRESS' || payload.isStale()) throw error;
        },
      );
    }
  }

  /** Probes progress; restarts the Kafka side on a stall; exits after MAX_RESTARTS in a row. */
  private async watch(): Promise<void> {
    const monitor = this.monitor;
    if (!monitor || this.stopping || this.restarting) return;
    await monitor.probe();
    const stalled = monitor.secondsSinceProgress();
    this.metrics.secondsSinceProgress.set(stalled);
    this.metrics.retryingSince.reset();
    for (const { loop, seconds } of this.board.entries()) this.metrics.retryingSince.set({ loop }, seconds);
    if (!this.joined || stalled * 1000 < this.config.stallRestartMs) return;
    if (++this.restarts > MAX_RESTARTS) {
      this.fatal(
        new InfrastructureError(
          'RETRIES_EXHAUSTED',
          `no progress for ${Math.round(stalled)} s after ${MAX_RESTARTS} restarts of the consumer`,
        ),
      );
      return;
    }
    this.restarting = true;
    this.metrics.consumerRestarts.inc();
    this.log.error(
      { stalledSeconds: Math.round(stalled), lag: monitor.lag(), restart: this.restarts },
      'no progress while records wait: restarting the consumer and producers',
    );
    try {
      const old = this.consumer;
      this.consumer = null;
      this.joined = false;
      await withDeadline(
        old?.disconnect() ?? Promise.resolve(),
        this.stepTimeoutMs,
        'KAFKA_UNAVAILABLE',
        'stopping the stalled consumer',
      ).catch(() => undefined);
      await this.sink?.closeAll();
      monitor.assign([]);
      if (!this.stopping) await this.startConsumer();
    } catch (error) {
      this.fatal(error instanceof Error ? error : new Error(String(error)));
    } finally {
      this.restarting = false;
    }
  }

  private tripGuard(): void {
    this.metrics.dlqGuardTripped.set(1);
    this.log.error(
      { share: this.guard.share(), window: this.config.dlqGuardWindow, limit: this.config.dlqGuardMaxShare },
      'dead-letter share over the limit: pausing consumption until restart',
    );
    this.consumer?.pause(this.assignedTopics.map((topic) => ({ topic })));
  }

  private async acquire(bytes: number): Promise<void> {
    // One micro-batch always gets through, so a single huge message cannot stall the worker.
    while (this.inFlightBytes > 0 && this.inFlightBytes + bytes > this.config.maxInFlightBytes)
      await sleep(5);
    this.inFlightBytes += bytes;
    this.metrics.inFlightBytes.set(this.inFlightBytes);
  }

  private release(bytes: number): void {
    this.inFlightBytes -= bytes;
    this.metrics.inFlightBytes.set(this.inFlightBytes);
  }
}
