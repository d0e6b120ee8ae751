/**
 * The outbox relay: publishes the outbox (src/store/outbox.ts) to Kafka exactly once, in id order.
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
 *   transactions of up to 500 records (and under each topic's size limit), marking them sent after
 *   each commit.
 *
 * Failure policy (every error classified once): infrastructure — broker, registry, database — is
 * retried with capped backoff from a fresh producer, reported on the RetryBoard as `outbox-relay`.
 * A row Kafka will never take — larger than its topic accepts, refused as a record, or one our code
 * cannot encode (a bug) — is set aside in the outbox with its code and reason (failed_at), counted
 * in `txenrich_outbox_dead_lettered_total`, and the relay moves on: one row never jams the rows
 * after it. When the broker refuses a transaction of several rows, they are sent one per
 * transaction until the refused one is found.
 *
 * A crash after the database commit (the rows wait in the outbox) or after the Kafka commit (the
 * progress number says they went out) therefore neither loses nor doubles a record. Every record
 * carries header `x-outbox-id`, so consumers can check.
 */
import type { Admin, Kafka, Message, Producer } from 'kafkajs';
import { Partitioners } from '../kafka/kafkajs.js';
import { DEFAULT_MAX_MESSAGE_BYTES, maxMessageBytes } from '../kafka/topics.js';
import type { Registry } from 'prom-client';
import { classifyError, type Classified } from '../errors/classify.js';
import { backoffDelay, type RetryBoard } from '../errors/retry.js';
import type { Logger } from '../observability/logger.js';
import type { RegistryCodec } from '../schema-registry/codec.js';
import type { Database, HeldLock } from '../store/db.js';
import { markSent, pendingOutbox, type OutboxRow } from '../store/outbox.js';
import { crashPoint } from './faults.js';
import { brandChangesTopicConfig, ensureTopics } from './kafka.js';
import { prepareRow, takeWhileFits, type Prepared } from './relay-batch.js';
import { RowsSetAside } from './relay-set-aside.js';

export interface RelayTopics {
  readonly reenriched: string;
  readonly brandChanges: string;
  readonly deadLetters: string;
}

export interface RelayOptions {
  readonly kafka: Kafka;
  readonly db: Database;
  readonly codec: Pick<RegistryCodec, 'register' | 'encode'>;
  readonly log: Logger;
  readonly topics: RelayTopics;
  /** CONSUMER_GROUP: prefix of the transactional id and name stem of the progress group. */
  readonly group: string;
  readonly pollMs: number;
  readonly retryMaxDelayMs: number;
  readonly batchSize?: number;
  readonly board?: RetryBoard | undefined;
  /** Where `txenrich_outbox_dead_lettered_total` is registered (the worker's metrics registry). */
  readonly registry?: Registry | undefined;
  /** How long stop() waits for a Kafka call in flight before it drops the producer. */
  readonly stopDeadlineMs?: number;
}

export const RELAY_LOOP = 'outbox-relay';
const LOCK_NAME = 'outbox-relay';
const STANDBY_RETRY_MS = 2_000;
const TRANSACTION_TIMEOUT_MS = 60_000;
/** kafkajs retries inside one call this often, then our loop decides (and reports on the board). */
const PRODUCER_RETRIES = 5;

export function relayTransactionalId(group: string): string {
  return `${group}-outbox-relay`;
}

export class OutboxRelay {
  private producer: Producer | null = null;
  private admin: Admin | null = null;
  private lock: HeldLock | null = null;
  private schemaId = 0;
  private limits = new Map<string, number>();
  private stopping = false;
  private running: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private woken = false;
  private active = false;
  /** After the broker refused a transaction of several rows: send one per transaction up to this id. */
  private isolateThrough: bigint | null = null;
  private readonly aside: RowsSetAside;
  /** Records published since start (for tests and metrics). */
  published = 0;
  /** Rows set aside since start. */
  failed = 0;

  constructor(private readonly options: RelayOptions) {
    this.aside = new RowsSetAside(options.db, options.log, options.registry);
  }

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

  /** Stops publishing: waits for the transaction in flight, at most stopDeadlineMs, then lets go. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    if (this.running) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.options.stopDeadlineMs ?? 10_000);
      });
      await Promise.race([this.running, deadline]);
      clearTimeout(timer);
    }
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
    const { log, board } = this.options;
    let failures = 0;
    while (!this.stopping) {
      try {
        if (!this.lock) {
          this.lock = await this.options.db.tryLock(LOCK_NAME);
          if (!this.lock) {
            board?.recovered(RELAY_LOOP);
            await this.idle(STANDBY_RETRY_MS);
            continue;
          }
        }
        if (!this.producer) await this.connect();
        const n = await this.publishBatch();
        failures = 0;
        board?.recovered(RELAY_LOOP);
        if (n === 0) await this.idle(this.options.pollMs);
      } catch (error) {
        if (this.stopping) break;
        failures++;
        const failure = classifyError(error);
        const delay = backoffDelay(failures, 200, this.options.retryMaxDelayMs);
        if (failure.kind === 'infrastructure') {
          board?.failing(RELAY_LOOP, failure);
          log.warn(
            { code: failure.code, err: failure.message, attempt: failures, delayMs: delay },
            'outbox relay failed: starting over (lock, producer, progress) after a pause',
          );
        } else {
          // Not a row's fault (those are set aside in publishBatch): our code or a library broke.
          board?.failing(RELAY_LOOP, failure);
          log.error(
            { code: failure.code, err: failure.message, attempt: failures, delayMs: delay },
            'BUG: the outbox relay met an unexpected error: starting over after a pause',
          );
        }
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

  /** Creates topics, reads their size limits, initialises the producer (fencing older relays), syncs the sent marks. */
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
    this.limits = await maxMessageBytes(this.admin, Object.values(topics));
    this.schemaId = await codec.register(topics.reenriched, 'enriched-transaction');
    const producer = kafka.producer({
      transactionalId: this.transactionalId,
      idempotent: true,
      maxInFlightRequests: 1,
      transactionTimeout: TRANSACTION_TIMEOUT_MS,
      createPartitioner: Partitioners.DefaultPartitioner,
      retry: { retries: PRODUCER_RETRIES, initialRetryTime: 200, maxRetryTime: this.options.retryMaxDelayMs },
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

  private limitOf(topic: string): number {
    return this.limits.get(topic) ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  private prepare(row: OutboxRow): Promise<Prepared> {
    return prepareRow(row, {
      topic: this.topicOf(row),
      limitOf: (topic) => this.limitOf(topic),
      encode: (record) => this.options.codec.encode(this.schemaId, record),
    });
  }

  /** Publishes up to one batch of pending rows in one Kafka transaction; returns how many rows it handled. */
  private async publishBatch(): Promise<number> {
    const { db } = this.options;
    const isolating = this.isolateThrough !== null;
    const rows = await pendingOutbox(db, isolating ? 1 : (this.options.batchSize ?? 500));
    if (rows.length === 0) {
      this.isolateThrough = null;
      return 0;
    }
    const prepared: Extract<Prepared, { message: Message }>[] = [];
    for (const row of rows) {
      const p = await this.prepare(row);
      if ('failure' in p) {
        // Rows are published in id order: send what came before this one, set it aside next time.
        if (prepared.length > 0) break;
        await this.setAside(row, p.failure);
        return 1;
      }
      prepared.push(p);
    }
    const batch = prepared.slice(
      0,
      takeWhileFits(prepared, (t) => this.limitOf(t)),
    );
    try {
      await this.send(batch);
    } catch (error) {
      const failure = classifyError(error);
      if (failure.kind === 'infrastructure') throw error;
      if (batch.length > 1) {
        // The broker refused one of these records (or something broke on one): find which.
        this.isolateThrough = BigInt((batch[batch.length - 1] as (typeof batch)[number]).row.id);
        this.options.log.warn(
          { code: failure.code, rows: batch.length },
          'outbox batch refused: sending its rows one per transaction to find the one Kafka will not take',
        );
        return 0;
      }
      await this.setAside((batch[0] as (typeof batch)[number]).row, failure);
      return 1;
    }
    const last = (batch[batch.length - 1] as (typeof batch)[number]).row.id;
    if (this.isolateThrough !== null && BigInt(last) >= this.isolateThrough) this.isolateThrough = null;
    return batch.length;
  }

  private async send(batch: readonly { row: OutboxRow; topic: string; message: Message }[]): Promise<void> {
    const { db, log, topics } = this.options;
    const byTopic = new Map<string, Message[]>();
    for (const { topic, message } of batch) {
      const list = byTopic.get(topic) ?? [];
      list.push(message);
      byTopic.set(topic, list);
    }
    const last = (batch[batch.length - 1] as (typeof batch)[number]).row.id;
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
    this.published += batch.length;
    const counts = Object.fromEntries([...byTopic].map(([topic, messages]) => [topic, messages.length]));
    log.info({ records: batch.length, upTo: last, topics: counts }, 'outbox published');
  }

  /** The dead-letter state of a row: kept in the outbox with its reason, never sent, never retried. */
  private async setAside(row: OutboxRow, failure: Classified): Promise<void> {
    if (await this.aside.row(row, failure)) this.failed++;
    if (this.isolateThrough !== null && BigInt(row.id) >= this.isolateThrough) this.isolateThrough = null;
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
