/**
 * The feedback consumer: reads corrections from FEEDBACK_TOPIC (consumer group
 * `<CONSUMER_GROUP>-feedback`) and applies each one (apply.ts).
 *
 * Exactly-once by idempotency, not by Kafka transactions: a correction's only effect is one database
 * transaction (audit row, change, outbox rows, dead letter included), keyed by correction_id; the
 * offset is committed after it. A crash before the offset commit replays the record, and the replay
 * finds the correction_id in the audit and does nothing. Kafka transactions could not cover the
 * database write anyway; the outbox relay carries what must reach Kafka.
 */
import type { Consumer, EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import { dataError, type DataError } from '../errors/catalog.js';
import type { Logger } from '../observability/logger.js';
import { withRetry } from '../errors/retry.js';
import { AVRO_MAGIC_BYTE, type RegistryCodec } from '../schema-registry/codec.js';
import { applyFeedbackRecord, type ApplyContext, type ApplyOutcome } from './apply.js';
import { ensureTopics } from './kafka.js';

export interface FeedbackConsumerOptions {
  readonly kafka: Kafka;
  readonly codec: RegistryCodec;
  readonly apply: ApplyContext;
  readonly topic: string;
  /** CONSUMER_GROUP; the consumer group is `<group>-feedback`. */
  readonly group: string;
  readonly log: Logger;
  readonly retryMaxDelayMs: number;
  readonly sessionTimeoutMs: number;
  readonly rebalanceTimeoutMs: number;
}

export function feedbackGroup(group: string): string {
  return `${group}-feedback`;
}

/** Decodes a feedback record: Confluent-framed Avro or JSON. Registry outages throw (retried). */
export async function decodeCorrection(
  value: Buffer | null,
  codec: RegistryCodec,
): Promise<{ ok: true; value: unknown } | { ok: false; error: DataError }> {
  if (value === null || value.length === 0) {
    return { ok: false, error: dataError('EMPTY_VALUE', '', 'the message has no value') };
  }
  if (value[0] === AVRO_MAGIC_BYTE) return codec.decode(value);
  const text = value.toString('utf8').trimStart();
  if (!text.startsWith('{')) {
    return {
      ok: false,
      error: dataError('NOT_JSON', '', 'value is neither Confluent-framed Avro (0x00) nor a JSON object'),
    };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: dataError('NOT_JSON', '', `invalid JSON: ${(error as Error).message}`) };
  }
}

export class FeedbackConsumer {
  private consumer: Consumer | null = null;
  private stopping = false;
  /** Outcomes since start, by status (for tests and logs). */
  readonly counts: Record<ApplyOutcome['status'], number> = {
    applied: 0,
    proposed: 0,
    rejected: 0,
    duplicate: 0,
  };

  constructor(private readonly options: FeedbackConsumerOptions) {}

  async start(): Promise<void> {
    const { kafka, topic, log } = this.options;
    // A retried start leaves no consumer of the failed attempt behind.
    await this.consumer?.disconnect().catch(() => undefined);
    const admin = kafka.admin();
    await admin.connect();
    try {
      await ensureTopics(admin, [{ topic, numPartitions: 3 }], log);
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
    const consumer = kafka.consumer({
      groupId: feedbackGroup(this.options.group),
      readUncommitted: false,
      maxWaitTimeInMs: 100,
      sessionTimeout: this.options.sessionTimeoutMs,
      rebalanceTimeout: this.options.rebalanceTimeoutMs,
      heartbeatInterval: Math.max(500, Math.floor(this.options.sessionTimeoutMs / 10)),
      retry: { retries: 8, initialRetryTime: 300, maxRetryTime: this.options.retryMaxDelayMs },
    });
    this.consumer = consumer;
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (!this.stopping) {
        log.error({ err: payload.error.message, restart: payload.restart }, 'feedback consumer crashed');
      }
    });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      autoCommit: true,
      autoCommitThreshold: 1,
      eachBatchAutoResolve: false,
      eachBatch: (payload) => this.onBatch(payload),
    });
    log.info({ topic, group: feedbackGroup(this.options.group) }, 'feedback consumer started');
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.consumer?.disconnect().catch(() => undefined);
  }

  private async onBatch(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    for (const message of batch.messages) {
      if (this.stopping || !payload.isRunning() || payload.isStale()) return;
      await this.handle(batch.topic, batch.partition, message);
      payload.resolveOffset(message.offset);
      await payload.commitOffsetsIfNecessary();
      await payload.heartbeat();
    }
  }

  private async handle(topic: string, partition: number, message: KafkaMessage): Promise<void> {
    const { codec, log, apply } = this.options;
    const retry = {
      maxDelayMs: this.options.retryMaxDelayMs,
      shouldStop: () => this.stopping,
      onRetry: (attempt: number, delayMs: number, error: unknown) =>
        log.warn(
          { topic, partition, offset: message.offset, attempt, delayMs, err: (error as Error).message },
          'applying a correction failed: retrying',
        ),
    };
    const decoded = await withRetry(
      'decoding a correction',
      () => decodeCorrection(message.value, codec),
      retry,
    );
    const outcome = await withRetry(
      'applying a correction',
      () =>
        applyFeedbackRecord(apply, decoded, {
          topic,
          partition,
          offset: message.offset,
          key: message.key,
          value: message.value,
          headers: message.headers ?? {},
        }),
      retry,
    );
    this.counts[outcome.status]++;
  }
}
