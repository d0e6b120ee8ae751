// Guarantee: operator edits go through the same path as customer corrections. `tx-enrich brands
// update <id> --logo ... --name-ar ...` re-enriches every transaction indexed with that brand, in
// every tenant and only those (revision 2, the new logo and Arabic name, reason brand-update), and
// the running worker enriches new transactions with the new values — published by the running
// worker's outbox relay when one is active (PostgreSQL), or by the command itself when none is
// (embedded PGlite, worker stopped), where `corrections apply` does the same for a correction.
import { afterAll, describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../src/data/load.js';
import { logoUrl } from '../../src/engine/records.js';
import { createTopics, stackEnv, testKafka, uniqueName } from '../support/index.js';
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
  type StoreLocation,
} from './store-harness.js';

const brands = loadReferenceData().brands;
const starbucks = brands.find((b) => b.slug === 'starbucks')!;
const ikea = brands.find((b) => b.slug === 'ikea')!;
/** v3's brand_logo after the edit: the logo route, versioned by the new path (no LOGO_BASE_URL here). */
const NEW_LOGO_URL = logoUrl({ id: starbucks.id, logo: 'brands/starbucks-2027.png' }, { logoBaseUrl: '' });

function topicsEnv(prefix: string) {
  return {
    INPUT_TOPICS: uniqueName(`${prefix}.raw`),
    OUTPUT_TOPIC: uniqueName(`${prefix}.out`),
    DLQ_TOPIC: uniqueName(`${prefix}.dlq`),
    FEEDBACK_TOPIC: uniqueName(`${prefix}.feedback`),
    REENRICHED_TOPIC: uniqueName(`${prefix}.reenriched`),
    BRAND_CHANGES_TOPIC: uniqueName(`${prefix}.changes`),
    CONSUMER_GROUP: uniqueName(`${prefix}-group`),
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    OUTBOX_POLL_MS: '200',
  };
}

const coffee = [
  { id: 'sb-1', tenant: 'bank-a', customer: 'cust-1', text: 'STARBUCKS DUBAI MALL' },
  { id: 'sb-2', tenant: 'bank-a', customer: 'cust-2', text: 'STARBUCKS COFFEE JBR' },
  { id: 'sb-3', tenant: 'bank-b', customer: 'cust-7', text: 'STARBUCKS MARINA WALK' },
  { id: 'ik-1', tenant: 'bank-a', customer: 'cust-1', text: 'IKEA FESTIVAL CITY' },
];

describe('operator: brands update and corrections apply', () => {
  const env = stackEnv();
  const kafka = testKafka('brands-update');
  const workers: WorkerProcess[] = [];
  const stores: StoreLocation[] = [];

  afterAll(async () => {
    for (const w of workers) await killWorker(w);
    for (const s of stores) await bounded('removing a test store', s.cleanup(), 60_000);
  });

  it('re-enriches the brand’s transactions in every tenant while the worker runs (PostgreSQL)', async () => {
    const store = freshStoreLocation('postgres', env.databaseUrl, 'bu');
    stores.push(store);
    const topics = topicsEnv('bu');
    await createTopics(kafka, [topics.INPUT_TOPICS], { numPartitions: 2 });
    const worker = await startWorkerProcess({ ...topics, ...store.env });
    workers.push(worker);
    await worker.waitUntilReady();
    const output = await topicReader(kafka, env.schemaRegistryUrl, topics.OUTPUT_TOPIC);
    const reenriched = await topicReader(kafka, env.schemaRegistryUrl, topics.REENRICHED_TOPIC);
    try {
      await produceJson(
        kafka,
        topics.INPUT_TOPICS,
        coffee.map((c) => ({
          key: c.customer,
          value: transaction(c.id, c.customer, c.text),
          tenant: c.tenant,
        })),
      );
      await output.until(coffee.length);
      expect(output.records.filter((r) => r.value.brand_id === starbucks.id)).toHaveLength(3);

      const cli = await runCli(
        [
          'brands',
          'update',
          String(starbucks.id),
          '--logo',
          'brands/starbucks-2027.png',
          '--name-ar',
          'ستاربكس كوفي',
        ],
        { ...topics, ...store.env },
      );
      expect(cli.code, cli.stderr).toBe(0);
      expect(cli.stdout).toMatch(/3 transactions re-enriched/);
      expect(cli.stdout).toMatch(/running worker's outbox relay publishes it/);

      await reenriched.until(3, 30_000, `3 re-enriched records\n${worker.logs()}`);
      await reenriched.settle(2_000);
      expect(
        reenriched.records.map((r) => `${r.headers['tenant-id']}/${String(r.value.transaction_id)}`).sort(),
      ).toEqual(['bank-a/sb-1', 'bank-a/sb-2', 'bank-b/sb-3']);
      for (const r of reenriched.records) {
        expect(r.value).toMatchObject({
          brand_id: starbucks.id,
          brand_logo: NEW_LOGO_URL,
          brand_name_ar: 'ستاربكس كوفي',
          revision: 2,
        });
        expect(r.headers['x-reenrich-reason']).toBe('brand-update');
        expect(r.headers['x-correction-id']).toMatch(/^op-brand-/);
      }

      // The worker refreshed its snapshot: a new Starbucks transaction shows the new logo.
      await produceJson(kafka, topics.INPUT_TOPICS, [
        { key: 'cust-3', value: transaction('sb-4', 'cust-3', 'STARBUCKS CITY WALK'), tenant: 'bank-a' },
      ]);
      await output.until(coffee.length + 1);
      expect(output.records.find((r) => r.value.transaction_id === 'sb-4')?.value).toMatchObject({
        brand_logo: NEW_LOGO_URL,
        brand_name_ar: 'ستاربكس كوفي',
      });

      const show = await runCli(['brands', 'show', String(starbucks.id), '--json'], {
        ...topics,
        ...store.env,
      });
      expect(show.code, show.stderr).toBe(0);
      expect(JSON.parse(show.stdout)).toMatchObject({
        id: starbucks.id,
        logo: 'brands/starbucks-2027.png',
        overrides: { logo: 'brands/starbucks-2027.png', name_ar: 'ستاربكس كوفي' },
        indexed_transactions: 4,
      });
    } finally {
      await Promise.all([output.stop(), reenriched.stop()]);
    }
    expect((await stopWorker(worker)).code).toBe(0);
    workers.splice(workers.indexOf(worker), 1);
  }, 240_000);

  it('publishes from the command itself when no worker runs (PGlite), for brands and corrections', async () => {
    const store = freshStoreLocation('pglite', env.databaseUrl, 'bu-lite');
    stores.push(store);
    const topics = topicsEnv('bul');
    await createTopics(kafka, [topics.INPUT_TOPICS], { numPartitions: 1 });
    const worker = await startWorkerProcess({ ...topics, ...store.env });
    workers.push(worker);
    await worker.waitUntilReady(120_000);
    const output = await topicReader(kafka, env.schemaRegistryUrl, topics.OUTPUT_TOPIC);
    const reenriched = await topicReader(kafka, env.schemaRegistryUrl, topics.REENRICHED_TOPIC);
    try {
      await produceJson(
        kafka,
        topics.INPUT_TOPICS,
        coffee.map((c) => ({
          key: c.customer,
          value: transaction(c.id, c.customer, c.text),
          tenant: c.tenant,
        })),
      );
      await output.until(coffee.length);
      // While the worker holds the embedded store, the command says so instead of corrupting it.
      const busy = await runCli(['brands', 'search', 'starbucks'], { ...topics, ...store.env });
      expect(busy.code).not.toBe(0);
      expect(busy.stderr).toMatch(/in use by process/);
      expect((await stopWorker(worker)).code).toBe(0);
      workers.splice(workers.indexOf(worker), 1);

      const search = await runCli(['brands', 'search', 'starbucks', '--json'], { ...topics, ...store.env });
      expect(search.code, search.stderr).toBe(0);
      expect((JSON.parse(search.stdout) as { id: number }[]).map((b) => b.id)).toContain(starbucks.id);

      const update = await runCli(
        ['brands', 'update', String(ikea.id), '--website', 'https://www.ikea.com/ae/en/'],
        {
          ...topics,
          ...store.env,
        },
      );
      expect(update.code, update.stderr).toBe(0);
      expect(update.stdout).toMatch(/published 2 records/);
      await reenriched.until(1, 30_000, 'the IKEA transaction re-enriched');
      expect(reenriched.records[0]?.value).toMatchObject({
        transaction_id: 'ik-1',
        brand_url: 'https://www.ikea.com/ae/en/',
        revision: 2,
      });

      const apply = await runCli(
        [
          'corrections',
          'apply',
          JSON.stringify({
            tenant: 'bank-a',
            transaction_id: 'sb-1',
            scope: 'merchant',
            sub_category_id: '4-8',
          }),
        ],
        { ...topics, ...store.env },
      );
      expect(apply.code, apply.stderr).toBe(0);
      expect(apply.stdout).toMatch(/applied op-.*tenant-mapping/);
      expect(apply.stdout).toMatch(/published \d+ records/);
      await reenriched.until(2, 30_000, 'the corrected transaction re-enriched');
      await reenriched.settle(2_000);
      const corrected = reenriched.records.filter(
        (r) => r.headers['x-reenrich-reason'] === 'correction:merchant',
      );
      expect(corrected.map((r) => r.value.transaction_id)).toEqual(['sb-1']);
      expect(corrected[0]?.value).toMatchObject({ sub_category_id: '4-8', revision: 2 });

      const list = await runCli(['corrections', 'list', '--tenant', 'bank-a', '--json'], {
        ...topics,
        ...store.env,
      });
      expect(list.code, list.stderr).toBe(0);
      expect(JSON.parse(list.stdout)).toEqual([
        expect.objectContaining({ tenant: 'bank-a', status: 'applied', actor: 'operator' }),
      ]);

      const purge = await runCli(['store', 'purge', '--older-than-days', '30', '--json'], {
        ...topics,
        ...store.env,
      });
      expect(purge.code, purge.stderr).toBe(0);
      expect(JSON.parse(purge.stdout)).toMatchObject({ olderThanDays: 30, index: coffee.length });
    } finally {
      await Promise.all([output.stop(), reenriched.stop()]);
    }
  }, 300_000);
});
