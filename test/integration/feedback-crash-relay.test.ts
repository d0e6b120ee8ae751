// Guarantee: a crash between the database commit of a correction and the Kafka publish loses and
// doubles nothing. The worker (a child process, store on PostgreSQL) is SIGKILLed right after a
// correction's database transaction committed (its re-enrichments wait in the outbox, nothing is on
// Kafka), restarted and SIGKILLed again right after the relay's Kafka transaction committed (before
// it marked the rows sent), and restarted once more. A read_committed reader then finds every
// re-enriched record and brand-change event exactly once (one per outbox id), and the outbox is
// fully marked sent; the relay keeps working for the next correction.
import { afterAll, describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../src/data/load.js';
import type { Database } from '../../src/store/db.js';
import { createTopics, stackEnv, testKafka, uniqueName } from '../support/index.js';
import { readCommitted } from '../support/enriched-records.js';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.js';
import {
  bounded,
  freshStoreLocation,
  killWorker,
  produceJson,
  stopWorker,
  topicReader,
  transaction,
} from './store-harness.js';

describe('feedback: SIGKILL between the database commit and the Kafka publish', () => {
  const env = stackEnv();
  const kafka = testKafka('feedback-crash');
  const names = {
    raw: uniqueName('fc.raw'),
    out: uniqueName('fc.out'),
    dlq: uniqueName('fc.dlq'),
    feedback: uniqueName('fc.feedback'),
    reenriched: uniqueName('fc.reenriched'),
    changes: uniqueName('fc.changes'),
  };
  const store = freshStoreLocation('postgres', env.databaseUrl, 'fc');
  const workerEnv = {
    INPUT_TOPICS: names.raw,
    OUTPUT_TOPIC: names.out,
    DLQ_TOPIC: names.dlq,
    FEEDBACK_TOPIC: names.feedback,
    REENRICHED_TOPIC: names.reenriched,
    BRAND_CHANGES_TOPIC: names.changes,
    CONSUMER_GROUP: uniqueName('fc-group'),
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    OUTBOX_POLL_MS: '200',
    ...store.env,
  };
  let worker: WorkerProcess | null = null;
  let db: Database | null = null;

  afterAll(async () => {
    if (worker) await killWorker(worker);
    await db?.close();
    await bounded('dropping the test schema', store.cleanup(), 60_000);
  });

  async function outboxState(): Promise<{ pending: number; sent: number }> {
    const { rows } = await db!.query<{ pending: string; sent: string }>(
      `SELECT count(*) FILTER (WHERE sent_at IS NULL)::text AS pending,
              count(*) FILTER (WHERE sent_at IS NOT NULL)::text AS sent FROM outbox`,
    );
    return { pending: Number(rows[0]!.pending), sent: Number(rows[0]!.sent) };
  }

  async function killedBy(w: WorkerProcess): Promise<void> {
    const { signal } = await bounded('the worker reaching its crash point', w.exited, 120_000);
    expect(signal, w.logs()).toBe('SIGKILL');
  }

  it('publishes every re-enrichment exactly once across both crashes', async () => {
    await createTopics(kafka, [names.raw], { numPartitions: 2 });
    // 1. Crash right after the correction's database commit.
    worker = await startWorkerProcess({ ...workerEnv, TX_ENRICH_TEST_CRASH: 'after-correction-commit' });
    await worker.waitUntilReady();
    const shop = 'QASR AL SHAMS PERFUMES';
    const txns = [1, 2, 3, 4, 5, 6].map((i) =>
      transaction(`k-${i}`, `cust-${i % 3}`, `POS ${shop}`, {
        merchant_name: shop,
        occurred_at: `2026-09-0${i}T12:00:00Z`,
      }),
    );
    const other = transaction('k-7', 'cust-1', 'GOLDEN SANDS BARBER', {
      merchant_name: 'GOLDEN SANDS BARBER',
    });
    await produceJson(
      kafka,
      names.raw,
      [...txns, other].map((t) => ({ key: String(t.customer_id), value: t, tenant: 'bank-a' })),
    );
    expect(
      await bounded(
        'reading the 7 enriched records',
        readCommitted(kafka, env.schemaRegistryUrl, names.out, {
          expected: 7,
          idleMs: 1_000,
          timeoutMs: 60_000,
        }),
        90_000,
      ),
    ).toHaveLength(7);

    const brand =
      loadReferenceData().brands.find((b) => b.slug === 'sephora') ?? loadReferenceData().brands[5]!;
    await produceJson(kafka, names.feedback, [
      {
        key: 'k-1',
        tenant: 'bank-a',
        value: {
          correction_id: 'crash-1',
          tenant: 'bank-a',
          transaction_id: 'k-1',
          customer_id: 'cust-1',
          brand_id: brand.id,
          scope: 'merchant',
          reported_at: Date.now(),
        },
      },
    ]);
    await killedBy(worker);
    db = await bounded('opening the store', store.open(), 60_000);
    const afterFirst = await outboxState();
    expect(afterFirst.pending).toBe(7); // the brand-change event (merchant key mapping) + 6 re-enriched records
    expect(afterFirst.sent).toBe(0);
    const nothingYet = await readCommitted(kafka, env.schemaRegistryUrl, names.reenriched, {
      expected: 0,
      idleMs: 1_000,
      timeoutMs: 15_000,
    }).catch(() => []);
    expect(nothingYet).toHaveLength(0);

    // 2. Restart; crash right after the relay's Kafka commit, before it marks the rows sent.
    worker = await startWorkerProcess({ ...workerEnv, TX_ENRICH_TEST_CRASH: 'after-relay-commit' });
    await killedBy(worker);
    expect((await outboxState()).pending).toBe(7);

    // 3. Restart without faults: the relay finds its progress in Kafka and publishes nothing twice.
    worker = await startWorkerProcess(workerEnv);
    await worker.waitUntilReady();
    const reenriched = await topicReader(kafka, env.schemaRegistryUrl, names.reenriched);
    const changes = await topicReader(kafka, env.schemaRegistryUrl, names.changes);
    try {
      await reenriched.until(6, 60_000, `6 re-enriched records\n${worker.logs()}`);
      await produceJson(kafka, names.feedback, [
        {
          key: 'k-7',
          tenant: 'bank-a',
          value: {
            correction_id: 'crash-2',
            tenant: 'bank-a',
            transaction_id: 'k-7',
            customer_id: 'cust-1',
            category_id: '18',
            sub_category_id: '18-1',
            scope: 'transaction',
            reported_at: Date.now(),
          },
        },
      ]);
      await reenriched.until(7, 60_000, `the next correction's record\n${worker.logs()}`);
      await Promise.all([reenriched.settle(3_000), changes.settle(3_000)]);

      const ids = reenriched.records.map((r) => String(r.value.transaction_id)).sort();
      expect(ids).toEqual(['k-1', 'k-2', 'k-3', 'k-4', 'k-5', 'k-6', 'k-7']);
      for (const r of reenriched.records) expect(r.value.revision).toBe(2);
      expect(reenriched.records.filter((r) => r.headers['x-correction-id'] === 'crash-1')).toHaveLength(6);
      const outboxIds = [...reenriched.records, ...changes.records].map((r) => r.headers['x-outbox-id']);
      expect(new Set(outboxIds).size).toBe(outboxIds.length);
      expect(changes.records).toHaveLength(1);
      expect(worker.logs()).toContain('outbox rows published before a crash: marked sent, not sent again');
      expect(await outboxState()).toEqual({ pending: 0, sent: 8 });
    } finally {
      await Promise.all([reenriched.stop(), changes.stop()]);
    }
    expect((await stopWorker(worker)).code).toBe(0);
    worker = null;
  }, 300_000);
});
