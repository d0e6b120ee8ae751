// Guarantee: the worker enriches what arrives on a raw topic, Confluent-framed Avro and plain JSON
// alike (and each item of a {"transactions": [...]} envelope), and publishes one v3 record per
// transaction to the output topic, keyed by customer_id, that decodes through the registry, with the
// documented headers (tenant, confidence, reasons, versions, source topic/partition/offset). The
// records are written by our record encoder (the default), so the broker accepting them and the
// registry decoding them is also that encoder's end-to-end check.
import { COMPATIBILITY, SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { readFileSync } from 'node:fs';
import { Partitioners } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { loadReferenceData } from '../../src/data/load.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import { createLogger } from '../../src/observability/logger.js';
import {
  HEADER,
  headerText,
  jsonHeader,
  type EnrichHeader,
  type SourceHeader,
} from '../../src/kafka/headers.js';
import { recordEncoderInstalled } from '../../src/kafka/record-encoder.js';
import { Worker } from '../../src/pipeline/worker.js';
import { createTopics, stackEnv, testKafka, uniqueName } from '../support/index.js';
import { readCommitted } from '../support/enriched-records.js';
import { V3_FIELDS } from '../support/v3-fields.js';

function transaction(id: string, customer: string, description: string, extra: Record<string, unknown> = {}) {
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
    occurred_at: '2026-11-01T10:00:00Z',
    location: { iso_country_cd: 'AE', city: 'Dubai', address: null, region: null, postal_code: null },
    ref_id: null,
    pos_id: null,
    pos_entry_mode: null,
    ...extra,
  };
}

describe('worker: enrich and publish', () => {
  const env = stackEnv();
  const kafka = testKafka('worker-enriches');
  const raw = uniqueName('enrich.raw');
  const output = uniqueName('enrich.out');
  const dlq = uniqueName('enrich.dlq');
  let worker: Worker;

  beforeAll(async () => {
    await createTopics(kafka, [raw], { numPartitions: 3 });
    const config = loadConfig({
      ...process.env,
      INPUT_TOPICS: raw,
      OUTPUT_TOPIC: output,
      DLQ_TOPIC: dlq,
      CONSUMER_GROUP: uniqueName('enrich-group'),
      LOGO_BASE_URL: 'https://enrich.example.com/',
      DEFAULT_TENANT: 'bank-a',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
    });
    const snapshot = buildSnapshot(loadReferenceData());
    worker = new Worker(config, createLogger('warn'), { snapshot: () => snapshot });
    await worker.start((error) => {
      throw error;
    });
    // Installed by the worker's start, before its first send: the real broker reads its records.
    expect(recordEncoderInstalled()).toBe(true);
  });

  afterAll(async () => {
    await worker?.stop();
  });

  it('publishes one decodable v3 record per input transaction, keyed by customer_id, with headers', async () => {
    const registry = new SchemaRegistry({ host: env.schemaRegistryUrl });
    const { id: rawSchemaId } = await registry.register(
      { type: SchemaType.AVRO, schema: readFileSync('schemas/raw-transaction.avsc', 'utf8') },
      { subject: `${raw}-value`, compatibility: COMPATIBILITY.BACKWARD },
    );
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    await producer.send({
      topic: raw,
      messages: [
        {
          key: 'cust-avro',
          value: await registry.encode(
            rawSchemaId,
            transaction('t-avro', 'cust-avro', 'CAREEM HALA RIDE DUBAI'),
          ),
        },
        {
          key: 'cust-json',
          value: JSON.stringify(
            transaction('t-json', 'cust-json', 'NETFLIX.COM 866-579-7172', { ref_id: 'ref-9' }),
          ),
          headers: { 'tenant-id': 'bank-b' },
        },
        {
          key: 'cust-env',
          value: JSON.stringify({
            transactions: [
              transaction('t-env-0', 'cust-env', 'SALARY CREDIT NOV', { direction: 'CREDIT' }),
              transaction('t-env-1', 'cust-env-2', 'SQ *MARIGOLD CORNER BAKERY #123 SAN FRANCISCO CA'),
            ],
          }),
        },
      ],
    });
    await producer.disconnect();

    const reads = await readCommitted(kafka, env.schemaRegistryUrl, output, { expected: 4, idleMs: 1500 });
    expect(reads.map((r) => r.transactionId).sort()).toEqual(['t-avro', 't-env-0', 't-env-1', 't-json']);
    const byId = new Map(reads.map((r) => [r.transactionId, r]));

    for (const r of reads) {
      expect(r.key).toBe(r.customerId);
      for (const field of V3_FIELDS) expect(r.value).toHaveProperty(field);
      expect(r.value.revision).toBe(1);
      expect(typeof r.value.enriched_at).toBe('number');
    }
    const careem = byId.get('t-avro')!.value;
    expect(careem).toMatchObject({
      brand_name: 'Careem',
      category_name: 'Transportation',
      sub_category_name: 'Taxis',
    });
    // GET /logos/{brand_id} under the configured base, versioned by the logo's digest.
    expect(String(careem.brand_logo)).toMatch(/^https:\/\/enrich\.example\.com\/logos\/\d+\?v=[0-9a-f]{8}$/);
    expect(byId.get('t-json')!.value).toMatchObject({
      brand_name: 'Netflix',
      recurring: true,
      ref_id: 'ref-9',
    });
    expect(byId.get('t-env-0')!.value).toMatchObject({ brand_id: null, sub_category_name: 'Salary' });
    expect(byId.get('t-env-1')!.value).toMatchObject({
      brand_id: null,
      brand_name: 'Marigold Corner Bakery',
      sub_category_name: 'Bakeries & Confectionery',
    });

    // Headers, read raw from the topic.
    const consumer = kafka.consumer({ groupId: uniqueName('hdr') });
    await consumer.connect();
    await consumer.subscribe({ topic: output, fromBeginning: true });
    const headers = new Map<string, Record<string, string | number | undefined>>();
    await new Promise<void>((resolve) => {
      void consumer.run({
        eachMessage: async ({ message }) => {
          const decoded = (await registry.decode(message.value as Buffer)) as { transaction_id: string };
          const h = message.headers;
          const enrich = jsonHeader<EnrichHeader>(h, HEADER.enrich);
          const source = jsonHeader<SourceHeader>(h, HEADER.source);
          headers.set(decoded.transaction_id, {
            tenant: headerText(h, HEADER.tenant),
            confidence: enrich?.confidence,
            reasonBrand: enrich?.brand,
            reasonCategory: enrich?.category,
            catalog: enrich?.catalog,
            engine: enrich?.engine,
            topic: source?.topic,
            partition: source?.partition,
            offset: source?.offset,
            item: source?.item,
          });
          if (headers.size === 4) resolve();
        },
      });
    });
    await consumer.disconnect();
    expect(headers.get('t-json')!.tenant).toBe('bank-b');
    expect(headers.get('t-avro')!.tenant).toBe('bank-a');
    for (const h of headers.values()) {
      expect(Number(h.confidence)).toBeGreaterThan(0);
      expect(Number(h.confidence)).toBeLessThanOrEqual(1);
      expect(h.reasonCategory).toBeTruthy();
      expect(String(h.catalog)).toMatch(/\+[0-9a-f]{12}$/);
      expect(String(h.engine)).toMatch(/^\d+\.\d+\.\d+$/);
      expect(h.topic).toBe(raw);
      expect(Number(h.partition)).toBeGreaterThanOrEqual(0);
      expect(BigInt(String(h.offset))).toBeGreaterThanOrEqual(0n);
    }
    expect(String(headers.get('t-avro')!.reasonBrand)).toMatch(/^alias:/);
    expect(headers.get('t-env-1')!.item).toBe(1);
    expect(headers.get('t-json')!.item).toBeUndefined();
  });
});
