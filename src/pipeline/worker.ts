/**
 * The enrichment worker: a consumer group over the raw topics; per input partition, micro-batches
 * run through decode → validate → enrich → encode and commit in one Kafka transaction together
 * with the dead letters and the consumed offsets. Consumers of the output reading with
 * `read_committed` see every input exactly once, across crashes and rebalances.
 */
import {
  Kafka,
  logLevel as KafkaLogLevel,
  type Admin,
  type Consumer,
  type EachBatchPayload,
  type KafkaMessage,
  type Message,
} from 'kafkajs';
import type { Config } from '../config.js';
import type { Snapshot } from '../engine/snapshot.js';
import type { EngineTransaction, Enrichment, HistoryEntry, HistoryKey } from '../engine/types.js';
import { InfrastructureError } from '../errors/catalog.js';
import type { Logger } from '../observability/logger.js';
import { DeadLetterGuard } from './dlq-guard.js';
import { createWorkerMetrics, type WorkerMetrics } from './metrics.js';
import { processChunk } from './process-chunk.js';
import { ProducerPool } from './producer-pool.js';
import { installRecordEncoder } from './record-encoder.js';
import { withRetry, sleep } from '../errors/retry.js';
import { RegistryCodec } from './schema-registry.js';

/** What the worker needs besides configuration; the brand store plugs in here. */
export interface WorkerHooks {
  /** The current brand snapshot (may change while running, e.g. after a correction). */
  snapshot(): Snapshot;
  /** Earlier transactions of these customers at these merchants, for recurring detection. */
  history?(keys: readonly HistoryKey[]): Promise<readonly HistoryEntry[]>;
  /** Called after the engine, before the Kafka commit; must be idempotent (a replay repeats it). */
  indexEnriched?(items: readonly { transaction: EngineTransaction; enrichment: Enrichment }[]): Promise<void>;
  /**
   * Replaces decode → enrich → encode (the end-to-end benchmark's passthrough copies bytes through
   * the same consumer, producers and transactions). Default: processChunk.
   */
  process?: typeof processChunk;
}

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
  | 'kafkaSessionTimeoutMs'
  | 'kafkaRebalanceTimeoutMs'
>;

const TRANSACTION_TIMEOUT_MS = 60_000;

export class Worker {
  readonly metrics: WorkerMetrics;
  private readonly kafka: Kafka;
  private readonly codec: RegistryCodec;
  private readonly producers: ProducerPool;
  private readonly guard: DeadLetterGuard;
  private consumer: Consumer | null = null;
  private admin: Admin | null = null;
  private outputSchemaId = 0;
  private joined = false;
  private stopping = false;
  private inFlightBytes = 0;
  /** Offsets the group had committed when we took a partition over; older messages are skipped. */
  private readonly floors = new Map<string, bigint>();
  private readonly activeTransactions = new Set<{ abort(): Promise<void> }>();
  private fatal: ((error: Error) => void) | null = null;

  constructor(
    private readonly config: WorkerConfig,
    private readonly log: Logger,
    private readonly hooks: WorkerHooks,
    metrics?: WorkerMetrics,
  ) {
    this.metrics = metrics ?? createWorkerMetrics();
    if (config.kafkaRecordEncoder === 'fast') {
      const outcome = installRecordEncoder();
      if (!outcome.installed)
        log.warn({ reason: outcome.reason }, 'fast record encoder not installed; kafkajs encodes');
    }
    this.kafka = new Kafka({
      clientId: config.kafkaClientId,
      brokers: [...config.kafkaBrokers],
      logLevel: KafkaLogLevel.WARN,
      logCreator: () => (entry) => {
        const { message, ...extra } = entry.log;
        this.log.warn({ kafkajs: entry.namespace, ...pickSafe(extra) }, message);
      },
      retry: { initialRetryTime: 200, maxRetryTime: config.retryMaxDelayMs, retries: 8 },
    });
    this.codec = new RegistryCodec(config.schemaRegistryUrl);
    this.producers = new ProducerPool(
      this.kafka,
      config.consumerGroup,
      TRANSACTION_TIMEOUT_MS,
      config.retryMaxDelayMs,
      (topic, partition) => this.setFloor(topic, partition),
    );
    this.guard = new DeadLetterGuard(config.dlqGuardWindow, config.dlqGuardMaxShare);
  }

  /** null when ready to receive traffic, else why not. */
  readiness(): string | null {
    if (this.stopping) return 'shutting down';
    if (this.guard.tripped) return `dead-letter guard tripped (share ${this.guard.share().toFixed(2)})`;
    if (!this.joined) return 'not yet assigned partitions';
    return null;
  }

  /** Starts consuming; resolves once running. `onFatal` is called if the worker cannot go on. */
  async start(onFatal: (error: Error) => void): Promise<void> {
    this.fatal = onFatal;
    const retry = {
      maxDelayMs: this.config.retryMaxDelayMs,
      shouldStop: () => this.stopping,
      onRetry: this.onRetry('startup'),
    };
    this.admin = this.kafka.admin();
    await withRetry('connecting to Kafka', () => this.admin!.connect(), retry);
    await withRetry('creating output topics', () => this.ensureTopics(), retry);
    this.outputSchemaId = await withRetry(
      'registering the output schema',
      () => this.codec.register(this.config.outputTopic, 'enriched-transaction'),
      retry,
    );

    const consumer = this.kafka.consumer({
      groupId: this.config.consumerGroup,
      readUncommitted: false,
      maxWaitTimeInMs: this.config.batchMaxWaitMs,
      maxBytes: this.config.maxInFlightBytes,
      maxBytesPerPartition: Math.max(
        1,
        Math.floor(this.config.maxInFlightBytes / this.config.partitionsConcurrency),
      ),
      sessionTimeout: this.config.kafkaSessionTimeoutMs,
      rebalanceTimeout: this.config.kafkaRebalanceTimeoutMs,
      heartbeatInterval: Math.max(500, Math.floor(this.config.kafkaSessionTimeoutMs / 10)),
      retry: { retries: 8, initialRetryTime: 300, maxRetryTime: this.config.retryMaxDelayMs },
    });
    this.consumer = consumer;
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      this.joined = true;
      const keep = new Set<string>();
      for (const [topic, partitions] of Object.entries(payload.memberAssignment)) {
        for (const p of partitions) keep.add(ProducerPool.key(topic, p));
      }
      this.log.info({ assignment: payload.memberAssignment }, 'partitions assigned');
      // Partitions that moved away: close their producers (their new owner fences them anyway).
      void this.producers.retain(keep).then((closed) => {
        for (const key of closed) this.floors.delete(key.replace(':', '\u0000'));
        if (closed.length > 0) this.log.info({ closed }, 'closed producers of revoked partitions');
      });
      // Start the producers of the partitions we got now, not at their first batch: initialising
      // one fences the previous owner and takes several round trips, which would otherwise fall on
      // the first records' latency. A failure here is retried by that first batch.
      for (const key of keep) {
        const [topic, partition] = key.split('\u0000') as [string, string];
        this.producers.get(topic, Number(partition)).catch((error: unknown) => {
          this.log.warn({ topic, partition: Number(partition), err: error }, 'starting a producer failed');
        });
      }
    });
    consumer.on(consumer.events.REBALANCING, () => {
      this.log.info('rebalancing');
    });
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (!payload.restart && !this.stopping) this.fatal?.(payload.error);
    });

    await withRetry('connecting the consumer', () => consumer.connect(), retry);
    const topics = this.config.inputTopicPattern
      ? [this.config.inputTopicPattern]
      : [...this.config.inputTopics];
    await consumer.subscribe({ topics, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.config.partitionsConcurrency,
      eachBatch: (payload) => this.onBatch(payload),
    });
    this.log.info(
      {
        topics: topics.map(String),
        output: this.config.outputTopic,
        dlq: this.config.dlqTopic,
        group: this.config.consumerGroup,
      },
      'worker started',
    );
  }

  /** Graceful stop: finish the in-flight transaction or abort it at the deadline, leave the group. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    const deadline = sleep(this.config.shutdownDeadlineMs).then(() => 'deadline' as const);
    const stopped = (async () => {
      await this.consumer?.disconnect();
      return 'stopped' as const;
    })();
    const outcome = await Promise.race([stopped, deadline]);
    if (outcome === 'deadline') {
      this.log.warn(
        { deadlineMs: this.config.shutdownDeadlineMs },
        'shutdown deadline passed: aborting in-flight transactions',
      );
      await Promise.allSettled([...this.activeTransactions].map((t) => t.abort()));
    }
    await this.producers.closeAll();
    await this.admin?.disconnect().catch(() => undefined);
    this.log.info({ outcome }, 'worker stopped');
  }

  private async ensureTopics(): Promise<void> {
    const admin = this.admin as Admin;
    const existing = new Set(await admin.listTopics());
    const wanted = [this.config.outputTopic, this.config.dlqTopic].filter((t) => !existing.has(t));
    if (wanted.length === 0) return;
    await admin.createTopics({
      waitForLeaders: true,
      topics: wanted.map((topic) => ({ topic, numPartitions: topic === this.config.dlqTopic ? 1 : 6 })),
    });
    this.log.info({ topics: wanted }, 'created missing topics');
  }

  private async onBatch(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const { topic, partition } = batch;
    const key = ProducerPool.key(topic, partition);
    const producer = await this.producers.get(topic, partition);
    const floor = this.floors.get(key) ?? -1n;

    const messages = batch.messages.filter((m) => BigInt(m.offset) >= floor);
    for (let start = 0; start < messages.length; start += this.config.batchMaxRecords) {
      if (this.stopping || !payload.isRunning() || payload.isStale()) return;
      const chunk = messages.slice(start, start + this.config.batchMaxRecords);
      await this.waitForMemory(chunk);
      try {
        await this.commitChunk(chunk, topic, partition, producer);
      } catch (error) {
        if (isPermanent(error)) this.fatal?.(error instanceof Error ? error : new Error(String(error)));
        throw error;
      } finally {
        this.release(chunk);
      }
      payload.resolveOffset((chunk[chunk.length - 1] as KafkaMessage).offset);
      await payload.heartbeat();
      const lag = BigInt(batch.highWatermark) - BigInt((chunk[chunk.length - 1] as KafkaMessage).offset) - 1n;
      this.metrics.consumerLag.set({ topic, partition: String(partition) }, Number(lag < 0n ? 0n : lag));
    }
    if (messages.length === 0 && batch.messages.length > 0) {
      // Everything here was committed by the previous owner: just move past it.
      payload.resolveOffset((batch.messages[batch.messages.length - 1] as KafkaMessage).offset);
    }
  }

  /**
   * Without KIP-447 the group's committed offset can be read before the previous owner's last
   * transaction resolved. Initialising our producer (done just before) waited for that
   * transaction to commit or abort; reading the committed offset now gives the true resume point.
   */
  private async setFloor(topic: string, partition: number): Promise<void> {
    const offsets = await withRetry(
      'reading committed offsets',
      () => (this.admin as Admin).fetchOffsets({ groupId: this.config.consumerGroup, topics: [topic] }),
      { maxDelayMs: this.config.retryMaxDelayMs, onRetry: this.onRetry('fetch-offsets') },
    );
    const committed = offsets[0]?.partitions.find((p) => p.partition === partition)?.offset ?? '-1';
    this.floors.set(ProducerPool.key(topic, partition), BigInt(committed));
  }

  private async commitChunk(
    chunk: readonly KafkaMessage[],
    topic: string,
    partition: number,
    producer: Awaited<ReturnType<ProducerPool['get']>>,
  ): Promise<void> {
    const started = performance.now();
    const last = chunk[chunk.length - 1] as KafkaMessage;
    await withRetry(
      `committing ${topic}[${partition}] up to offset ${last.offset}`,
      async () => {
        const snapshot = this.hooks.snapshot();
        const result = await (this.hooks.process ?? processChunk)(chunk, {
          topic,
          partition,
          codec: this.codec,
          snapshot,
          outputSchemaId: this.outputSchemaId,
          defaultTenant: this.config.defaultTenant,
          logoBaseUrl: this.config.logoBaseUrl ?? '',
          ...(this.hooks.history ? { historyFor: this.hooks.history.bind(this.hooks) } : {}),
          now: Date.now(),
          keepEnrichments: this.hooks.indexEnriched !== undefined,
        });
        if (this.hooks.indexEnriched && result.enrichments.length > 0)
          await this.hooks.indexEnriched(result.enrichments);
        // Indexed: let the chunk's transactions and results go before the Kafka round trips.
        result.enrichments.length = 0;
        const transaction = await producer.transaction();
        this.activeTransactions.add(transaction);
        try {
          // Requests stay well under the broker's message.max.bytes (1 MiB by default): a large
          // micro-batch goes out in several sends of the same transaction.
          for (const topicMessages of requestsOf(
            this.config.outputTopic,
            result.enriched,
            this.config.dlqTopic,
            result.deadLetters,
          )) {
            await transaction.sendBatch({ topicMessages });
          }
          await transaction.sendOffsets({
            consumerGroupId: this.config.consumerGroup,
            topics: [{ topic, partitions: [{ partition, offset: (BigInt(last.offset) + 1n).toString() }] }],
          });
          await transaction.commit();
        } catch (error) {
          this.metrics.aborts.inc();
          await transaction.abort().catch(() => undefined);
          if (isFenced(error)) {
            // Another instance owns this partition now; its producer fenced ours. Drop ours and let
            // the group tell us what we still own.
            this.log.warn({ topic, partition }, 'producer fenced: partition taken over by another instance');
            await this.producers.drop(topic, partition);
          }
          throw asInfrastructure(error);
        } finally {
          this.activeTransactions.delete(transaction);
        }
        this.metrics.commits.inc();
        this.metrics.recordsIn.inc({ topic }, result.enriched.length + result.deadLetters.length);
        this.metrics.recordsOut.inc(result.enriched.length);
        for (const code of result.deadLetterCodes) this.metrics.deadLettered.inc({ code });
        const now = Date.now();
        for (const m of chunk)
          this.metrics.endToEndLatency.observe(Math.max(0, now - Number(m.timestamp)) / 1000);
        if (this.guard.record(result.enriched.length, result.deadLetters.length)) this.tripGuard();
      },
      {
        maxDelayMs: this.config.retryMaxDelayMs,
        shouldStop: () => this.stopping,
        onRetry: this.onRetry(`${topic}[${partition}]`),
        // A fenced producer will never succeed again: another instance owns this partition now.
        retriable: (failure, error) => !isFenced(error) && !isPermanent(error) && failure.kind !== 'bug',
      },
    );
    this.metrics.batchSize.observe(chunk.length);
    this.metrics.batchDuration.observe((performance.now() - started) / 1000);
  }

  private tripGuard(): void {
    this.metrics.dlqGuardTripped.set(1);
    this.log.error(
      { share: this.guard.share(), window: this.config.dlqGuardWindow, limit: this.config.dlqGuardMaxShare },
      'dead-letter share over the limit: pausing consumption until restart',
    );
    const consumer = this.consumer;
    if (!consumer) return;
    const topics = this.config.inputTopicPattern
      ? [...new Set([...this.floors.keys()].map((k) => k.split('\u0000')[0] as string))]
      : [...this.config.inputTopics];
    consumer.pause(topics.map((topic) => ({ topic })));
  }

  private async waitForMemory(chunk: readonly KafkaMessage[]): Promise<void> {
    const bytes = chunk.reduce((n, m) => n + (m.value?.length ?? 0), 0);
    // One chunk always gets through, so a single huge message cannot stall the worker.
    while (this.inFlightBytes > 0 && this.inFlightBytes + bytes > this.config.maxInFlightBytes)
      await sleep(5);
    this.inFlightBytes += bytes;
    this.metrics.inFlightBytes.set(this.inFlightBytes);
  }

  private release(chunk: readonly KafkaMessage[]): void {
    this.inFlightBytes -= chunk.reduce((n, m) => n + (m.value?.length ?? 0), 0);
    this.metrics.inFlightBytes.set(this.inFlightBytes);
  }

  private onRetry(where: string) {
    return (attempt: number, delayMs: number, error: unknown): void => {
      const code = error instanceof InfrastructureError ? error.code : 'KAFKA_UNAVAILABLE';
      this.metrics.retries.inc({ code });
      this.log.warn(
        { where, attempt, delayMs, code, err: messageOf(error) },
        'infrastructure failure: retrying',
      );
    };
  }
}

/** Bytes of records per produce request; far below the broker's default 1 MiB limit. */
const MAX_REQUEST_BYTES = 512 * 1024;

/** Estimated bytes of a record in a produce request (per record of the stream: no allocation). */
function sizeOf(m: Message): number {
  let n = 64 + (m.key?.length ?? 0) + (m.value ? (m.value as Buffer | string).length : 0);
  const headers = m.headers;
  if (headers === undefined) return n;
  for (const name in headers) {
    const value = headers[name];
    n +=
      name.length +
      8 +
      (typeof value === 'string' || Buffer.isBuffer(value) ? value.length : String(value ?? '').length);
  }
  return n;
}

function* requestsOf(
  outputTopic: string,
  enriched: readonly Message[],
  dlqTopic: string,
  deadLetters: readonly Message[],
): Generator<{ topic: string; messages: Message[] }[]> {
  let request: { topic: string; messages: Message[] }[] = [];
  let bytes = 0;
  for (const [topic, messages] of [
    [outputTopic, enriched],
    [dlqTopic, deadLetters],
  ] as const) {
    let current: Message[] = [];
    for (const m of messages) {
      const size = sizeOf(m);
      if (bytes + size > MAX_REQUEST_BYTES && bytes > 0) {
        if (current.length > 0) request.push({ topic, messages: current });
        yield request;
        request = [];
        current = [];
        bytes = 0;
      }
      current.push(m);
      bytes += size;
    }
    if (current.length > 0) request.push({ topic, messages: current });
  }
  if (request.length > 0) yield request;
}

/** Errors retrying cannot fix (a record the broker will never accept): fail loudly instead. */
function isPermanent(error: unknown): boolean {
  const inner = (error as { cause?: unknown }).cause ?? error;
  const kafka = inner as { retriable?: boolean; type?: string };
  return kafka.retriable === false && typeof kafka.type === 'string' && !isFenced(inner);
}

function isFenced(error: unknown): boolean {
  const text = `${(error as { type?: string }).type ?? ''} ${messageOf(error)} ${messageOf((error as { cause?: unknown }).cause)}`;
  return /PRODUCER_FENCED|INVALID_PRODUCER_EPOCH|fenced/i.test(text);
}

function asInfrastructure(error: unknown): unknown {
  if (error instanceof InfrastructureError || isFenced(error)) return error;
  return new InfrastructureError('TRANSACTION_FAILED', messageOf(error), { cause: error });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : error === undefined ? '' : String(error);
}

/** kafkajs log extras, minus anything that could carry message payloads. */
function pickSafe(extra: Record<string, unknown>): Record<string, unknown> {
  const { broker, clientId, groupId, topic, partition, error, retryCount, retryTime } = extra;
  return { broker, clientId, groupId, topic, partition, error, retryCount, retryTime };
}
