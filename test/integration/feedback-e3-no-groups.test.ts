// Guarantee: a worker leaves no consumer group behind for brand changes, however often it starts (E3).
// A worker (child process, store on PostgreSQL) started three times creates only its own groups —
// CONSUMER_GROUP, `<group>-feedback` and the relay's progress group `<group>-outbox-relay` — and no
// `<group>-brand-changes-*` group; and it still learns a change made elsewhere: after an operator's
// `corrections apply` (published by the worker's relay), a new transaction at that merchant is enriched
// with the corrected brand within seconds.
import { afterAll, describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../src/data/load.js';
import { createTopics, stackEnv, testKafka, uniqueName, waitFor, withAdmin } from '../support/index.js';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.js';
import {
  bounded,
  freshStoreLocation,
  killWorker,
  produceJson,
  runCli,
  stopWorker,
  topicReader,
  transaction,
} from './store-harness.js';

const SHOP = 'OUD AL ARAB PERFUMES';

describe('feedback E3: no consumer group per start', () => {
  const env = stackEnv();
  const kafka = testKafka('feedback-e3');
  const group = uniqueName('fe3-group');
  const topics = {
    INPUT_TOPICS: uniqueName('fe3.raw'),
    OUTPUT_TOPIC: uniqueName('fe3.out'),
    DLQ_TOPIC: uniqueName('fe3.dlq'),
    FEEDBACK_TOPIC: uniqueName('fe3.feedback'),
    REENRICHED_TOPIC: uniqueName('fe3.reenriched'),
    BRAND_CHANGES_TOPIC: uniqueName('fe3.changes'),
    CONSUMER_GROUP: group,
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    OUTBOX_POLL_MS: '200',
  };
  const store = freshStoreLocation('postgres', env.databaseUrl, 'fe3');
  let worker: WorkerProcess | null = null;

  afterAll(async () => {
    if (worker) await killWorker(worker);
    await bounded('dropping the test schema', store.cleanup(), 60_000);
  });

  const groups = () =>
    bounded(
      'listing consumer groups',
      withAdmin(kafka, async (admin) => (await admin.listGroups()).groups.map((g) => g.groupId)),
    ).then((all) => all.filter((g) => g.startsWith(group)).sort());

  it('creates only its own groups over three starts and still learns changes made elsewhere', async () => {
    await createTopics(kafka, [topics.INPUT_TOPICS], { numPartitions: 1 });
    for (let start = 1; start <= 3; start++) {
      worker = await startWorkerProcess({ ...topics, ...store.env });
      await worker.waitUntilReady(120_000);
      if (start < 3) {
        expect((await stopWorker(worker)).code).toBe(0);
        worker = null;
      }
    }
    const output = await topicReader(kafka, env.schemaRegistryUrl, topics.OUTPUT_TOPIC);
    try {
      await produceJson(kafka, topics.INPUT_TOPICS, [
        {
          key: 'cust-1',
          value: transaction('e-1', 'cust-1', `POS ${SHOP}`, { merchant_name: SHOP }),
          tenant: 'bank-a',
        },
      ]);
      await output.until(1, 60_000, `the first transaction enriched\n${worker!.logs()}`);
      const brand = loadReferenceData().brands.find((b) => b.slug === 'carrefour')!;
      expect(output.records[0]?.value.brand_id).not.toBe(brand.id);

      const cli = await runCli(
        [
          'corrections',
          'apply',
          JSON.stringify({ tenant: 'bank-a', transaction_id: 'e-1', scope: 'merchant', brand_id: brand.id }),
        ],
        { ...topics, ...store.env },
      );
      expect(cli.code, cli.stderr).toBe(0);
      expect(cli.stdout).toMatch(/running worker's outbox relay publishes it/);
      const appliedAt = Date.now();
      // New transactions at the merchant until one shows the corrected brand.
      let n = 0;
      await waitFor(
        async () => {
          n++;
          await produceJson(kafka, topics.INPUT_TOPICS, [
            {
              key: 'cust-2',
              value: transaction(`probe-${n}`, 'cust-2', `POS ${SHOP}`, { merchant_name: SHOP }),
              tenant: 'bank-a',
            },
          ]);
          await new Promise((resolve) => setTimeout(resolve, 300));
          return output.records.some(
            (r) => String(r.value.transaction_id).startsWith('probe-') && r.value.brand_id === brand.id,
          );
        },
        {
          timeoutMs: 30_000,
          intervalMs: 100,
          description: `a new transaction enriched with the corrected brand\n${worker!.logs()}`,
        },
      );
      process.stderr.write(
        `[feedback-e3] operator correction → corrected brand in new enrichments: ${Date.now() - appliedAt} ms\n`,
      );
    } finally {
      await output.stop();
    }
    expect(await groups()).toEqual([group, `${group}-feedback`, `${group}-outbox-relay`].sort());
    expect((await stopWorker(worker!)).code).toBe(0);
    worker = null;
  }, 400_000);
});
