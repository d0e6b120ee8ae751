// Guarantee: one engine, one answer. The same transactions enriched through the HTTP API (v3) and
// through the Kafka worker give the same v3 record, field for field (the worker adds only
// transaction_id, customer_id, revision and enriched_at, for consumers that upsert).
import { Partitioners } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { Worker } from '../../src/pipeline/worker.js';
import { createTopics, stackEnv, testKafka, uniqueName } from '../support/index.js';
import { readCommitted } from '../support/enriched-records.js';
import { sampleTransactions, startApi, testSnapshot, type TestApi } from './api-harness.js';
import { V3_FIELDS } from '../support/v3-fields.js';

describe('HTTP API and Kafka worker agree', () => {
  const env = stackEnv();
  const kafka = testKafka('api-vs-worker');
  const raw = uniqueName('same.raw');
  const output = uniqueName('same.out');
  const logoBase = 'https://cdn.example.com/logos/';
  let worker: Worker;
  let api: TestApi;

  beforeAll(async () => {
    await createTopics(kafka, [raw], { numPartitions: 2 });
    const snapshot = testSnapshot();
    worker = new Worker(
      loadConfig({
        ...process.env,
        INPUT_TOPICS: raw,
        OUTPUT_TOPIC: output,
        DLQ_TOPIC: uniqueName('same.dlq'),
        CONSUMER_GROUP: uniqueName('same-group'),
        LOGO_BASE_URL: logoBase,
        DEFAULT_TENANT: 'acme',
        KAFKA_SESSION_TIMEOUT_MS: '6000',
      }),
      createLogger('warn'),
      { snapshot: () => snapshot },
    );
    await worker.start((error) => {
      throw error;
    });
    api = await startApi({ tenants: { acme: { logoBaseUrl: logoBase, arabicEnabled: true } } });
  });

  afterAll(async () => {
    await worker?.stop();
    await api?.close();
  });

  it('returns the same v3 record for 200 transactions through either door', async () => {
    // One transaction per customer, so neither side has earlier history to differ on.
    const transactions = sampleTransactions(200, 23, 'same').map((t, i) => ({
      ...t,
      customer_id: `same-cust-${i}`,
    }));
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    await producer.send({
      topic: raw,
      messages: transactions.map((t) => ({ key: t.customer_id, value: JSON.stringify(t) })),
    });
    await producer.disconnect();

    const response = await api.enrich('v3', { transactions });
    expect(response.status).toBe(200);
    const viaApi = (response.json as { data: Record<string, unknown>[] }).data;
    expect(viaApi).toHaveLength(200);

    const viaKafka = new Map(
      (await readCommitted(kafka, env.schemaRegistryUrl, output, { expected: 200, idleMs: 1_500 })).map(
        (r) => [r.transactionId, r.value],
      ),
    );
    expect(viaKafka.size).toBe(200);
    const differences: string[] = [];
    transactions.forEach((t, i) => {
      const fromKafka = viaKafka.get(t.transaction_id);
      const fromApi = viaApi[i] as Record<string, unknown>;
      for (const field of V3_FIELDS) {
        if (JSON.stringify(fromKafka?.[field] ?? null) !== JSON.stringify(fromApi[field] ?? null)) {
          differences.push(
            `${t.transaction_id}.${field}: kafka=${JSON.stringify(fromKafka?.[field])} api=${JSON.stringify(fromApi[field])}`,
          );
        }
      }
    });
    expect(differences).toEqual([]);
    // Not a trivial agreement: the sample has brands, unknown merchants and several categories.
    expect(new Set(viaApi.map((r) => r.category_id)).size).toBeGreaterThan(5);
    expect(viaApi.filter((r) => r.brand_id !== null).length).toBeGreaterThan(50);
  });
});
