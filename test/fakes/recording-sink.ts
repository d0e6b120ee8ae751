/**
 * A transactional sink that keeps its commits in memory: each commit is one "transaction" holding
 * records per topic and the input offset. A test can make the next commits fail (as the broker, or a
 * bug) to drive the worker's failure policy.
 */
import type { Message } from 'kafkajs';
import type { Sink, TopicMessages } from '../../src/kafka/transactional-sink.js';

export interface RecordedCommit {
  readonly topic: string;
  readonly partition: number;
  readonly records: Record<string, Message[]>;
  readonly nextOffset: bigint;
}

export class RecordingSink implements Sink {
  readonly commits: RecordedCommit[] = [];
  private readonly floors = new Map<string, bigint>();
  /** Decides, per commit attempt, whether it fails and with what (undefined: it succeeds). */
  failWith: (records: Record<string, Message[]>) => unknown = () => undefined;

  async floor(topic: string, partition: number): Promise<bigint> {
    return this.floors.get(`${topic}:${partition}`) ?? -1n;
  }

  async commit(
    topic: string,
    partition: number,
    requests: readonly (readonly TopicMessages[])[],
    nextOffset: bigint,
  ): Promise<void> {
    const records: Record<string, Message[]> = {};
    for (const request of requests)
      for (const { topic: t, messages } of request) (records[t] ??= []).push(...messages);
    const failure = this.failWith(records);
    if (failure !== undefined) throw failure;
    this.commits.push({ topic, partition, records, nextOffset });
    this.floors.set(`${topic}:${partition}`, nextOffset);
  }

  /** Every record committed to a topic, in commit order. */
  recordsOf(topic: string): Message[] {
    return this.commits.flatMap((c) => c.records[topic] ?? []);
  }
}
