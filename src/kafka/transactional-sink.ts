/**
 * Exactly-once output for each input partition: one Kafka transaction carries a micro-batch's
 * records and the input offset after it, so `read_committed` readers see each input's output once,
 * across crashes, rebalances and broker failures.
 *
 * Each input partition has its own session: a transactional producer with the id
 * `<group>-<topic>-<partition>` and the partition's *floor*, the committed input offset read after
 * the producer started.
 * - **Fencing without KIP-447.** kafkajs cannot fence by consumer-group metadata. Starting a producer
 *   with the partition's transactional id bumps its epoch: the previous owner's open transaction is
 *   aborted (or, if it was committing, finished) and its producer can never commit again.
 * - **No stale resume point.** The floor is read after that start, so it includes the previous
 *   owner's last transaction; messages below it were committed by someone and are skipped. It is
 *   read with `require_stable` (committed-offsets.ts): an offset whose transaction the group
 *   coordinator has not settled yet is waited for, not read as the offset before it.
 * - **Any failure ends the session.** Whatever fails inside a transaction (a send, the offsets, the
 *   commit, a timeout), the transaction is aborted if that still answers and the producer is
 *   dropped; the next attempt starts a new one, which settles the old transaction either way, and
 *   re-reads the floor. kafkajs cannot be trusted after a failed EndTxn (its state machine stays
 *   COMMITTING for ever), and a new producer is the one recovery that is always right.
 * - **Every wait is bounded** (`stepTimeoutMs`): a broker that stops answering becomes an
 *   infrastructure error, never a hang.
 * The produce step inside kafkajs is ours (send-messages.ts): it neither loses a partition whose
 * leader moved nor sends a batch twice.
 */
import type { Kafka, Message, Producer, Transaction } from 'kafkajs';
import { InfrastructureError } from '../errors/catalog.js';
import { withDeadline } from '../errors/deadline.js';
import type { Logger } from '../observability/logger.js';
import type { CommittedOffsets } from './committed-offsets.js';
import { sendMessagesInstalled } from './kafkajs.js';
import { KeyPartitioner } from './partitioner.js';
import { installRecordEncoder } from './record-encoder.js';

export interface TopicMessages {
  readonly topic: string;
  readonly messages: Message[];
}

export interface SinkOptions {
  /** Consumer group whose offsets the transactions commit; also the transactional id prefix. */
  readonly groupId: string;
  /**
   * After a rolling restart a transaction whose coordinator moved stayed open until the brokers
   * timed it out (about 60 s at 60 s: the partition's offset read as unsettled all that time, and
   * a new producer's start did not end it sooner). Short, since our transactions are.
   */
  readonly transactionTimeoutMs: number;
  /** Longest wait for one step: producer start, a send, the offsets, the commit, an offset fetch. */
  readonly stepTimeoutMs: number;
  readonly retryMaxDelayMs: number;
  /** `fast`: kafkajs encodes records with record-encoder.ts (same bytes, less CPU). */
  readonly recordEncoder: 'fast' | 'kafkajs';
  readonly log: Logger;
  /** Called when a transaction is given up (for the aborts metric). */
  readonly onAbort?: () => void;
  /** Called with each partition's floor as a session starts (where the partition stands). */
  readonly onFloor?: (topic: string, partition: number, floor: bigint) => void;
}

/** What a micro-batch needs of its output: where its partition stands, and one commit. */
export interface Sink {
  floor(topic: string, partition: number): Promise<bigint>;
  commit(
    topic: string,
    partition: number,
    requests: readonly (readonly TopicMessages[])[],
    nextOffset: bigint,
  ): Promise<void>;
}

interface Session {
  readonly producer: Producer;
  /** Offsets below this are committed: by us, or by whoever owned the partition before. */
  floor: bigint;
  transaction: Transaction | null;
}

export class TransactionalSink implements Sink {
  private readonly sessions = new Map<string, Promise<Session>>();

  constructor(
    private readonly kafka: Kafka,
    private readonly offsets: Pick<CommittedOffsets, 'read'>,
    private readonly options: SinkOptions,
  ) {
    const patched = sendMessagesInstalled();
    if (!patched.installed) {
      // Without it a broker failure can lose or duplicate records: refuse rather than pretend.
      throw new Error(`exactly-once output needs src/kafka/send-messages.ts in kafkajs: ${patched.reason}`);
    }
    if (options.recordEncoder === 'fast') {
      const outcome = installRecordEncoder();
      if (!outcome.installed)
        options.log.warn({ reason: outcome.reason }, 'fast record encoder not installed; kafkajs encodes');
    }
  }

  static transactionalId(groupId: string, topic: string, partition: number): string {
    return `${groupId}-${topic}-${partition}`;
  }

  static key(topic: string, partition: number): string {
    return `${topic}\u0000${partition}`;
  }

  /** The partition's floor; starts its session (fencing older owners) when it has none. */
  async floor(topic: string, partition: number): Promise<bigint> {
    return (await this.session(topic, partition)).floor;
  }

  /** Starts the partition's session now (on assignment), so its first records do not wait for it. */
  open(topic: string, partition: number): void {
    this.session(topic, partition).catch((error: unknown) => {
      this.options.log.warn({ topic, partition, err: messageOf(error) }, 'starting a producer failed');
    });
  }

  /**
   * Commits the records (in produce requests of bounded size, `requests`) and the input offset
   * `nextOffset` in one transaction. Throws on any failure, after ending the session.
   */
  async commit(
    topic: string,
    partition: number,
    requests: readonly (readonly TopicMessages[])[],
    nextOffset: bigint,
  ): Promise<void> {
    const session = await this.session(topic, partition);
    try {
      const transaction = await this.step(session.producer.transaction(), 'starting a transaction');
      session.transaction = transaction;
      for (const topicMessages of requests) {
        const answers = await this.step(
          transaction.sendBatch({ topicMessages: [...topicMessages] }),
          'sending records',
        );
        const sent = topicMessages.reduce((n, t) => n + t.messages.length, 0);
        if (sent > 0 && answers.length === 0) {
          throw new InfrastructureError('TRANSACTION_FAILED', 'the broker answered a send with no partition');
        }
      }
      await this.step(
        transaction.sendOffsets({
          consumerGroupId: this.options.groupId,
          topics: [{ topic, partitions: [{ partition, offset: nextOffset.toString() }] }],
        }),
        'adding the input offset',
      );
      await this.step(transaction.commit(), 'committing');
      session.transaction = null;
      session.floor = nextOffset;
    } catch (error) {
      this.options.onAbort?.();
      await this.end(topic, partition, session);
      throw error;
    }
  }

  /** Ends a partition's session (its transaction aborted if open); the next use starts a new one. */
  async discard(topic: string, partition: number): Promise<void> {
    const session = await this.sessions.get(TransactionalSink.key(topic, partition))?.catch(() => null);
    if (session) await this.end(topic, partition, session);
    else this.sessions.delete(TransactionalSink.key(topic, partition));
  }

  /** Ends the sessions of partitions not in `keep` (after a rebalance); returns their keys. */
  async retain(keep: ReadonlySet<string>): Promise<string[]> {
    const gone = [...this.sessions.keys()].filter((k) => !keep.has(k));
    await Promise.all(
      gone.map(async (k) => {
        const [topic, partition] = k.split('\u0000') as [string, string];
        await this.discard(topic, Number(partition));
      }),
    );
    return gone;
  }

  async closeAll(): Promise<void> {
    await this.retain(new Set());
  }

  private session(topic: string, partition: number): Promise<Session> {
    const key = TransactionalSink.key(topic, partition);
    const existing = this.sessions.get(key);
    if (existing) return existing;
    const started = this.start(topic, partition);
    this.sessions.set(key, started);
    // A failed start must not stay in the map: the next call starts again.
    started.catch(() => {
      if (this.sessions.get(key) === started) this.sessions.delete(key);
    });
    return started;
  }

  private async start(topic: string, partition: number): Promise<Session> {
    const producer = this.kafka.producer({
      transactionalId: TransactionalSink.transactionalId(this.options.groupId, topic, partition),
      idempotent: true,
      maxInFlightRequests: 1,
      transactionTimeout: this.options.transactionTimeoutMs,
      createPartitioner: KeyPartitioner,
      // Bounded: a send is bounded by stepTimeoutMs anyway, and an unbounded producer would go on
      // retrying in the background after we dropped it. A failed send aborts its transaction.
      retry: {
        retries: 5,
        initialRetryTime: 100,
        maxRetryTime: Math.min(2_000, this.options.retryMaxDelayMs),
      },
    });
    try {
      // connect() initialises the transactional id: this is what fences the previous owner.
      await this.step(producer.connect(), 'starting a transactional producer');
      const floor = await this.readFloor(topic, partition);
      this.options.log.info({ topic, partition, floor: floor.toString() }, 'transactional session started');
      this.options.onFloor?.(topic, partition, floor);
      return { producer, floor, transaction: null };
    } catch (error) {
      void this.disconnect(producer);
      throw error;
    }
  }

  /** Stable (committed-offsets.ts): a transaction still settling is waited for, never read past. */
  private readFloor(topic: string, partition: number): Promise<bigint> {
    return this.offsets.read(this.options.groupId, topic, partition, this.options.stepTimeoutMs);
  }

  private async end(topic: string, partition: number, session: Session): Promise<void> {
    const key = TransactionalSink.key(topic, partition);
    const current = this.sessions.get(key);
    if (current !== undefined && (await current.catch(() => null)) === session) this.sessions.delete(key);
    const open = session.transaction;
    session.transaction = null;
    if (open?.isActive()) {
      // Best effort: the next producer's start aborts it anyway if this does not answer.
      await withDeadline(open.abort(), this.options.stepTimeoutMs, 'KAFKA_UNAVAILABLE', 'aborting').catch(
        () => undefined,
      );
    }
    await this.disconnect(session.producer);
  }

  private async disconnect(producer: Producer): Promise<void> {
    await withDeadline(
      producer.disconnect(),
      this.options.stepTimeoutMs,
      'KAFKA_UNAVAILABLE',
      'disconnecting',
    ).catch(() => undefined);
  }

  private step<T>(work: Promise<T>, what: string): Promise<T> {
    return withDeadline(work, this.options.stepTimeoutMs, 'KAFKA_UNAVAILABLE', what);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
