/**
 * The outbox relay: publishes the outbox (outbox.ts) to Kafka exactly once, in id order.
 *
 * - One active relay per store: it holds the store's `outbox-relay` lock (a PostgreSQL advisory lock
 *   on its own connection); other instances wait on standby and take over when it dies.
 * - One transactional producer with a fixed transactional id, `<CONSUMER_GROUP>-outbox-relay`: a
 *   relay that starts fences any older one (its open transaction is aborted, its next commit fails).
 * - Its progress lives in Kafka, in the same transaction as the records: every Kafka transaction
 *   also commits, for the consumer group `<CONSUMER_GROUP>-outbox-relay`, the "offset" (highest
 *   outbox id published) + 1 on partition 0 of the brand-change topic. On start (after the producer
 *   init, which waits for or aborts the previous owner's transaction) the relay reads that number
 *   and marks every row up to it as sent; then it publishes the rest, in id order, in Kafka
 *   transactions of up to 500 records, and marks them sent after each commit.
 *
 * A crash after the database commit (the rows wait in the outbox) or after the Kafka commit (the
 * progress number says they went out) therefore neither loses nor doubles a record. Every record
 * carries header `x-outbox-id`, so consumers can check.
 */
import type { Admin, IHeaders, Kafka, Message, Producer } from 'kafkajs';
import { Partitioners } from '../kafka/kafkajs.js';
import type { Logger } from '../observability/logger.js';
import { backoffDelay } from '../errors/retry.js';
import type { RegistryCodec } from '../schema-registry/codec.js';
import type { Database, HeldLock } from '../store/db.js';
import { crashPoint } from './faults.js';
import { brandChangesTopicConfig, ensureTopics } from './kafka.js';
import { FEEDBACK_HEADER, markSent, pendingOutbox, type OutboxRow } from './outbox.js';

export interface RelayTopics {
  readonly reenriched: string;
  readonly brandChanges: string;
  readonly deadLetters: string;
}

export interface RelayOptions {
  readonly kafka: Kafka;
  readonly db: Database;
  readonly codec: RegistryCodec;
  readonly log: Logger;
  readonly topics: RelayTopics;
  /** CONSUMER_GROUP: prefix of the transactional id and name stem of the progress group. */
  readonly group: string;
  readonly pollMs: number;
  readonly retryMaxDelayMs: number;
  readonly batchSize?: number;
}

const LOCK_NAME = 'outbox-relay';
const STANDBY_RETRY_MS = 2_000;
const TRANSACTION_TIMEOUT_MS = 60_000;

export function relayTransactionalId(group: string): string {
  return `${group}-outbox-relay`;
}

export class OutboxRelay {
  private producer: Producer | null = null;
  private admin: Admin | null = null;
  private lock: HeldLock | null = null;
  private schemaId = 0;
  private stopping = false;
  private running: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private woken = false;
  private active = false;
  /** Records published since start (for tests and metrics). */
  published = 0;

  constructor(private readonly options: RelayOptions) {}

  get transactionalId(): string {
    return relayTransactionalId(this.options.group);
  }

  get progressGroup(): string {
    return relayTransactionalId(this.options.group);
  }

  /** Runs the relay in the background until {@link stop}. */
  start(): void {
    this.running ??= this.loop();
  }

  /** Something was just committed to the outbox: publish now rather than at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.running;
    await this.release();
  }

  /**
   * For the CLI: if no other relay holds the store's relay lock, publish everything pending now and
   * return how many records; null when another relay (a running worker) is active and will publish.
   */
  async drainOnce(): Promise<number | null> {
    this.lock = await this.options.db.tryLock(LOCK_NAME);
    if (!this.lock) return null;
    try {
      await this.connect();
      let total = 0;
      for (;;) {
        const n = await this.publishBatch();
        total += n;
        if (n === 0) return total;
      }
    } finally {
      await this.release();
    }
  }

  private async loop(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      try {
        if (!this.lock) {
          this.lock = await this.options.db.tryLock(LOCK_NAME);
          if (!this.lock) {
            await this.idle(STANDBY_RETRY_MS);
            continue;
          }
        }
        if (!this.producer) await this.connect();
        const n = await this.publishBatch();
        failures = 0;
        if (n === 0) await this.idle(this.options.pollMs);
      } catch (error) {
        if (this.stopping) break;
        failures++;
        const delay = backoffDelay(failures, 200, this.options.retryMaxDelayMs);
        this.options.log.warn(
          { err: (error as Error).message, attempt: failures, delayMs: delay },
          'outbox relay failed: starting over (lock, producer, progress) after a pause',
        );
        // Start over from nothing: a new producer re-fences and re-reads the progress number.
        await this.release();
        await this.idle(delay);
      }
    }
  }

  private async idle(ms: number): Promise<void> {
    if (this.woken || this.stopping) {
      this.woken = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wakeUp = null;
    this.woken = false;
  }

  /** Creates topics, initialises the producer (fencing older relays) and syncs the sent marks. */
  private async connect(): Promise<void> {
    const { kafka, topics, log, codec } = this.options;
    this.admin = kafka.admin();
    await this.admin.connect();
    await ensureTopics(
      this.admin,
      [
        { topic: topics.reenriched, numPartitions: 6 },
        brandChangesTopicConfig(topics.brandChanges),
        { topic: topics.deadLetters, numPartitions: 1 },
      ],
      log,
    );
    this.schemaId = await codec.register(topics.reenriched, 'enriched-transaction');
    const producer = kafka.producer({
      transactionalId: this.transactionalId,
      idempotent: true,
      maxInFlightRequests: 1,
      transactionTimeout: TRANSACTION_TIMEOUT_MS,
      createPartitioner: Partitioners.DefaultPartitioner,
      retry: {
        retries: Number.MAX_SAFE_INTEGER,
        initialRetryTime: 200,
        maxRetryTime: this.options.retryMaxDelayMs,
      },
    });
    // connect() initialises the transactional id: the previous owner's open transaction is aborted
    // (or, if it was committing, finished) before this returns.
    await producer.connect();
    this.producer = producer;
    const published = await this.readProgress();
    if (published !== null) {
      const marked = await markSent(this.options.db, published);
      if (marked > 0) {
        log.info(
          { marked, upTo: published },
          'outbox rows published before a crash: marked sent, not sent again',
        );
      }
    }
    if (!this.active) {
      this.active = true;
      log.info({ transactionalId: this.transactionalId, lastPublished: published }, 'outbox relay active');
    }
  }

  /** The highest outbox id committed to Kafka (null when nothing was ever published). */
  private async readProgress(): Promise<string | null> {
    const offsets = await (this.admin as Admin).fetchOffsets({
      groupId: this.progressGroup,
      topics: [this.options.topics.brandChanges],
    });
    const offset = offsets[0]?.partitions.find((p) => p.partition === 0)?.offset ?? '-1';
    const next = BigInt(offset);
    return next > 0n ? (next - 1n).toString() : null;
  }

  private topicOf(row: OutboxRow): string {
    const { topics } = this.options;
    return row.kind === 'reenriched'
      ? topics.reenriched
      : row.kind === 'brand-change'
        ? topics.brandChanges
        : topics.deadLetters;
  }

  /** Publishes up to one batch of pending rows in one Kafka transaction; returns how many. */
  private async publishBatch(): Promise<number> {
    const { db, codec, log, topics } = this.options;
    const rows = await pendingOutbox(db, this.options.batchSize ?? 500);
    if (rows.length === 0) return 0;
    const byTopic = new Map<string, Message[]>();
    for (const row of rows) {
      const value = row.kind === 'reenriched' ? await codec.encode(this.schemaId, row.record) : row.value;
      const topic = this.topicOf(row);
      const list = byTopic.get(topic) ?? [];
      list.push({
        key: row.key,
        value,
        headers: { ...toHeaders(row.headers), [FEEDBACK_HEADER.outboxId]: row.id },
      });
      byTopic.set(topic, list);
    }
    const last = (rows[rows.length - 1] as OutboxRow).id;
    const transaction = await (this.producer as Producer).transaction();
    try {
      await transaction.sendBatch({
        topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
      });
      await transaction.sendOffsets({
        consumerGroupId: this.progressGroup,
        topics: [
          {
            topic: topics.brandChanges,
            partitions: [{ partition: 0, offset: (BigInt(last) + 1n).toString() }],
          },
        ],
      });
      await transaction.commit();
    } catch (error) {
      await transaction.abort().catch(() => undefined);
      throw error;
    }
    crashPoint('after-relay-commit');
    await markSent(db, last);
    this.published += rows.length;
    const counts = Object.fromEntries([...byTopic].map(([topic, messages]) => [topic, messages.length]));
    log.info({ records: rows.length, upTo: last, topics: counts }, 'outbox published');
    return rows.length;
  }

  private async release(): Promise<void> {
    const producer = this.producer;
    const admin = this.admin;
    const lock = this.lock;
    this.producer = null;
    this.admin = null;
    this.lock = null;
    this.active = false;
    await producer?.disconnect().catch(() => undefined);
    await admin?.disconnect().catch(() => undefined);
    await lock?.release().catch(() => undefined);
  }
}

function toHeaders(list: readonly [string, Buffer][]): IHeaders {
  const headers: IHeaders = {};
  for (const [name, value] of list) {
    const existing = headers[name];
    if (existing === undefined) headers[name] = value;
    else headers[name] = [...(Array.isArray(existing) ? existing : [existing]), value] as Buffer[];
  }
  return headers;
}
