/**
 * The enrichment worker: a consumer group over the raw topics. Each fetched batch of an input
 * partition is cut into micro-batches (batch-runner.ts); each runs the chain of steps (steps.ts) and
 * commits in one Kafka transaction with its dead letters and the input offset (micro-batch.ts,
 * src/kafka/transactional-sink.ts). Consumers of the output reading with `read_committed` see every
 * input exactly once, across crashes, rebalances and broker failures.
 *
 * This file is the lifecycle around that: start, assignment, the stall watchdog, readiness, stop.
 */
import type { Admin, Consumer, Kafka } from 'kafkajs';
import type { Config } from '../config.js';
import { withDeadline, withinDeadline } from '../errors/deadline.js';
import { RetryBoard, withRetry } from '../errors/retry.js';
import { createKafka } from '../kafka/client.js';
import { recordEncoderInstalled } from '../kafka/record-encoder.js';
import { CommittedOffsets } from '../kafka/committed-offsets.js';
import { TransactionalSink } from '../kafka/transactional-sink.js';
import type { Logger } from '../observability/logger.js';
import { RegistryCodec } from '../schema-registry/codec.js';
import { BatchRunner } from './batch-runner.js';
import { consume, createConsumer } from './consumer.js';
import { DeadLetterGuard } from './dlq-guard.js';
import { countCommitted, createWorkerMetrics, type WorkerMetrics } from './metrics.js';
import type { Committed, MicroBatchContext } from './micro-batch.js';
import { ProgressMonitor } from './progress.js';
import { readinessOf } from './readiness.js';
import { prepareOutput } from './setup.js';
import { StallWatchdog } from './stall-watchdog.js';
import type { BrandStorePort } from './steps.js';

export type WorkerConfig = Pick<
  Config,
  | 'kafkaBrokers' | 'kafkaClientId' | 'schemaRegistryUrl' | 'inputTopics' | 'inputTopicPattern'
  | 'outputTopic' | 'dlqTopic' | 'consumerGroup' | 'batchMaxRecords' | 'batchMaxWaitMs'
  | 'partitionsConcurrency' | 'kafkaRecordEncoder' | 'maxInFlightBytes' | 'dlqGuardMaxShare'
  | 'dlqGuardWindow' | 'defaultTenant' | 'logoBaseUrl' | 'shutdownDeadlineMs' | 'retryMaxDelayMs'
  | 'retryBudgetMs' | 'kafkaRequestTimeoutMs' | 'kafkaSessionTimeoutMs' | 'kafkaRebalanceTimeoutMs'
  | 'kafkaTransactionTimeoutMs'
  | 'stallReadinessMs' | 'stallRestartMs' | 'onBugDecode' | 'onBugProcess' | 'onBugProduce'
>; // prettier-ignore

export interface WorkerOptions {
  readonly metrics?: WorkerMetrics;
  /** Where retry loops report (shared with the feedback services of the same process). */
  readonly board?: RetryBoard;
  /** Replaces decode → … → encode (the end-to-end benchmark's passthrough). */
  readonly process?: MicroBatchContext['process'];
}

export class Worker {
  readonly metrics: WorkerMetrics;
  readonly board: RetryBoard;
  private readonly kafka: Kafka;
  private readonly codec: RegistryCodec;
  private readonly guard: DeadLetterGuard;
  private readonly stepTimeoutMs: number;
  private admin: Admin | null = null;
  private sink: TransactionalSink | null = null;
  private offsets: CommittedOffsets | null = null;
  private monitor: ProgressMonitor | null = null;
  private watchdog: StallWatchdog | null = null;
  private runner: BatchRunner | null = null;
  private consumer: Consumer | null = null;
  private base: Omit<MicroBatchContext, 'topic' | 'partition' | 'now'> | null = null;
  private assignedTopics: string[] | null = null;
  /** When the current consumer started waiting to join its group; null once joined (or stopped). */
  private joinWaitSince: number | null = null;
  private stopping = false;
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

  /** null when ready to receive traffic, else why not (readiness.ts). */
  readiness(): string | null {
    return readinessOf({
      stopping: this.stopping,
      guard: this.guard,
      assigned: this.assignedTopics !== null,
      monitor: this.monitor,
      board: this.board,
      stallReadinessMs: this.config.stallReadinessMs,
    });
  }

  /** Starts consuming; resolves once running. `onFatal` is called if the worker cannot go on. */
  async start(onFatal: (error: Error) => void): Promise<void> {
    this.fatal = onFatal;
    const admin = this.kafka.admin();
    this.admin = admin;
    const output = await prepareOutput(admin, this.codec, this.config, this.log, {
      board: this.board,
      shouldStop: () => this.stopping,
    });
    const monitor = new ProgressMonitor(admin, { probeTimeoutMs: this.stepTimeoutMs });
    this.monitor = monitor;
    const offsets = new CommittedOffsets(this.kafka);
    this.offsets = offsets;
    const sink = new TransactionalSink(this.kafka, offsets, {
      groupId: this.config.consumerGroup,
      transactionTimeoutMs: this.config.kafkaTransactionTimeoutMs,
      stepTimeoutMs: this.stepTimeoutMs,
      retryMaxDelayMs: this.config.retryMaxDelayMs,
      recordEncoder: this.config.kafkaRecordEncoder,
      log: this.log,
      onAbort: () => this.metrics.aborts.inc(),
      onFloor: (topic, partition, floor) => monitor.skipped(topic, partition, floor),
    });
    this.sink = sink;
    this.metrics.recordEncoderActive.set(recordEncoderInstalled() ? 1 : 0);
    this.base = {
      ...output,
      codec: this.codec,
      store: this.store,
      outputTopic: this.config.outputTopic,
      dlqTopic: this.config.dlqTopic,
      defaultTenant: this.config.defaultTenant,
      logoBaseUrl: this.config.logoBaseUrl ?? '',
      onDecodeBug: this.config.onBugDecode,
      onProcessBug: this.config.onBugProcess,
      onProduceBug: this.config.onBugProduce,
      sink,
      ...(this.options.process ? { process: this.options.process } : {}),
      onIsolated: (where, { code, message }) => {
        this.metrics.isolated.inc({ code });
        this.log.error({ ...where, code, err: message }, 'record dead-lettered alone');
      },
    };
    this.runner = new BatchRunner({
      config: this.config,
      sink,
      board: this.board,
      metrics: this.metrics,
      log: this.log,
      stepTimeoutMs: this.stepTimeoutMs,
      context: (topic, partition) => ({
        ...(this.base as Worker['base'] & object),
        topic,
        partition,
        now: Date.now(),
      }),
      isStopping: () => this.stopping,
      fatal: (error) => this.fatal(error),
      onCommitted: (topic, partition, nextOffset, committed) =>
        this.committed(topic, partition, nextOffset, committed),
    });
    this.watchdog = new StallWatchdog({
      monitor,
      board: this.board,
      metrics: this.metrics,
      log: this.log,
      stallRestartMs: this.config.stallRestartMs,
      isAssigned: () => this.assignedTopics !== null,
      secondsAwaitingJoin: () =>
        this.stopping || this.joinWaitSince === null ? 0 : (Date.now() - this.joinWaitSince) / 1000,
      restart: () => this.restartConsumer(),
      fatal: (error) => this.fatal(error),
    });
    // The watchdog watches the first join too: kafkajs may wait for a group join for ever, and a
    // worker whose start never returned would be a silent hang rather than a stall it restarts.
    this.watchdog.start();
    const first = this.startConsumer();
    const firstConsumer = this.consumer;
    if ((await withinDeadline(first, this.config.stallRestartMs)) === 'late') {
      this.log.warn(
        { waitedMs: this.config.stallRestartMs },
        'the consumer has not joined its group yet: the stall watchdog restarts it if it never does',
      );
      first.catch((error: unknown) => {
        if (this.consumer === firstConsumer && !this.stopping) {
          this.log.error(
            { err: error instanceof Error ? error.message : String(error) },
            'consumer start failed',
          );
        }
      });
    }
    this.log.info({ group: this.config.consumerGroup }, 'worker started');
  }

  /** Graceful stop: finish the micro-batch in flight or abort it at the deadline, leave the group. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.watchdog?.stop();
    const outcome = await this.stopConsumer(this.config.shutdownDeadlineMs);
    if (outcome === 'deadline') {
      this.log.warn({ deadlineMs: this.config.shutdownDeadlineMs }, 'shutdown deadline passed: aborting');
    }
    // Open transactions are aborted here; their records are read again by the next owner.
    await this.sink?.closeAll();
    const clients = Promise.all([this.admin?.disconnect(), this.offsets?.close()]);
    await withDeadline(clients, this.stepTimeoutMs, 'KAFKA_UNAVAILABLE', 'disconnecting').catch(
      () => undefined,
    );
    this.log.info({ outcome }, 'worker stopped');
  }

  private async startConsumer(): Promise<void> {
    const consumer = createConsumer(this.kafka, this.config);
    this.consumer = consumer;
    this.joinWaitSince = Date.now();
    const { events } = consumer;
    consumer.on(events.GROUP_JOIN, ({ payload }) => {
      // A consumer the watchdog replaced may still finish joining: its assignment is not ours.
      if (this.consumer !== consumer) return;
      this.joinWaitSince = null;
      this.assigned(payload.memberAssignment);
    });
    // A fetched batch with nothing to process (control records, aborted transactions) moves us on.
    consumer.on(events.END_BATCH_PROCESS, ({ payload: p }) => {
      if (p.batchSize === 0) this.monitor?.skipped(p.topic, p.partition, BigInt(p.lastOffset) + 1n);
    });
    consumer.on(events.CRASH, ({ payload }) => {
      if (!payload.restart && !this.stopping && this.consumer === consumer) this.fatal(payload.error);
    });
    const loop = { maxDelayMs: this.config.retryMaxDelayMs, board: this.board, loop: 'startup' };
    await withRetry('connecting the consumer', () => consumer.connect(), {
      ...loop,
      // A consumer the watchdog replaced stops retrying: its successor connects on its own.
      shouldStop: () => this.stopping || this.consumer !== consumer,
    });
    await consume(consumer, this.config, (payload) => (this.runner as BatchRunner).run(payload));
  }

  private async stopConsumer(deadlineMs: number): Promise<'stopped' | 'deadline'> {
    const consumer = this.consumer;
    this.consumer = null;
    this.assignedTopics = null;
    this.joinWaitSince = null;
    if (!consumer) return 'stopped';
    return withDeadline(consumer.disconnect(), deadlineMs, 'KAFKA_UNAVAILABLE', 'leaving the group').then(
      () => 'stopped',
      () => 'deadline',
    );
  }

  /** The watchdog's cure for a stall: a new consumer and new producer sessions. */
  private async restartConsumer(): Promise<void> {
    await this.stopConsumer(this.stepTimeoutMs);
    await this.sink?.closeAll();
    this.monitor?.assign([]);
    if (!this.stopping) await this.startConsumer();
  }

  private assigned(assignment: Record<string, number[]>): void {
    this.assignedTopics = Object.keys(assignment);
    const partitions = Object.entries(assignment).flatMap(([topic, ps]) =>
      ps.map((partition) => ({ topic, partition })),
    );
    this.log.info({ assignment }, 'partitions assigned');
    this.monitor?.assign(partitions);
    // Partitions that moved away: end their sessions (their new owner fences them anyway). Start the
    // new ones now, not at their first batch: starting one fences the previous owner and takes
    // several round trips that would otherwise fall on the first records' latency.
    void this.sink?.retain(new Set(partitions.map((p) => TransactionalSink.key(p.topic, p.partition))));
    for (const p of partitions) this.sink?.open(p.topic, p.partition);
  }

  private committed(topic: string, partition: number, nextOffset: bigint, result: Committed): void {
    this.monitor?.committed(topic, partition, nextOffset);
    this.watchdog?.progressed();
    countCommitted(this.metrics, topic, result);
    if (this.guard.record(result.enriched, result.deadLetterCodes.length)) this.tripGuard();
  }

  private tripGuard(): void {
    this.metrics.dlqGuardTripped.set(1);
    const { dlqGuardWindow: window, dlqGuardMaxShare: limit } = this.config;
    this.log.error({ share: this.guard.share(), window, limit }, 'dead-letter share over the limit: pausing');
    this.consumer?.pause((this.assignedTopics ?? []).map((topic) => ({ topic })));
  }
}
