/**
 * One transactional producer per input partition, with transactional id
 * `<group>-<topic>-<partition>`. kafkajs has no KIP-447 (fencing by consumer-group metadata), so
 * this is how a zombie is fenced: when the partition moves, its new owner's producer initialises the
 * same transactional id, which bumps the epoch, aborts the old owner's open transaction and makes
 * the old producer's next commit fail.
 */
import type { Kafka, Producer } from 'kafkajs';
import { KeyPartitioner } from './partitioner.js';

export class ProducerPool {
  private readonly producers = new Map<string, Promise<Producer>>();

  /**
   * `prepare` runs once per new producer, after it is initialised and before anyone gets it (the
   * worker reads the partition's resume point there).
   */
  constructor(
    private readonly kafka: Kafka,
    private readonly groupId: string,
    private readonly transactionTimeoutMs: number,
    private readonly maxRetryTimeMs: number,
    private readonly prepare: (topic: string, partition: number) => Promise<void> = async () => {},
  ) {}

  static transactionalId(groupId: string, topic: string, partition: number): string {
    return `${groupId}-${topic}-${partition}`;
  }

  /**
   * The producer for a partition, created, initialised (fencing older owners) and prepared on first
   * use: on assignment, or at the partition's first batch if that came first.
   */
  get(topic: string, partition: number): Promise<Producer> {
    const key = `${topic}\u0000${partition}`;
    const existing = this.producers.get(key);
    if (existing) return existing;
    const producer = this.kafka.producer({
      transactionalId: ProducerPool.transactionalId(this.groupId, topic, partition),
      idempotent: true,
      maxInFlightRequests: 1,
      transactionTimeout: this.transactionTimeoutMs,
      createPartitioner: KeyPartitioner,
      // An idempotent producer must not give up on its own (kafkajs warns it breaks EoS); our
      // caller bounds each attempt and the shutdown deadline bounds the whole.
      retry: { retries: Number.MAX_SAFE_INTEGER, initialRetryTime: 200, maxRetryTime: this.maxRetryTimeMs },
    });
    const ready = (async () => {
      await producer.connect();
      try {
        await this.prepare(topic, partition);
      } catch (error) {
        await producer.disconnect().catch(() => undefined);
        throw error;
      }
      return producer;
    })();
    // A failed start must not poison the pool: the next batch tries again.
    ready.catch(() => {
      if (this.producers.get(key) === ready) this.producers.delete(key);
    });
    this.producers.set(key, ready);
    return ready;
  }

  /** Closes the producers of partitions not in `keep` (called after a rebalance). */
  async retain(keep: ReadonlySet<string>): Promise<string[]> {
    const closed: string[] = [];
    for (const [key, producer] of this.producers) {
      if (keep.has(key)) continue;
      this.producers.delete(key);
      closed.push(key.replace('\u0000', ':'));
      await producer.then((p) => p.disconnect()).catch(() => undefined);
    }
    return closed;
  }

  async drop(topic: string, partition: number): Promise<void> {
    const key = `${topic}\u0000${partition}`;
    const producer = this.producers.get(key);
    this.producers.delete(key);
    await producer?.then((p) => p.disconnect()).catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    await this.retain(new Set());
  }

  static key(topic: string, partition: number): string {
    return `${topic}\u0000${partition}`;
  }
}
