// Guarantee: every class of bad input lands in the dead-letter topic, once, with its original key,
// value and headers untouched and the reason in headers (error code, field, message, source
// topic/partition/offset): not JSON, bad magic byte, unknown schema id, truncated Avro, missing
// required field, wrong type, bad enum, bad date. Good records in the same batch are unaffected.
import { COMPATIBILITY, SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { readFileSync } from 'node:fs';
import { Partitioners, type Message } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { loadReferenceData } from '../../src/data/load.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import { createLogger } from '../../src/observability/logger.js';
import { HEADER, headerText } from '../../src/kafka/headers.js';
import { Worker } from '../../src/pipeline/worker.js';
import { consumeMessages, createTopics, stackEnv, testKafka, uniqueName } from '../support/index.js';
import { readCommitted } from '../support/enriched-records.js';

function good(id: string): Record<string, unknown> {
  return {
    raw_description: 'TALABAT.COM DUBAI',
    amount: 55,
    transaction_id: id,
    customer_id: `cust-${id}`,
    account_id: 'a',
    card_id: 'c',
    card_name: null,
    merchant_name: '',
    merchant_id: '',
    mcc: '5814',
    direction: 'DEBIT',
    is_self_transaction: null,
    is_transfer: false,
    iso_currency_cd: 'AED',
    occurred_at: '2026-11-02',
    location: { iso_country_cd: 'AE', city: null, address: null, region: null, postal_code: null },
    ref_id: null,
    pos_id: null,
    pos_entry_mode: null,
  };
}

describe('worker: dead letters', () => {
  const env = stackEnv();
  const kafka = testKafka('worker-dlq');
  const raw = uniqueName('dlq.raw');
  const output = uniqueName('dlq.out');
  const dlq = uniqueName('dlq.dlq');
  let worker: Worker;

  beforeAll(async () => {
    await createTopics(kafka, [raw]);
    const config = loadConfig({
      ...process.env,
      INPUT_TOPICS: raw,
      OUTPUT_TOPIC: output,
      DLQ_TOPIC: dlq,
      CONSUMER_GROUP: uniqueName('dlq-group'),
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      DLQ_GUARD_WINDOW: '1000',
    });
    const snapshot = buildSnapshot(loadReferenceData());
    worker = new Worker(config, createLogger('warn'), { snapshot: () => snapshot });
    await worker.start((error) => {
      throw error;
    });
  });

  afterAll(async () => {
    await worker?.stop();
  });

  it('dead-letters each bad-input class with its reason, keeps the good records', async () => {
    const registry = new SchemaRegistry({ host: env.schemaRegistryUrl });
    const { id } = await registry.register(
      { type: SchemaType.AVRO, schema: readFileSync('schemas/raw-transaction.avsc', 'utf8') },
      { subject: `${raw}-value`, compatibility: COMPATIBILITY.BACKWARD },
    );
    const avro = await registry.encode(id, good('avro-ok'));
    const unknownId = Buffer.from(avro);
    unknownId.writeInt32BE(987_654_321, 1);

    const missing = good('bad-missing');
    delete missing.raw_description;
    const bad: { name: string; message: Message; code: string; field: string }[] = [
      { name: 'not JSON', message: { key: 'k1', value: 'hello, world' }, code: 'NOT_JSON', field: '' },
      {
        name: 'bad magic byte',
        message: { key: 'k2', value: Buffer.from([0x07, 1, 2, 3, 4, 5]) },
        code: 'BAD_MAGIC_BYTE',
        field: '',
      },
      {
        name: 'unknown schema id',
        message: { key: 'k3', value: unknownId },
        code: 'UNKNOWN_SCHEMA',
        field: '',
      },
      {
        name: 'truncated Avro',
        message: { key: 'k4', value: avro.subarray(0, avro.length - 25) },
        code: 'AVRO_DECODE_FAILED',
        field: '',
      },
      {
        name: 'missing field',
        message: { key: 'k5', value: JSON.stringify(missing) },
        code: 'INVALID_FIELD',
        field: 'raw_description',
      },
      {
        name: 'wrong type',
        message: { key: 'k6', value: JSON.stringify({ ...good('bad-type'), amount: 'twelve' }) },
        code: 'INVALID_FIELD',
        field: 'amount',
      },
      {
        name: 'bad enum',
        message: { key: 'k7', value: JSON.stringify({ ...good('bad-enum'), direction: 'SIDEWAYS' }) },
        code: 'INVALID_FIELD',
        field: 'direction',
      },
      {
        name: 'bad date',
        message: { key: 'k8', value: JSON.stringify({ ...good('bad-date'), occurred_at: '31/12/2026' }) },
        code: 'INVALID_FIELD',
        field: 'occurred_at',
      },
    ];
    for (const b of bad) b.message.headers = { 'x-test-case': b.name, 'tenant-id': 'bank-z' };

    // Good and bad interleaved, in one produce call, so they share batches.
    const goodMessages: Message[] = ['g1', 'g2', 'g3', 'g4'].map((g) => ({
      key: `cust-${g}`,
      value: JSON.stringify(good(g)),
    }));
    goodMessages.push({ key: 'cust-avro-ok', value: avro });
    const all: Message[] = [];
    bad.forEach((b, i) => {
      all.push(b.message);
      if (goodMessages[i]) all.push(goodMessages[i] as Message);
    });
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    await producer.send({ topic: raw, messages: all });
    await producer.disconnect();

    const letters = await consumeMessages(kafka, { topic: dlq, count: bad.length, timeoutMs: 60_000 });
    expect(letters).toHaveLength(bad.length);
    for (const b of bad) {
      const letter = letters.find((l) => headerText(l.headers, 'x-test-case') === b.name);
      expect(letter, b.name).toBeDefined();
      expect(headerText(letter!.headers, HEADER.errorCode), b.name).toBe(b.code);
      expect(headerText(letter!.headers, HEADER.errorField), b.name).toBe(b.field);
      expect(headerText(letter!.headers, HEADER.errorMessage)?.length, b.name).toBeGreaterThan(5);
      expect(headerText(letter!.headers, HEADER.sourceTopic)).toBe(raw);
      expect(headerText(letter!.headers, HEADER.sourcePartition)).toBe('0');
      expect(headerText(letter!.headers, HEADER.sourceOffset)).toMatch(/^\d+$/);
      // The original key, value and headers, untouched.
      expect(letter!.key?.toString()).toBe(b.message.key);
      expect(Buffer.compare(letter!.value as Buffer, Buffer.from(b.message.value as string | Buffer))).toBe(
        0,
      );
      expect(headerText(letter!.headers, 'tenant-id')).toBe('bank-z');
    }

    const enriched = await readCommitted(kafka, env.schemaRegistryUrl, output, { expected: 5, idleMs: 1500 });
    expect(enriched.map((r) => r.transactionId).sort()).toEqual(['avro-ok', 'g1', 'g2', 'g3', 'g4']);
    expect(enriched.every((r) => r.value.brand_name === 'Talabat')).toBe(true);
    const metrics = await worker.metrics.registry.getSingleMetricAsString(
      'txenrich_records_dead_lettered_total',
    );
    expect(metrics).toContain('code="INVALID_FIELD"} 4');
  });
});
