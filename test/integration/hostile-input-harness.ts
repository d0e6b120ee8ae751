/**
 * A worker process as production runs it (`tx-enrich worker`: the real binary and configuration,
 * the brand store on the real PostgreSQL server, the real broker and registry) fed with one hostile
 * input between good records, for the tests of issue 12's classes. What each test checks: the bad
 * record is dead-lettered once with its catalog code, the good records around it are enriched, the
 * worker stays ready and keeps running.
 */
import { Partitioners, type IHeaders, type Message } from 'kafkajs';
import { HEADER, headerText } from '../../src/kafka/headers.js';
import { readCommitted, type EnrichedRead } from '../support/enriched-records.js';
import {
  consumeMessages,
  createTopics,
  stackEnv,
  testKafka,
  uniqueName,
  type ConsumedMessage,
} from '../support/index.js';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.js';
import { freshStoreLocation, type StoreLocation } from './store-harness.js';

export const CASE_HEADER = 'x-test-case';

/** A valid raw transaction (JSON object) with the given id. */
export function goodTransaction(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    raw_description: 'CARREFOUR MALL OF THE EMIRATES DUBAI',
    amount: 88.5,
    transaction_id: id,
    customer_id: `cust-${id}`,
    account_id: 'acc-1',
    card_id: 'card-1',
    merchant_name: '',
    merchant_id: '',
    mcc: '5411',
    direction: 'DEBIT',
    is_transfer: false,
    iso_currency_cd: 'AED',
    occurred_at: '2026-11-20T10:00:00Z',
    location: { iso_country_cd: 'AE' },
    ...extra,
  };
}

export interface HostileRun {
  readonly raw: string;
  readonly output: string;
  readonly dlq: string;
  readonly worker: WorkerProcess;
  /** The worker's brand store (a schema of its own on the real PostgreSQL server). */
  readonly store: StoreLocation;
  /** Sends messages in order; each gets its test case as a header. */
  send(
    messages: readonly { case: string; value: Buffer | string | null; headers?: IHeaders; key?: string }[],
  ): Promise<void>;
  /** The dead letters, by test case, once `count` have arrived. */
  deadLetters(count: number): Promise<Map<string, ConsumedMessage>>;
  /** The enriched records once every id arrived (and nothing more for a moment). */
  enriched(ids: readonly string[]): Promise<EnrichedRead[]>;
  /** What /readyz answers now. */
  readiness(): Promise<{ status: number; body: string }>;
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function startHostileRun(prefix: string, env: Record<string, string> = {}): Promise<HostileRun> {
  const stack = stackEnv();
  const kafka = testKafka(`${prefix}-test`);
  const raw = uniqueName(`${prefix}.raw`);
  const output = uniqueName(`${prefix}.out`);
  const dlq = uniqueName(`${prefix}.dlq`);
  await createTopics(kafka, [raw]);
  const store: StoreLocation = freshStoreLocation('postgres', stack.databaseUrl, prefix);
  const worker = await startWorkerProcess({
    ...store.env,
    KAFKA_BROKERS: stack.kafkaBrokers.join(','),
    SCHEMA_REGISTRY_URL: stack.schemaRegistryUrl,
    INPUT_TOPICS: raw,
    OUTPUT_TOPIC: output,
    DLQ_TOPIC: dlq,
    CONSUMER_GROUP: uniqueName(`${prefix}-group`),
    FEEDBACK_TOPIC: uniqueName(`${prefix}.feedback`),
    REENRICHED_TOPIC: uniqueName(`${prefix}.reenriched`),
    BRAND_CHANGES_TOPIC: uniqueName(`${prefix}.brand-changes`),
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    ...env,
  });
  try {
    await worker.waitUntilReady(120_000);
  } catch (error) {
    worker.child.kill('SIGKILL');
    await store.cleanup();
    throw error;
  }
  return {
    raw,
    output,
    dlq,
    worker,
    store,
    async send(messages) {
      const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
      await producer.connect();
      try {
        // One produce request each: two near-limit records would not fit one request together.
        for (const m of messages) {
          const message: Message = {
            key: m.key ?? m.case,
            value: m.value as Buffer | string | null,
            headers: { ...(m.headers ?? {}), [CASE_HEADER]: m.case },
          };
          await producer.send({ topic: raw, messages: [message], acks: -1 });
        }
      } finally {
        await producer.disconnect();
      }
    },
    async deadLetters(count) {
      const letters = await consumeMessages(kafka, { topic: dlq, count, timeoutMs: 90_000 });
      return new Map(letters.map((l) => [headerText(l.headers, CASE_HEADER) ?? '', l]));
    },
    async enriched(ids) {
      return readCommitted(kafka, stack.schemaRegistryUrl, output, {
        expected: ids.length,
        idleMs: 1500,
        timeoutMs: 90_000,
      });
    },
    async readiness() {
      const res = await fetch(`http://127.0.0.1:${worker.port}/readyz`);
      return { status: res.status, body: await res.text() };
    },
    async stop() {
      worker.child.kill('SIGTERM');
      const exit = await worker.exit('the worker to exit after SIGTERM');
      await store.cleanup();
      return exit;
    },
  };
}

/** The reason headers of a dead letter. */
export function reason(letter: ConsumedMessage | undefined): {
  code?: string;
  field?: string;
  message?: string;
} {
  return {
    code: headerText(letter?.headers, HEADER.errorCode),
    field: headerText(letter?.headers, HEADER.errorField),
    message: headerText(letter?.headers, HEADER.errorMessage),
  };
}
