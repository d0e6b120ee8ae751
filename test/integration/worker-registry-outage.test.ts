// Guarantee: a registry outage is an infrastructure failure, never a data error. With the worker
// running, the schema registry stops answering for 20 s (its process is stopped with SIGSTOP and
// continued with SIGCONT) while records that need a schema the worker has not cached yet arrive:
// nothing is dead-lettered, processing resumes by itself when the registry answers, nothing is lost.
import { COMPATIBILITY, SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { readFileSync } from 'node:fs';
import { Partitioners, type Message } from 'kafkajs';
import { afterAll, describe, expect, it } from 'vitest';
import { stackStatus } from '../../scripts/stack.js';
import { loadConfig } from '../../src/config.js';
import { loadReferenceData } from '../../src/data/load.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import { createLogger } from '../../src/observability/logger.js';
import { Worker } from '../../src/pipeline/worker.js';
import { createTopics, sleep, stackEnv, testKafka, uniqueName } from '../support/index.js';
import { readCommitted, sampleMessages } from '../support/enriched-records.js';

const OUTAGE_MS = 20_000;

/** The PID of the local jar stack's registry serving this URL, if that is what the tests use. */
function localRegistryPid(url: string): number | undefined {
  const entry = stackStatus().find((s) => s.component === 'registry' && s.state === 'running');
  return entry && entry.address === url ? entry.pid : undefined;
}

describe('worker: registry outage', () => {
  const env = stackEnv();
  const pid = localRegistryPid(env.schemaRegistryUrl);
  const kafka = testKafka('worker-registry');
  const raw = uniqueName('reg.raw');
  const output = uniqueName('reg.out');
  const dlq = uniqueName('reg.dlq');
  let worker: Worker | null = null;
  let frozen = false;

  afterAll(async () => {
    if (frozen && pid) process.kill(pid, 'SIGCONT');
    await worker?.stop();
  });

  // Stopping the registry needs its PID: only the local jar stack gives us one.
  it.skipIf(pid === undefined)(
    'dead-letters nothing and resumes when the registry answers again',
    async () => {
      await createTopics(kafka, [raw], { numPartitions: 2 });
      const registry = new SchemaRegistry({ host: env.schemaRegistryUrl });
      const v1 = JSON.parse(readFileSync('schemas/raw-transaction.avsc', 'utf8')) as { fields: unknown[] };
      const { id: idV1 } = await registry.register(
        { type: SchemaType.AVRO, schema: JSON.stringify(v1) },
        { subject: `${raw}-value`, compatibility: COMPATIBILITY.BACKWARD },
      );
      // A second, compatible version the worker has never seen: decoding it needs the registry.
      const v2 = {
        ...v1,
        fields: [...v1.fields, { name: 'channel', type: ['null', 'string'], default: null }],
      };
      const { id: idV2 } = await registry.register(
        { type: SchemaType.AVRO, schema: JSON.stringify(v2) },
        { subject: `${raw}-value`, compatibility: COMPATIBILITY.BACKWARD },
      );
      const encodeAll = async (prefix: string, id: number, extra: object): Promise<Message[]> =>
        Promise.all(
          sampleMessages(prefix, 1_000).map(async (m) => ({
            key: m.key,
            value: await registry.encode(id, { ...JSON.parse(String(m.value)), ...extra }),
          })),
        );
      const before = await encodeAll('reg-a', idV1, {});
      const during = await encodeAll('reg-b', idV2, { channel: 'mobile' });

      const config = loadConfig({
        ...process.env,
        INPUT_TOPICS: raw,
        OUTPUT_TOPIC: output,
        DLQ_TOPIC: dlq,
        CONSUMER_GROUP: uniqueName('reg-group'),
        KAFKA_SESSION_TIMEOUT_MS: '6000',
        RETRY_MAX_DELAY_MS: '2000',
      });
      const snapshot = buildSnapshot(loadReferenceData());
      worker = new Worker(config, createLogger('error'), { snapshot: () => snapshot });
      await worker.start((error) => {
        throw error;
      });
      const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
      await producer.connect();
      await producer.send({ topic: raw, messages: before });
      expect(
        await readCommitted(kafka, env.schemaRegistryUrl, output, { expected: 1_000, idleMs: 500 }),
      ).toHaveLength(1_000);

      process.kill(pid as number, 'SIGSTOP');
      frozen = true;
      await producer.send({ topic: raw, messages: during });
      await sleep(OUTAGE_MS);
      const retriesDuring = await worker.metrics.registry.getSingleMetricAsString(
        'txenrich_infrastructure_retries_total',
      );
      process.kill(pid as number, 'SIGCONT');
      frozen = false;
      await producer.disconnect();

      expect(retriesDuring).toMatch(/code="REGISTRY_UNAVAILABLE"} [1-9]/);
      const reads = await readCommitted(kafka, env.schemaRegistryUrl, output, {
        expected: 2_000,
        idleMs: 3_000,
        timeoutMs: 120_000,
      });
      const ids = new Set(reads.map((r) => r.transactionId));
      expect(ids.size).toBe(2_000);
      expect(reads).toHaveLength(2_000);
      expect([...ids].filter((id) => id.startsWith('reg-b-'))).toHaveLength(1_000);
      const letters = await readCommitted(kafka, env.schemaRegistryUrl, dlq, {
        expected: 0,
        idleMs: 1_000,
        timeoutMs: 10_000,
      });
      expect(letters).toHaveLength(0);
    },
    300_000,
  );
});
