// Guarantee: a correction reaches every worker instance's snapshot within 5 s. Two worker processes
// share the consumer group and the store (PostgreSQL); each owns one of the two raw partitions, and
// only one of them consumes the feedback topic. After a merchant-scoped correction, new transactions
// from that merchant are enriched with the corrected brand on both partitions — by the instance that
// applied the correction and by the one that learned it from the brand-change topic — within 5 s.
import { afterAll, describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../src/data/load.js';
import { createTopics, sleep, stackEnv, testKafka, uniqueName, waitFor } from '../support/index.js';
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

/** The raw partitions a worker was last assigned, from its "partitions assigned" log lines. */
function assigned(worker: WorkerProcess, topic: string): number[] | null {
  const lines = worker
    .logs()
    .split('\n')
    .filter((l) => l.includes('"partitions assigned"'));
  const last = lines[lines.length - 1];
  if (!last) return null;
  const assignment = (JSON.parse(last) as { assignment?: Record<string, number[]> }).assignment ?? {};
  return assignment[topic] ?? [];
}

describe('feedback: a second worker picks the correction up', () => {
  const env = stackEnv();
  const kafka = testKafka('feedback-second');
  const names = {
    raw: uniqueName('f2.raw'),
    out: uniqueName('f2.out'),
    dlq: uniqueName('f2.dlq'),
    feedback: uniqueName('f2.feedback'),
    reenriched: uniqueName('f2.reenriched'),
    changes: uniqueName('f2.changes'),
  };
  const store = freshStoreLocation('postgres', env.databaseUrl, 'f2');
  const workers: WorkerProcess[] = [];

  afterAll(async () => {
    for (const w of workers) await killWorker(w);
    await bounded('dropping the test schema', store.cleanup(), 60_000);
  });

  it('enriches new transactions of the merchant with the corrected brand on both instances within 5 s', async () => {
    await createTopics(kafka, [names.raw], { numPartitions: 2 });
    const workerEnv = {
      INPUT_TOPICS: names.raw,
      OUTPUT_TOPIC: names.out,
      DLQ_TOPIC: names.dlq,
      FEEDBACK_TOPIC: names.feedback,
      REENRICHED_TOPIC: names.reenriched,
      BRAND_CHANGES_TOPIC: names.changes,
      CONSUMER_GROUP: uniqueName('f2-group'),
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      KAFKA_REBALANCE_TIMEOUT_MS: '10000',
      OUTBOX_POLL_MS: '200',
      ...store.env,
    };
    const first = await startWorkerProcess(workerEnv);
    workers.push(first);
    await first.waitUntilReady();
    const second = await startWorkerProcess(workerEnv);
    workers.push(second);
    await second.waitUntilReady();
    await waitFor(
      () => {
        const a = assigned(first, names.raw);
        const b = assigned(second, names.raw);
        return a?.length === 1 && b?.length === 1 && a[0] !== b[0];
      },
      { timeoutMs: 60_000, description: 'one raw partition per worker' },
    );

    const shop = 'AL WAHA FLOWERS AND GIFTS';
    const output = await topicReader(kafka, env.schemaRegistryUrl, names.out);
    try {
      await produceJson(kafka, names.raw, [
        {
          key: 'cust-1',
          value: transaction('w-0', 'cust-1', `POS ${shop}`, { merchant_name: shop }),
          tenant: 'bank-a',
          partition: 0,
        },
      ]);
      await output.until(1, 60_000, 'the first transaction enriched');
      const brand =
        loadReferenceData().brands.find((b) => b.slug === 'carrefour') ?? loadReferenceData().brands[0]!;
      expect(output.records[0]!.value.brand_id).not.toBe(brand.id);

      const sentAt = Date.now();
      await produceJson(kafka, names.feedback, [
        {
          key: 'w-0',
          tenant: 'bank-a',
          value: {
            correction_id: 'corr-second-1',
            tenant: 'bank-a',
            transaction_id: 'w-0',
            customer_id: 'cust-1',
            brand_id: brand.id,
            scope: 'merchant',
            reported_at: new Date().toISOString(),
          },
        },
      ]);
      // Probe both partitions until each shows the corrected brand.
      const corrected = new Map<number, number>();
      let n = 0;
      while (corrected.size < 2 && Date.now() - sentAt < 20_000) {
        n++;
        await produceJson(
          kafka,
          names.raw,
          [0, 1].map((partition) => ({
            key: `cust-${partition}`,
            value: transaction(`probe-${n}-${partition}`, `cust-p${partition}`, `POS ${shop}`, {
              merchant_name: shop,
            }),
            tenant: 'bank-a',
            partition,
          })),
        );
        await sleep(250);
        for (const r of output.records) {
          if (String(r.value.transaction_id).startsWith('probe-') && r.value.brand_id === brand.id) {
            const partition = (JSON.parse(String(r.headers['x-source'])) as { partition: number }).partition;
            if (!corrected.has(partition)) corrected.set(partition, r.receivedAt - sentAt);
          }
        }
      }
      process.stderr.write(
        `[feedback-second-worker] correction → corrected brand in new enrichments: ${[...corrected]
          .map(([p, ms]) => `partition ${p} after ${ms} ms`)
          .join(', ')}\n`,
      );
      expect([...corrected.keys()].sort()).toEqual([0, 1]);
      for (const ms of corrected.values()) expect(ms).toBeLessThan(5_000);
      // One instance applied the correction, the other learned it from the brand-change topic.
      const applied = [first, second].filter((w) => w.logs().includes('"correction applied"'));
      expect(applied).toHaveLength(1);
      const learner = [first, second].find((w) => !w.logs().includes('"correction applied"'))!;
      expect(learner.logs()).toContain('brand snapshot refreshed from the store');
    } finally {
      await output.stop();
    }
    const exits = await Promise.all(workers.map((w) => stopWorker(w)));
    for (const exit of exits) expect(exit.code).toBe(0);
    workers.length = 0;
  }, 240_000);
});
