/**
 * Whether the worker is making progress: records waiting on an assigned input partition, and
 * nothing committed for a while, is a stall, whatever the consumer believes about itself. A broker
 * restart once left the consumer silent for minutes with /readyz saying ready; this is what makes
 * readiness tell the truth, and what tells the worker to restart its Kafka side.
 *
 * The worker reports what it commits (and the offsets of fetched batches that held nothing to
 * process: control records, aborted transactions). Every probe, it asks the brokers for each assigned
 * partition's last stable offset (what a `read_committed` consumer can read). The partition is
 * caught up when its position reaches that offset. Progress is a commit, or every partition caught
 * up; `secondsSinceProgress` is 0 while caught up. A probe that fails (brokers unreachable) proves
 * nothing, so the clock keeps running.
 */
import type { Admin } from 'kafkajs';
import { withDeadline } from '../errors/deadline.js';

export interface ProgressOptions {
  readonly probeTimeoutMs: number;
  readonly now?: () => number;
}

export class ProgressMonitor {
  private readonly positions = new Map<string, bigint>();
  private readonly stable = new Map<string, bigint>();
  private assigned: { topic: string; partition: number }[] = [];
  private lastProgress: number;
  private readonly now: () => number;

  constructor(
    private readonly admin: Admin,
    private readonly options: ProgressOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.lastProgress = this.now();
  }

  /** A new assignment (after a rebalance): the clock restarts, since nothing was waiting on us. */
  assign(partitions: readonly { topic: string; partition: number }[]): void {
    this.assigned = [...partitions];
    const keep = new Set(partitions.map((p) => key(p.topic, p.partition)));
    for (const k of [...this.positions.keys()]) if (!keep.has(k)) this.positions.delete(k);
    for (const k of [...this.stable.keys()]) if (!keep.has(k)) this.stable.delete(k);
    this.lastProgress = this.now();
  }

  /** A transaction committed input up to `nextOffset` (exclusive). */
  committed(topic: string, partition: number, nextOffset: bigint): void {
    this.advance(topic, partition, nextOffset);
    this.lastProgress = this.now();
  }

  /** The consumer moved past offsets that held nothing to process. */
  skipped(topic: string, partition: number, nextOffset: bigint): void {
    this.advance(topic, partition, nextOffset);
  }

  /** Records known to wait: last stable offset minus position, over assigned partitions (null: unknown). */
  lag(): number | null {
    let total = 0n;
    for (const { topic, partition } of this.assigned) {
      const k = key(topic, partition);
      const end = this.stable.get(k);
      if (end === undefined) return null;
      const position = this.positions.get(k);
      // Not yet known: the group's committed offset would tell, but only once something is read.
      if (position === undefined) {
        if (end > 0n) return null;
        continue;
      }
      if (end > position) total += end - position;
    }
    return Number(total);
  }

  /** Seconds since the last commit while records wait; 0 while every partition is caught up. */
  secondsSinceProgress(): number {
    return (this.now() - this.lastProgress) / 1000;
  }

  /** Asks the brokers for the assigned partitions' last stable offsets. */
  async probe(): Promise<void> {
    const topics = [...new Set(this.assigned.map((p) => p.topic))];
    try {
      for (const topic of topics) {
        const offsets = await withDeadline(
          this.admin.fetchTopicOffsets(topic),
          this.options.probeTimeoutMs,
          'KAFKA_UNAVAILABLE',
          `reading the end offsets of ${topic}`,
        );
        for (const p of offsets) this.stable.set(key(topic, p.partition), BigInt(p.offset));
      }
    } catch {
      return;
    }
    if (this.lag() === 0) this.lastProgress = this.now();
  }

  private advance(topic: string, partition: number, nextOffset: bigint): void {
    const k = key(topic, partition);
    const current = this.positions.get(k);
    if (current === undefined || nextOffset > current) this.positions.set(k, nextOffset);
  }
}

function key(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}
