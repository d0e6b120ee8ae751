// Guarantee: a merchant-scoped correction (Avro, from the feedback topic) re-enriches exactly the
// affected earlier transactions of that tenant — same normalized merchant key or same merchant id —
// and none of another tenant's at the same merchant: one re-enriched v3 record each, on the
// re-enriched topic, keyed by customer_id, Avro under <topic>-value, with the new brand and category,
// revision 2, and headers naming the reason, the correction id and the outbox id; and a brand-change
// event on the compacted topic. (Worker as a child process, store on the real PostgreSQL server.)
// Every wait is bounded and names its step: this test once hung 240 s in a fresh-clone run on a
// loaded machine with nothing saying where (docs/store.md, "Tests").
import { COMPATIBILITY, SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../src/data/load.js';
import { createTopics, stackEnv, testKafka, uniqueName } from '../support/index.js';
import { readCommitted } from '../support/enriched-records.js';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.js';
import {
  bounded,
  freshStoreLocation,
  killWorker,
  produceJson,
  produceMessages,
  stopWorker,
  topicReader,
  transaction,
} from './store-harness.js';

describe('feedback: merchant-scoped correction', () => {
  const env = stackEnv();
  const kafka = testKafka('feedback-merchant');
  const names = {
    raw: uniqueName('fm.raw'),
    out: uniqueName('fm.out'),
    dlq: uniqueName('fm.dlq'),
    feedback: uniqueName('fm.feedback'),
    reenriched: uniqueName('fm.reenriched'),
    changes: uniqueName('fm.changes'),
  };
  const store = freshStoreLocation('postgres', env.databaseUrl, 'fm');
  let worker: WorkerProcess | null = null;

  afterAll(async () => {
    if (worker) await killWorker(worker);
    await bounded('dropping the test schema', store.cleanup(), 60_000);
  });

  it('re-enriches the tenant’s earlier transactions at that merchant, and only those', async () => {
    await createTopics(kafka, [names.raw], { numPartitions: 3 });
    worker = await startWorkerProcess({
      INPUT_TOPICS: names.raw,
      OUTPUT_TOPIC: names.out,
      DLQ_TOPIC: names.dlq,
      FEEDBACK_TOPIC: names.feedback,
      REENRICHED_TOPIC: names.reenriched,
      BRAND_CHANGES_TOPIC: names.changes,
      CONSUMER_GROUP: uniqueName('fm-group'),
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      OUTBOX_POLL_MS: '200',
      ...store.env,
    });
    await worker.waitUntilReady(90_000);

    const shop = 'ZAHRAT AL KHALEEJ TRADING DUBAI';
    const affected = [
      transaction('a-1', 'cust-1', `POS ${shop}`, { merchant_name: shop, merchant_id: 'M-777' }),
      transaction('a-2', 'cust-2', `POS ${shop}`, { merchant_name: shop, occurred_at: '2026-10-02' }),
      transaction('a-3', 'cust-1', `PURCHASE ${shop} 0042`, { merchant_name: shop }),
      // Another text, same merchant id: the same merchant.
      transaction('a-4', 'cust-3', 'ZKT OUTLET 12', { merchant_id: 'M-777' }),
    ];
    const untouched = [
      transaction('a-5', 'cust-1', 'IKEA DUBAI FESTIVAL CITY', { merchant_name: 'IKEA' }),
      transaction('a-6', 'cust-2', 'ADNOC STATION 123', { merchant_name: 'ADNOC' }),
    ];
    const otherTenant = [
      transaction('a-1', 'cust-1', `POS ${shop}`, { merchant_name: shop, merchant_id: 'M-777' }),
      transaction('b-2', 'cust-9', `POS ${shop}`, { merchant_name: shop }),
    ];
    await produceJson(kafka, names.raw, [
      ...[...affected, ...untouched].map((t) => ({ key: String(t.customer_id), value: t, tenant: 'bank-a' })),
      ...otherTenant.map((t) => ({ key: String(t.customer_id), value: t, tenant: 'bank-b' })),
    ]);
    const enriched = await bounded(
      'reading the 8 enriched records',
      readCommitted(kafka, env.schemaRegistryUrl, names.out, {
        expected: 8,
        idleMs: 1_000,
        timeoutMs: 60_000,
      }),
      90_000,
    );
    expect(enriched, worker.logs()).toHaveLength(8);

    const brand =
      loadReferenceData().brands.find((b) => b.slug === 'spinneys') ?? loadReferenceData().brands[0]!;
    const registry = new SchemaRegistry({ host: env.schemaRegistryUrl });
    const { id: schemaId } = await bounded(
      'registering the feedback schema',
      registry.register(
        { type: SchemaType.AVRO, schema: readFileSync('schemas/feedback-correction.avsc', 'utf8') },
        { subject: `${names.feedback}-value`, compatibility: COMPATIBILITY.BACKWARD },
      ),
    );
    const value = await bounded(
      'encoding the correction',
      registry.encode(schemaId, {
        correction_id: 'corr-merchant-1',
        tenant: 'bank-a',
        transaction_id: 'a-1',
        customer_id: 'cust-1',
        brand_id: brand.id,
        new_brand: null,
        category_id: '6',
        sub_category_id: '6-1',
        scope: 'merchant',
        reported_at: Date.now(),
      }),
    );
    const reenriched = await topicReader(kafka, env.schemaRegistryUrl, names.reenriched);
    const changes = await topicReader(kafka, env.schemaRegistryUrl, names.changes);
    try {
      const sentAt = Date.now();
      await produceMessages(kafka, names.feedback, [
        { key: 'a-1', value, headers: { 'tenant-id': 'bank-a' } },
      ]);

      await reenriched.until(4, 60_000, `4 re-enriched records\n${worker.logs()}`);
      const latency = reenriched.records[0]!.receivedAt - sentAt;
      await reenriched.settle(3_000);
      process.stderr.write(
        `[feedback-merchant-scope] correction → first re-enriched record: ${latency} ms\n`,
      );

      const records = reenriched.records;
      expect(records.map((r) => r.value.transaction_id).sort()).toEqual(['a-1', 'a-2', 'a-3', 'a-4']);
      for (const r of records) {
        expect(r.headers['tenant-id']).toBe('bank-a');
        expect(r.key).toBe(r.value.customer_id);
        expect(r.raw?.[0]).toBe(0);
        expect(r.value).toMatchObject({
          brand_id: brand.id,
          brand_name: brand.name,
          category_id: '6',
          sub_category_id: '6-1',
          revision: 2,
        });
        expect(r.headers['x-correction-id']).toBe('corr-merchant-1');
        expect(r.headers['x-reenrich-reason']).toBe('correction:merchant');
        expect(r.headers['x-outbox-id']).toMatch(/^\d+$/);
      }
      expect(new Set(records.map((r) => r.headers['x-outbox-id'])).size).toBe(4);
      const subjects = await bounded(
        'listing the registry subjects',
        fetch(`${env.schemaRegistryUrl}/subjects`, { signal: AbortSignal.timeout(30_000) }).then(
          (res) => res.json() as Promise<string[]>,
        ),
      );
      expect(subjects).toContain(`${names.reenriched}-value`);

      await changes.until(1, 30_000, 'a brand-change event');
      const event = changes.records.find(
        (c) => c.value.type === 'mapping' && c.value.kind === 'merchant_key',
      );
      expect(event?.key).toMatch(/^mapping\/bank-a\/merchant_key\//);
      expect(event?.value).toMatchObject({ tenant: 'bank-a', brand_id: brand.id, sub_category_id: '6-1' });
      expect(changes.records.some((c) => c.value.kind === 'merchant_id' && c.value.key === 'M-777')).toBe(
        true,
      );
    } finally {
      await reenriched.stop();
      await changes.stop();
    }
    expect((await stopWorker(worker)).code).toBe(0);
    worker = null;
  }, 240_000);
});
