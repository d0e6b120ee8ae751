// Guarantee: recurring detection uses the store's history. A customer's monthly payments at a merchant
// (an unknown one, keyed by its normalized name, and a catalog brand that is not a subscription
// brand) are enriched and indexed; after a worker restart (a new process, no memory), the next
// payment arrives alone and is enriched `recurring: true` (reason history:monthly), while irregular
// purchases at the same merchant by another customer stay `false`. (Worker on the embedded PGlite
// store.)
import { afterAll, describe, expect, it } from 'vitest';
import { createTopics, stackEnv, testKafka, uniqueName } from '../support/index.js';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.js';
import { freshStoreLocation, produceJson, topicReader, transaction } from './store-harness.js';

describe('store: recurring history', () => {
  const env = stackEnv();
  const kafka = testKafka('store-recurring');
  const names = {
    raw: uniqueName('sr.raw'),
    out: uniqueName('sr.out'),
    dlq: uniqueName('sr.dlq'),
  };
  const store = freshStoreLocation('pglite', env.databaseUrl, 'sr');
  const workerEnv = {
    INPUT_TOPICS: names.raw,
    OUTPUT_TOPIC: names.out,
    DLQ_TOPIC: names.dlq,
    FEEDBACK_TOPIC: uniqueName('sr.feedback'),
    REENRICHED_TOPIC: uniqueName('sr.reenriched'),
    BRAND_CHANGES_TOPIC: uniqueName('sr.changes'),
    CONSUMER_GROUP: uniqueName('sr-group'),
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    ...store.env,
  };
  let worker: WorkerProcess | null = null;

  afterAll(async () => {
    worker?.child.kill('SIGKILL');
    if (worker) await worker.exit('the worker to exit after SIGKILL');
    await store.cleanup();
  });

  it('flags the next monthly payment recurring from stored history, irregular purchases not', async () => {
    await createTopics(kafka, [names.raw], { numPartitions: 2 });
    worker = await startWorkerProcess(workerEnv);
    await worker.waitUntilReady(120_000);

    const gym = 'IRON PARADISE FITNESS CLUB';
    const monthly = ['2026-05-03', '2026-06-03', '2026-07-02', '2026-08-03'].map((day, i) =>
      transaction(`gym-${i}`, 'cust-monthly', `POS ${gym} DUBAI`, {
        merchant_name: gym,
        amount: 250,
        occurred_at: `${day}T07:30:00Z`,
      }),
    );
    const irregular = [
      ['2026-05-01', 80],
      ['2026-05-19', 250],
      ['2026-07-20', 40],
      ['2026-07-24', 120],
    ].map(([day, amount], i) =>
      transaction(`irr-${i}`, 'cust-irregular', `POS ${gym} DUBAI`, {
        merchant_name: gym,
        amount,
        occurred_at: `${String(day)}T18:00:00Z`,
      }),
    );
    const fuel = ['2026-05-10', '2026-06-10', '2026-07-10', '2026-08-09'].map((day, i) =>
      transaction(`fuel-${i}`, 'cust-monthly', 'CARREFOUR HYPERMARKET MIRDIF', {
        merchant_name: 'Carrefour',
        amount: 600,
        mcc: '5411',
        occurred_at: `${day}T10:00:00Z`,
      }),
    );
    const history = [...monthly, ...irregular, ...fuel];
    const output = await topicReader(kafka, env.schemaRegistryUrl, names.out);
    try {
      await produceJson(
        kafka,
        names.raw,
        history.map((t) => ({ key: String(t.customer_id), value: t, tenant: 'bank-a' })),
      );
      await output.until(history.length, 60_000, 'the history enriched');

      // A new process: whatever it knows about these customers comes from the store.
      worker.child.kill('SIGTERM');
      expect((await worker.exit('the worker to exit after SIGTERM')).code).toBe(0);
      worker = await startWorkerProcess(workerEnv);
      await worker.waitUntilReady(120_000);

      const next = [
        transaction('gym-next', 'cust-monthly', `POS ${gym} DUBAI`, {
          merchant_name: gym,
          amount: 250,
          occurred_at: '2026-09-02T07:30:00Z',
        }),
        transaction('irr-next', 'cust-irregular', `POS ${gym} DUBAI`, {
          merchant_name: gym,
          amount: 250,
          occurred_at: '2026-08-10T18:00:00Z',
        }),
        transaction('fuel-next', 'cust-monthly', 'CARREFOUR HYPERMARKET MIRDIF', {
          merchant_name: 'Carrefour',
          amount: 610,
          mcc: '5411',
          occurred_at: '2026-09-10T10:00:00Z',
        }),
      ];
      // One at a time, so no payment sees another as history in its own batch.
      for (const t of next) {
        await produceJson(kafka, names.raw, [{ key: String(t.customer_id), value: t, tenant: 'bank-a' }]);
        const n = output.records.length + 1;
        await output.until(n, 60_000, `${String(t.transaction_id)} enriched`);
      }
      const byId = new Map(output.records.map((r) => [String(r.value.transaction_id), r]));
      const recurringReason = (id: string): string | undefined => {
        const header = byId.get(id)?.headers['x-enrich'];
        return header === undefined
          ? undefined
          : (JSON.parse(String(header)) as { recurring: string }).recurring;
      };
      expect(byId.get('gym-next')?.value.recurring).toBe(true);
      expect(recurringReason('gym-next')).toBe('history:monthly');
      expect(byId.get('fuel-next')?.value).toMatchObject({ brand_name: 'Carrefour', recurring: true });
      expect(recurringReason('fuel-next')).toBe('history:monthly');
      expect(byId.get('irr-next')?.value.recurring).toBe(false);
      expect(recurringReason('irr-next')).toBe('history:irregular');
    } finally {
      await output.stop();
    }
    worker.child.kill('SIGTERM');
    expect((await worker.exit('the worker to exit after SIGTERM')).code).toBe(0);
    worker = null;
  }, 300_000);
});
