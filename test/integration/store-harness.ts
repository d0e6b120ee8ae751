/**
 * Helpers for the brand store and feedback integration tests: a fresh store per test (a new schema
 * on the real PostgreSQL server, or a new PGlite folder), the environment that points a worker
 * child process at it, test transactions, and a read_committed reader that keeps headers.
 *
 * Every wait here is bounded and names its step when it gives up (a Kafka client call that retries,
 * a worker that does not exit), so a hang reports where it hung instead of a bare test timeout.
 */
import { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Partitioners, type IHeaders, type Kafka, type Message } from 'kafkajs';
import pg from 'pg';
import { openDatabase, quoteIdent, type Database } from '../../src/store/db.js';
import { uniqueName } from '../support/names.js';
import { sleep, waitFor, withTimeout } from '../support/wait.js';
import type { WorkerProcess } from '../support/worker-process.js';

/** How long one Kafka client call (connect, send, subscribe, disconnect) may take in a test. */
const CLIENT_CALL_MS = 30_000;

/** Waits for `promise` at most `ms`; on timeout, fails naming `step`. */
export function bounded<T>(step: string, promise: Promise<T>, ms = CLIENT_CALL_MS): Promise<T> {
  return withTimeout(promise, ms, step);
}

/**
 * SIGTERM, then wait (bounded) for the exit; a worker still alive then is SIGKILLed and the test
 * fails naming the step, with the worker's last lines.
 */
export async function stopWorker(
  worker: WorkerProcess,
  ms = 60_000,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  worker.child.kill('SIGTERM');
  try {
    return await worker.exit('the worker exiting after SIGTERM', ms);
  } catch (error) {
    worker.child.kill('SIGKILL');
    throw error;
  }
}

/** SIGKILL and wait (bounded) until the process is gone. */
export async function killWorker(worker: WorkerProcess, ms = 30_000): Promise<void> {
  worker.child.kill('SIGKILL');
  await worker.exit('the worker exiting after SIGKILL', ms);
}

export type Backend = 'postgres' | 'pglite';

export function schemaName(prefix: string): string {
  return uniqueName(prefix)
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 63);
}

export interface StoreLocation {
  /** Environment for a worker or CLI child process. */
  readonly env: Record<string, string>;
  readonly backend: Backend;
  open(): Promise<Database>;
  /** Drops the schema / removes the folder. */
  cleanup(): Promise<void>;
}

/** A store no other test uses: a new schema on the server, or a new PGlite folder. */
export function freshStoreLocation(backend: Backend, databaseUrl: string, prefix = 'store'): StoreLocation {
  if (backend === 'postgres') {
    const schema = schemaName(prefix);
    return {
      backend,
      env: { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema, STORE_DATA_DIR: '' },
      open: () => openDatabase({ databaseUrl, schema, dataDir: '' }),
      cleanup: async () => {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        try {
          await client.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
        } finally {
          await client.end();
        }
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), `tx-enrich-${prefix}-`));
  return {
    backend,
    env: { DATABASE_URL: '', STORE_DATA_DIR: dir, DATABASE_SCHEMA: 'public' },
    open: () => openDatabase({ dataDir: dir, schema: 'public' }),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

export function transaction(
  id: string,
  customer: string,
  description: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    raw_description: description,
    amount: 42.5,
    transaction_id: id,
    customer_id: customer,
    account_id: 'acc-1',
    card_id: 'card-1',
    card_name: null,
    merchant_name: '',
    merchant_id: '',
    mcc: '',
    direction: 'DEBIT',
    is_self_transaction: null,
    is_transfer: false,
    iso_currency_cd: 'AED',
    occurred_at: '2026-10-01T10:00:00Z',
    location: { iso_country_cd: 'AE', city: 'Dubai', address: null, region: null, postal_code: null },
    ref_id: null,
    ...extra,
  };
}

/** Sends JSON values (with a tenant-id header when given). */
export async function produceJson(
  kafka: Kafka,
  topic: string,
  values: readonly { key: string; value: unknown; tenant?: string; partition?: number }[],
): Promise<void> {
  await produceMessages(
    kafka,
    topic,
    values.map((v) => ({
      key: v.key,
      value: JSON.stringify(v.value),
      ...(v.partition !== undefined ? { partition: v.partition } : {}),
      ...(v.tenant ? { headers: { 'tenant-id': v.tenant } } : {}),
    })),
  );
}

/** Sends messages as they are (bytes, any headers), each client call bounded. */
export async function produceMessages(kafka: Kafka, topic: string, messages: Message[]): Promise<void> {
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await bounded(`connecting a producer for ${topic}`, producer.connect());
  try {
    await bounded(`sending ${messages.length} message(s) to ${topic}`, producer.send({ topic, messages }));
  } finally {
    await bounded(`disconnecting the producer for ${topic}`, producer.disconnect());
  }
}

export interface TopicRecord {
  readonly partition: number;
  readonly offset: string;
  readonly key: string | null;
  readonly headers: Record<string, string>;
  /** Decoded: Avro through the registry, else JSON, else the text. */
  readonly value: Record<string, unknown>;
  readonly raw: Buffer | null;
}

function headerMap(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) {
    const one = Array.isArray(v) ? v[0] : v;
    if (one !== undefined) out[k] = Buffer.isBuffer(one) ? one.toString('utf8') : String(one);
  }
  return out;
}

/**
 * A read_committed reader from the beginning of `topic`, kept running: `records` grows as records
 * arrive. `until(n)` waits for at least n; `settle()` waits until nothing new came for `idleMs`.
 */
export async function topicReader(kafka: Kafka, registryUrl: string, topic: string) {
  const registry = new SchemaRegistry({ host: registryUrl });
  const consumer = kafka.consumer({
    groupId: uniqueName('reader'),
    readUncommitted: false,
    maxWaitTimeInMs: 100,
  });
  const records: (TopicRecord & { receivedAt: number })[] = [];
  let last = Date.now();
  // The worker or its relay may create the topic a moment from now.
  const admin = kafka.admin();
  await bounded('connecting an admin client', admin.connect());
  try {
    await waitFor(async () => (await admin.listTopics()).includes(topic), {
      timeoutMs: 60_000,
      description: `topic ${topic} to exist`,
    });
  } finally {
    await bounded('disconnecting an admin client', admin.disconnect());
  }
  await bounded(`connecting a reader of ${topic}`, consumer.connect());
  await bounded(`subscribing a reader to ${topic}`, consumer.subscribe({ topic, fromBeginning: true }));
  await bounded(
    `a reader of ${topic} joining its group`,
    consumer.run({
      eachMessage: async ({ partition, message }) => {
        let value: Record<string, unknown>;
        const raw = message.value;
        if (raw && raw[0] === 0) value = (await registry.decode(raw)) as Record<string, unknown>;
        else {
          try {
            value = JSON.parse(raw?.toString('utf8') ?? 'null') as Record<string, unknown>;
          } catch {
            value = { text: raw?.toString('utf8') };
          }
        }
        records.push({
          partition,
          offset: message.offset,
          key: message.key?.toString('utf8') ?? null,
          headers: headerMap(message.headers),
          value,
          raw,
          receivedAt: Date.now(),
        });
        last = Date.now();
      },
    }),
    60_000,
  );
  return {
    records,
    async until(n: number, timeoutMs = 60_000, what = `${n} records on ${topic}`) {
      await waitFor(() => records.length >= n, { timeoutMs, intervalMs: 100, description: what });
    },
    async settle(idleMs = 3_000, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() - last < idleMs && Date.now() < deadline) await sleep(200);
    },
    stop: () => bounded(`disconnecting the reader of ${topic}`, consumer.disconnect()),
  };
}

/** Runs `tx-enrich <args>` (the real binary) to completion. */
export async function runCli(
  args: readonly string[],
  env: Record<string, string>,
  timeoutMs = 120_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { spawn } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  const root = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
  const child = spawn(process.execPath, [join(root, 'bin', 'tx-enrich.js'), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}
