import { Kafka, logLevel, type Admin, type IHeaders, type ITopicConfig } from 'kafkajs';
import { uniqueName } from './names.js';
import { stackEnv } from './stack-env.js';
import { waitFor } from './wait.js';

const LEVELS: Record<string, logLevel> = {
  nothing: logLevel.NOTHING,
  error: logLevel.ERROR,
  warn: logLevel.WARN,
  info: logLevel.INFO,
  debug: logLevel.DEBUG,
};

/**
 * A kafkajs client for the test stack. kafkajs logs retried protocol errors (e.g. CONCURRENT_TRANSACTIONS
 * right after a commit) at ERROR level, so tests are quiet by default; set TEST_KAFKA_LOG_LEVEL=debug
 * (or warn, info, error) to see them.
 */
export function testKafka(clientId = 'tx-enrich-test'): Kafka {
  const level = LEVELS[(process.env.TEST_KAFKA_LOG_LEVEL ?? 'nothing').toLowerCase()] ?? logLevel.NOTHING;
  return new Kafka({
    clientId,
    brokers: [...stackEnv().kafkaBrokers],
    logLevel: level,
    retry: { retries: 8, initialRetryTime: 100, maxRetryTime: 2000 },
  });
}

/** Runs `fn` with a connected admin client and disconnects it afterwards. */
export async function withAdmin<T>(kafka: Kafka, fn: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.disconnect();
  }
}

/**
 * Creates topics (names, or full kafkajs topic configs) and waits until every partition has a leader.
 * Default: 1 partition, replication factor 1.
 */
export async function createTopics(
  kafka: Kafka,
  topics: readonly (string | ITopicConfig)[],
  defaults: { numPartitions?: number } = {},
): Promise<void> {
  const configs: ITopicConfig[] = topics.map((t) =>
    typeof t === 'string'
      ? { topic: t, numPartitions: defaults.numPartitions ?? 1, replicationFactor: 1 }
      : t,
  );
  await withAdmin(kafka, async (admin) => {
    await admin.createTopics({ topics: configs, waitForLeaders: true });
    await waitFor(
      async () => {
        const { topics: meta } = await admin.fetchTopicMetadata({ topics: configs.map((c) => c.topic) });
        return meta.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0));
      },
      { timeoutMs: 30_000, description: `leaders for ${configs.map((c) => c.topic).join(', ')}` },
    );
  });
}

export interface ConsumedMessage {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers: IHeaders;
}

export interface ConsumeOptions {
  readonly topic: string;
  /** Stop after this many messages. */
  readonly count: number;
  /** Default 60 s (includes joining the group). */
  readonly timeoutMs?: number;
  /** Default false: read_committed, so records of aborted or open transactions are never returned. */
  readonly readUncommitted?: boolean;
  /** Default: a unique group. */
  readonly groupId?: string;
}

/**
 * Consumes `count` messages from the beginning of `topic` with a fresh consumer group, isolation
 * level read_committed unless `readUncommitted` is set, then disconnects. Rejects on timeout with the
 * number of messages seen so far.
 */
export async function consumeMessages(kafka: Kafka, options: ConsumeOptions): Promise<ConsumedMessage[]> {
  const { topic, count, timeoutMs = 60_000, readUncommitted = false } = options;
  const consumer = kafka.consumer({
    groupId: options.groupId ?? uniqueName('test-consumer'),
    readUncommitted,
    maxWaitTimeInMs: 100,
    sessionTimeout: 10_000,
    heartbeatInterval: 1000,
  });
  const received: ConsumedMessage[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    let done!: () => void;
    const enough = new Promise<void>((resolve) => {
      done = resolve;
    });
    if (count <= 0) done();
    await consumer.run({
      eachMessage: async ({ topic: t, partition, message }) => {
        if (received.length >= count) return;
        received.push({
          topic: t,
          partition,
          offset: message.offset,
          key: message.key,
          value: message.value,
          headers: message.headers ?? {},
        });
        if (received.length >= count) done();
      },
    });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `timed out after ${timeoutMs} ms consuming ${count} message(s) from ${topic}: got ${received.length}`,
            ),
          ),
        timeoutMs,
      );
    });
    try {
      await Promise.race([enough, timedOut]);
    } finally {
      clearTimeout(timer);
    }
    return received.slice(0, count);
  } finally {
    await consumer.disconnect();
  }
}
