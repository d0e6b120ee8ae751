/**
 * The feedback consumer: reads corrections from FEEDBACK_TOPIC (consumer group
 * `<CONSUMER_GROUP>-feedback`) and handles each one (handle-record.ts: apply, or dead-letter, by the
 * failure policy).
 *
 * Exactly-once by idempotency, not by Kafka transactions: a correction's only effect is one database
 * transaction (audit row, change, outbox rows, dead letter included), keyed by (tenant,
 * correction_id); the offset is committed after it. A crash before the offset commit replays the
 * record, and the replay finds the key in the audit and does nothing. Kafka transactions could not
 * cover the database write anyway; the outbox relay carries what must reach Kafka.
 */
import type { Consumer, EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import type { RetryBoard } from '../errors/retry.js';
import type { Logger } from '../observability/logger.js';
import type { AvroDecoder } from './decode.js';
import { handleFeedbackRecord } from './handle-record.js';
import { ensureTopics } from './kafka.js';
import type { ApplyContext, ApplyOutcome } from './outcome.js';

export interface FeedbackConsumerOptions {
  readonly kafka: Kafka;
  readonly codec: AvroDecoder;
  readonly apply: ApplyContext;
  readonly topic: string;
  /** CONSUMER_GROUP; the consumer group is `<group>-feedback`. */
  readonly group: string;
  readonly defaultTenant: string;
  readonly log: Logger;
  readonly board?: RetryBoard | undefined;
  readonly retryMaxDelayMs: number;
  readonly sessionTimeoutMs: number;
  readonly rebalanceTimeoutMs: number;
}

export function feedbackGroup(group: string): string {
  return `${group}-feedback`;
}

export class FeedbackConsumer {
  private consumer: Consumer | null = null;
  private stopping = false;
  /** Outcomes since start, by status (for tests and logs); `skipped`: not even dead-lettered. */
  readonly counts: Record<ApplyOutcome['status'] | 'skipped', number> = {
    applied: 0,
    proposed: 0,
    rejected: 0,
    duplicate: 0,
    skipped: 0,
  };

  constructor(private readonly options: FeedbackConsumerOptions) {}

  async start(): Promise<void> {
    const { kafka, topic, log } = this.options;
    this.stopping = false;
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
    const outcome = await handleFeedbackRecord(
      {
        apply: this.options.apply,
        codec: this.options.codec,
        defaultTenant: this.options.defaultTenant,
        log: this.options.log,
        board: this.options.board,
        retryMaxDelayMs: this.options.retryMaxDelayMs,
        shouldStop: () => this.stopping,
      },
      {
        topic,
        partition,
        offset: message.offset,
        key: message.key,
        value: message.value,
        headers: message.headers ?? {},
      },
    );
    this.counts[outcome?.status ?? 'skipped']++;
  }
}
