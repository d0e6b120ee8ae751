// Guarantee: feedback is applied exactly once by idempotency. A feedback topic with valid
// corrections (merchant, transaction, new brand, a global proposal), a duplicate and invalid ones
// (unknown brand, unknown sub-category, nothing corrected, brand_id and new_brand both, unknown
// transaction, not JSON) is consumed: each invalid one lands once on the dead-letter topic with its
// reason and original bytes. Replaying the whole feedback topic twice (consumer group reset to the
// beginning, worker restarted) leaves the store unchanged and publishes nothing more: no second
// re-enrichment, dead letter or brand-change event. (Worker as a child process on the embedded
// PGlite store: the default when DATABASE_URL is unset.)
import { afterAll, describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../src/data/load.js';
import type { Database } from '../../src/store/db.js';
import { createTopics, stackEnv, testKafka, uniqueName, waitFor, withAdmin } from '../support/index.js';
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

async function storeDigest(db: Database): Promise<Record<string, string>> {
  const digest = async (table: string, order: string) =>
    (
      await db.query<{ d: string | null }>(
        `SELECT md5(string_agg(t::text, '|' ORDER BY ${order})) AS d FROM ${table} t`,
      )
    ).rows[0]?.d ?? '';
  return {
    corrections: await digest('corrections', 'correction_id'),
    mappings: await digest('learned_mappings', 'tenant, kind, key'),
    brands: await digest('brands', 'id'),
    index: await digest('enriched_index', 'tenant, transaction_id'),
    outbox: await digest(
      '(SELECT id, kind, msg_key, msg_value, record, headers, correction_id FROM outbox)',
      'id',
    ),
  };
}

describe('feedback: replaying the feedback topic', () => {
  const env = stackEnv();
  const kafka = testKafka('feedback-replay');
  const group = uniqueName('fr-group');
  const names = {
    raw: uniqueName('fr.raw'),
    out: uniqueName('fr.out'),
    dlq: uniqueName('fr.dlq'),
    feedback: uniqueName('fr.feedback'),
    reenriched: uniqueName('fr.reenriched'),
    changes: uniqueName('fr.changes'),
  };
  const store = freshStoreLocation('pglite', env.databaseUrl, 'fr');
  const workerEnv = {
    INPUT_TOPICS: names.raw,
    OUTPUT_TOPIC: names.out,
    DLQ_TOPIC: names.dlq,
    FEEDBACK_TOPIC: names.feedback,
    REENRICHED_TOPIC: names.reenriched,
    BRAND_CHANGES_TOPIC: names.changes,
    CONSUMER_GROUP: group,
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    OUTBOX_POLL_MS: '200',
    ...store.env,
  };
  let worker: WorkerProcess | null = null;

  afterAll(async () => {
    if (worker) await killWorker(worker);
    await bounded('removing the test store', store.cleanup(), 60_000);
  });

  async function feedbackConsumed(): Promise<void> {
    await waitFor(
      async () =>
        bounded(
          'reading the feedback offsets',
          withAdmin(kafka, async (admin) => {
            const [high] = await admin.fetchTopicOffsets(names.feedback);
            const [committed] = await admin.fetchOffsets({
              groupId: `${group}-feedback`,
              topics: [names.feedback],
            });
            return committed?.partitions[0]?.offset === high?.high;
          }),
        ),
      { timeoutMs: 60_000, description: 'the feedback topic consumed to its end' },
    );
  }

  async function stop(): Promise<void> {
    expect((await stopWorker(worker!)).code).toBe(0);
    worker = null;
  }

  it('applies each correction once; two full replays change and publish nothing', async () => {
    await createTopics(kafka, [names.raw, { topic: names.feedback, numPartitions: 1 }], { numPartitions: 2 });
    worker = await startWorkerProcess(workerEnv);
    await worker.waitUntilReady(120_000);

    const shop = 'BAYT AL ZAFARAN RESTAURANT';
    const txns = [
      transaction('r-1', 'cust-1', `POS ${shop}`, { merchant_name: shop }),
      transaction('r-2', 'cust-2', `POS ${shop}`, { merchant_name: shop }),
      transaction('r-3', 'cust-1', 'MARINA BOUTIQUE 7 DUBAI', { merchant_name: 'MARINA BOUTIQUE' }),
      transaction('r-4', 'cust-3', 'NOOR AL HUDA TAILORS', { merchant_name: 'NOOR AL HUDA TAILORS' }),
      transaction('r-5', 'cust-4', 'DESERT PEAK CAMPING GEAR', { merchant_name: 'DESERT PEAK' }),
    ];
    await produceJson(
      kafka,
      names.raw,
      txns.map((t) => ({ key: String(t.customer_id), value: t, tenant: 'bank-a' })),
    );
    expect(
      await bounded(
        'reading the 5 enriched records',
        readCommitted(kafka, env.schemaRegistryUrl, names.out, {
          expected: 5,
          idleMs: 1_000,
          timeoutMs: 60_000,
        }),
        90_000,
      ),
    ).toHaveLength(5);

    const brands = loadReferenceData().brands;
    const now = Date.now();
    const base = { tenant: 'bank-a', customer_id: 'cust-1', reported_at: now };
    const valid = [
      {
        ...base,
        correction_id: 'ok-merchant',
        transaction_id: 'r-1',
        brand_id: brands[3]!.id,
        scope: 'merchant',
      },
      {
        ...base,
        correction_id: 'ok-transaction',
        transaction_id: 'r-3',
        category_id: '13',
        sub_category_id: '13-8',
        scope: 'transaction',
      },
      {
        ...base,
        correction_id: 'ok-new-brand',
        customer_id: 'cust-3',
        transaction_id: 'r-4',
        new_brand: {
          name: 'Noor Al Huda Tailoring',
          name_ar: 'نور الهدى للخياطة',
          website: 'https://noor.example',
        },
        sub_category_id: '13-4',
        scope: 'merchant',
      },
      {
        ...base,
        correction_id: 'ok-global',
        customer_id: 'cust-4',
        transaction_id: 'r-5',
        sub_category_id: '13-13',
        scope: 'global',
      },
    ];
    const invalid: { key: string; value: unknown; code: string }[] = [
      {
        key: 'x1',
        value: {
          ...base,
          correction_id: 'bad-brand',
          transaction_id: 'r-2',
          brand_id: 987654321,
          scope: 'merchant',
        },
        code: 'UNKNOWN_BRAND',
      },
      {
        key: 'x2',
        value: {
          ...base,
          correction_id: 'bad-sub',
          transaction_id: 'r-2',
          sub_category_id: '99-9',
          scope: 'merchant',
        },
        code: 'UNKNOWN_SUB_CATEGORY',
      },
      {
        key: 'x3',
        value: { ...base, correction_id: 'bad-nothing', transaction_id: 'r-2', scope: 'merchant' },
        code: 'INVALID_CORRECTION',
      },
      {
        key: 'x4',
        value: {
          ...base,
          correction_id: 'bad-both',
          transaction_id: 'r-2',
          brand_id: brands[0]!.id,
          new_brand: { name: 'X' },
          scope: 'merchant',
        },
        code: 'INVALID_CORRECTION',
      },
      {
        key: 'x5',
        value: {
          ...base,
          correction_id: 'bad-txn',
          transaction_id: 'nope',
          brand_id: brands[0]!.id,
          scope: 'transaction',
        },
        code: 'UNKNOWN_TRANSACTION',
      },
    ];
    await produceJson(kafka, names.feedback, [
      ...valid.map((v) => ({ key: v.transaction_id, value: v, tenant: 'bank-a' })),
      ...invalid.map((i) => ({ key: i.key, value: i.value, tenant: 'bank-a' })),
      // The same correction again: applied once.
      { key: 'r-1', value: valid[0], tenant: 'bank-a' },
    ]);
    await produceMessages(kafka, names.feedback, [{ key: 'x6', value: 'this is not json' }]);
    await feedbackConsumed();

    const reenriched = await topicReader(kafka, env.schemaRegistryUrl, names.reenriched);
    const letters = await topicReader(kafka, env.schemaRegistryUrl, names.dlq);
    const changes = await topicReader(kafka, env.schemaRegistryUrl, names.changes);
    try {
      await letters.until(6, 60_000, `6 dead letters\n${worker.logs()}`);
      await reenriched.until(4, 60_000, `re-enriched records\n${worker.logs()}`);
      await Promise.all([reenriched.settle(2_000), letters.settle(2_000), changes.settle(2_000)]);
      // r-1 and r-2 (same merchant), r-3 (transaction), r-4 (new brand); the global proposal waits.
      expect(reenriched.records.map((r) => String(r.value.transaction_id)).sort()).toEqual([
        'r-1',
        'r-2',
        'r-3',
        'r-4',
      ]);
      expect(reenriched.records.find((r) => r.value.transaction_id === 'r-4')?.value).toMatchObject({
        brand_name: 'Noor Al Huda Tailoring',
        brand_name_ar: 'نور الهدى للخياطة',
        brand_url: 'https://noor.example',
        sub_category_id: '13-4',
        revision: 2,
      });
      expect(reenriched.records.find((r) => r.value.transaction_id === 'r-3')?.value).toMatchObject({
        sub_category_id: '13-8',
        revision: 2,
      });
      const codes = letters.records.map((l) => l.headers['x-dlq-error-code']).sort();
      expect(
        codes,
        JSON.stringify(letters.records.map((l) => [l.key, l.headers['x-outbox-id'], l.offset])) +
          worker.logs(),
      ).toEqual([...invalid.map((i) => i.code), 'NOT_JSON'].sort());
      for (const l of letters.records) {
        expect(l.headers['x-source-topic']).toBe(names.feedback);
        expect(l.headers['x-dlq-error-message']).toBeTruthy();
        expect(l.headers['x-outbox-id']).toMatch(/^\d+$/);
      }
      expect(letters.records.find((l) => l.key === 'x6')?.raw?.toString('utf8')).toBe('this is not json');

      const counts = () => ({
        reenriched: reenriched.records.length,
        letters: letters.records.length,
        changes: changes.records.length,
      });
      const published = counts();
      await stop();
      let db = await bounded('opening the store', store.open(), 60_000);
      const before = await storeDigest(db);
      await db.close();

      for (let replay = 1; replay <= 2; replay++) {
        await bounded(
          'resetting the feedback offsets',
          withAdmin(kafka, (admin) =>
            admin.resetOffsets({ groupId: `${group}-feedback`, topic: names.feedback, earliest: true }),
          ),
        );
        worker = await startWorkerProcess(workerEnv);
        await worker.waitUntilReady(120_000);
        await feedbackConsumed();
        await Promise.all([reenriched.settle(3_000), letters.settle(3_000), changes.settle(3_000)]);
        expect(worker.logs()).not.toContain('"correction applied"');
        await stop();
        db = await bounded('opening the store', store.open(), 60_000);
        expect(await storeDigest(db), `store after replay ${replay}`).toEqual(before);
        await db.close();
        expect(counts(), `published after replay ${replay}`).toEqual(published);
      }
    } finally {
      await Promise.all([reenriched.stop(), letters.stop(), changes.stop()]);
    }
  }, 400_000);
});
