/**
 * Producing test traffic and reading back what the worker committed, decoded, for the exactly-once
 * verifiers.
 */
import { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import { Partitioners, type Kafka, type KafkaMessage, type Message } from 'kafkajs';
import { loadReferenceData } from '../../src/data/load.js';
import { generateSamples } from '../../src/samples/generate.js';
import { HEADER, jsonHeader, type SourceHeader } from '../../src/kafka/headers.js';
import { uniqueName } from './names.js';
import { sleep } from './wait.js';

/** `count` valid JSON transactions with ids `<prefix>-<i>`, keyed by customer, across `customers`. */
export function sampleMessages(prefix: string, count: number, customers = 200): Message[] {
  const data = loadReferenceData();
  const messages: Message[] = [];
  let i = 0;
  for (const s of generateSamples(data, count, { seed: 11, customers })) {
    const value: Record<string, unknown> = {
      ...(s.value as Record<string, unknown>),
      transaction_id: `${prefix}-${i}`,
    };
    messages.push({ key: String(value.customer_id), value: JSON.stringify(value) });
    i++;
  }
  return messages;
}

/**
 * Sends messages at about `rate` per second (in batches of `rate / 20`), idempotently. With
 * `retryFailedSends`, a failed send (brokers down) is tried again every second, up to that many
 * times in all; the number retried is returned.
 */
export async function produceAtRate(
  kafka: Kafka,
  topic: string,
  messages: readonly Message[],
  rate: number,
  options: { retryFailedSends?: number } = {},
): Promise<number> {
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  let failures = 0;
  try {
    const batch = Math.max(1, Math.round(rate / 20));
    const started = Date.now();
    for (let i = 0; i < messages.length; i += batch) {
      for (;;) {
        try {
          await producer.send({ topic, messages: messages.slice(i, i + batch) });
          break;
        } catch (error) {
          if (++failures > (options.retryFailedSends ?? 0)) throw error;
          await sleep(1000);
        }
      }
      const due = started + ((i + batch) / rate) * 1000;
      if (due > Date.now()) await sleep(due - Date.now());
    }
    return failures;
  } finally {
    await producer.disconnect();
  }
}

export interface EnrichedRead {
  readonly transactionId: string;
  readonly customerId: string;
  readonly key: string;
  readonly partition: number;
  readonly offset: bigint;
  readonly sourcePartition: number;
  readonly sourceOffset: bigint;
  readonly value: Record<string, unknown>;
}

/** How long to read a topic: until `expected` records and `idleMs` without a new one, or `timeoutMs`. */
export interface ReadUntil {
  readonly expected: number;
  readonly idleMs?: number;
  readonly timeoutMs?: number;
  /** Read aborted transactions' records too (default: read_committed). */
  readonly readUncommitted?: boolean;
}

/**
 * Reads every record of `topic` from the beginning, mapping each with `read`, until `expected`
 * records arrived and nothing new came for `idleMs` (so duplicates beyond `expected` are seen too),
 * or `timeoutMs` passed.
 */
export async function readTopic<T>(
  kafka: Kafka,
  topic: string,
  until: ReadUntil,
  read: (message: KafkaMessage, partition: number) => T | Promise<T>,
): Promise<T[]> {
  const consumer = kafka.consumer({
    groupId: uniqueName('verifier'),
    readUncommitted: until.readUncommitted ?? false,
    maxWaitTimeInMs: 200,
  });
  const out: T[] = [];
  let last = Date.now();
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachBatch: async ({ batch }) => {
        for (const m of batch.messages) out.push(await read(m, batch.partition));
        last = Date.now();
      },
    });
    const idleMs = until.idleMs ?? 3_000;
    const deadline = Date.now() + (until.timeoutMs ?? 120_000);
    while (Date.now() < deadline) {
      if (out.length >= until.expected && Date.now() - last > idleMs) break;
      await sleep(200);
    }
  } finally {
    await consumer.disconnect();
  }
  return out;
}

/** Every committed enriched record of `topic`, decoded (see readTopic for how long it reads). */
export async function readCommitted(
  kafka: Kafka,
  registryUrl: string,
  topic: string,
  until: ReadUntil,
): Promise<EnrichedRead[]> {
  const registry = new SchemaRegistry({ host: registryUrl });
  return readTopic(kafka, topic, until, async (m, partition) => {
    const value = (await registry.decode(m.value as Buffer)) as Record<string, unknown>;
    const source = jsonHeader<SourceHeader>(m.headers, HEADER.source);
    return {
      transactionId: String(value.transaction_id),
      customerId: String(value.customer_id),
      key: m.key?.toString('utf8') ?? '',
      partition,
      offset: BigInt(m.offset),
      sourcePartition: source?.partition ?? -1,
      sourceOffset: BigInt(source?.offset ?? '-1'),
      value,
    };
  });
}

/** Ids seen more than once, and expected ids never seen. */
export function exactlyOnceReport(expectedIds: readonly string[], reads: readonly EnrichedRead[]) {
  const seen = new Map<string, number>();
  for (const r of reads) seen.set(r.transactionId, (seen.get(r.transactionId) ?? 0) + 1);
  const duplicates = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  const missing = expectedIds.filter((id) => !seen.has(id));
  const expected = new Set(expectedIds);
  const unexpected = [...seen.keys()].filter((id) => !expected.has(id));
  return { duplicates, missing, unexpected };
}
