/**
 * The feedback services — the real consumer, relay and brand-change listener — started in the test
 * process against the real broker, registry and PostgreSQL (a fresh schema), on topics of their
 * own, with transactions indexed the way the worker indexes them (the engine, then the index
 * upsert). The hardening tests (one class each) send a bad record and a good one behind it and
 * watch the dead-letter, re-enriched and brand-change topics and the store.
 *
 * Every wait is bounded and names its step.
 */
import { Writable } from 'node:stream';
import type { Kafka, Message } from 'kafkajs';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { loadConfig } from '../../src/config.js';
import { validateTransaction } from '../../src/contract/transaction.js';
import { loadReferenceData } from '../../src/data/load.js';
import { enrichBatch } from '../../src/engine/enrich.js';
import { RetryBoard } from '../../src/errors/retry.js';
import { startFeedbackServices, type FeedbackServices } from '../../src/feedback/services.js';
import type { Database } from '../../src/store/db.js';
import { upsertIndex } from '../../src/store/index-store.js';
import { StoreSnapshot } from '../../src/store/store-snapshot.js';
import { prepareStore } from '../../src/store/store.js';
import { stackEnv, testKafka, uniqueName, waitFor } from '../support/index.js';
import {
  bounded,
  freshStoreLocation,
  produceMessages,
  topicReader,
  transaction,
  type StoreLocation,
} from './store-harness.js';

const files = loadReferenceData();

export type Reader = Awaited<ReturnType<typeof topicReader>>;

export interface FeedbackRig {
  readonly kafka: Kafka;
  readonly env: ReturnType<typeof stackEnv>;
  readonly topics: { feedback: string; reenriched: string; changes: string; dlq: string };
  readonly group: string;
  readonly store: StoreLocation;
  readonly db: Database;
  readonly snapshots: StoreSnapshot;
  readonly services: FeedbackServices;
  readonly board: RetryBoard;
  readonly metrics: Registry;
  readonly reenriched: Reader;
  readonly letters: Reader;
  readonly changes: Reader;
  /** The services' log lines (JSON), for failure messages and checks. */
  logs(): string;
  /** Indexes transactions of a tenant as the worker would (engine outcome, index upsert). */
  index(tenant: string, txns: readonly Record<string, unknown>[]): Promise<void>;
  /** Sends records to the feedback topic. */
  send(messages: Message[]): Promise<void>;
  /** A correction as JSON, with the tenant-id header of its tenant (key `k` unless given). */
  correction(value: Record<string, unknown>, key?: string): Message;
  stop(): Promise<void>;
}

export async function startFeedbackRig(
  prefix: string,
  options: {
    readonly settings?: Record<string, string>;
    /** Runs before the services start (to create a topic with settings of its own). */
    readonly beforeStart?: (kafka: Kafka, topics: FeedbackRig['topics']) => Promise<void>;
  } = {},
): Promise<FeedbackRig> {
  const env = stackEnv();
  const kafka = testKafka(`${prefix}-test`);
  const topics = {
    feedback: uniqueName(`${prefix}.feedback`),
    reenriched: uniqueName(`${prefix}.reenriched`),
    changes: uniqueName(`${prefix}.changes`),
    dlq: uniqueName(`${prefix}.dlq`),
  };
  const group = uniqueName(`${prefix}-group`);
  const store = freshStoreLocation('postgres', env.databaseUrl, prefix);
  const config = loadConfig({
    KAFKA_BROKERS: env.kafkaBrokers.join(','),
    SCHEMA_REGISTRY_URL: env.schemaRegistryUrl,
    FEEDBACK_TOPIC: topics.feedback,
    REENRICHED_TOPIC: topics.reenriched,
    BRAND_CHANGES_TOPIC: topics.changes,
    DLQ_TOPIC: topics.dlq,
    CONSUMER_GROUP: group,
    KAFKA_SESSION_TIMEOUT_MS: '10000',
    OUTBOX_POLL_MS: '200',
    RETRY_MAX_DELAY_MS: '2000',
    ...options.settings,
  });
  await options.beforeStart?.(kafka, topics);
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      if (lines.length > 500) lines.splice(0, lines.length - 500);
      done();
    },
  });
  const log = pino({ level: 'info' }, sink);
  const db = await bounded('opening the store', store.open(), 60_000);
  await bounded('migrating and seeding the store', prepareStore(db, files, log), 120_000);
  const snapshots = await bounded('loading the brand snapshot', StoreSnapshot.load(db, files, log), 60_000);
  const board = new RetryBoard();
  const metrics = new Registry();
  const services = await bounded(
    'starting the feedback services',
    startFeedbackServices(config, log, db, snapshots, { board, registry: metrics }),
    120_000,
  );
  const readers = await Promise.all(
    [topics.reenriched, topics.dlq, topics.changes].map((t) => topicReader(kafka, env.schemaRegistryUrl, t)),
  );
  const [reenriched, letters, changes] = readers as [Reader, Reader, Reader];
  return {
    kafka,
    env,
    topics,
    group,
    store,
    db,
    snapshots,
    services,
    board,
    metrics,
    reenriched,
    letters,
    changes,
    logs: () => lines.slice(-80).join('\n'),
    async index(tenant, txns) {
      const valid = txns.map((t) => {
        const v = validateTransaction(t);
        if (!v.ok) throw new Error(`test transaction invalid: ${JSON.stringify(v.errors)}`);
        return { ...v.value, tenant };
      });
      const results = enrichBatch(valid, snapshots.current());
      await bounded(
        'indexing test transactions',
        upsertIndex(
          db,
          valid.map((transaction, i) => ({ transaction, enrichment: results[i]! })),
        ),
      );
    },
    send: (messages) => produceMessages(kafka, topics.feedback, messages),
    correction(value, key) {
      return {
        // One key by default: one partition, read in the order sent (a good record behind bad ones).
        key: key ?? 'k',
        value: JSON.stringify({ reported_at: Date.now(), ...value }),
        headers: { 'tenant-id': String(value.tenant) },
      };
    },
    async stop() {
      await Promise.allSettled(readers.map((r) => r.stop()));
      await bounded('stopping the feedback services', services.stop(), 60_000);
      await db.close();
      await bounded('dropping the test schema', store.cleanup(), 60_000);
    },
  };
}

/** A raw transaction at `shop` (the harness's test transaction). */
export function at(shop: string, id: string, customer: string, extra: Record<string, unknown> = {}) {
  return transaction(id, customer, `POS ${shop} DUBAI`, { merchant_name: shop, ...extra });
}

/** Waits until the feedback consumer has committed the end of the feedback topic. */
export async function feedbackConsumed(rig: FeedbackRig, timeoutMs = 60_000): Promise<void> {
  let seen = '';
  try {
    await waitFor(
      () =>
        bounded(
          'reading the feedback offsets',
          (async () => {
            const admin = rig.kafka.admin();
            await admin.connect();
            try {
              const ends = await admin.fetchTopicOffsets(rig.topics.feedback);
              const [committed] = await admin.fetchOffsets({
                groupId: `${rig.group}-feedback`,
                topics: [rig.topics.feedback],
              });
              seen = JSON.stringify({ ends, committed: committed?.partitions });
              return ends.every((e) => {
                const offset = committed?.partitions.find((p) => p.partition === e.partition)?.offset;
                // A partition that never had a record has nothing committed (-1, or -2 after a reset).
                return offset === e.high || (Number(offset) < 0 && e.high === e.low);
              });
            } finally {
              await admin.disconnect();
            }
          })(),
        ),
      { timeoutMs, description: 'the feedback topic consumed to its end' },
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; offsets ${seen}\n${rig.logs()}`);
  }
}

/** The dead-letter codes seen so far, in order. */
export function letterCodes(rig: FeedbackRig): string[] {
  return rig.letters.records.map((l) => String(l.headers['x-dlq-error-code']));
}

/** The services are healthy: no feedback loop retrying, ready. */
export function expectHealthy(rig: FeedbackRig): { failing: string | null; readiness: string | null } {
  return { failing: rig.board.longest()?.loop ?? null, readiness: rig.services.readiness() };
}
