/**
 * `npm run bench:e2e`: the worker through a real broker with exactly-once on.
 *
 * 1. Throughput: 200,000 Avro transactions preloaded on a raw topic; the enrichment worker, and in
 *    the same run a passthrough that copies key and value bytes through the very same consumer,
 *    per-partition transactional producers, batching and commits, each drain it from the start.
 *    Reports sustained records/s of both and their ratio, and the CPU the broker and the worker used.
 * 2. Latency: records offered at a fixed 2,000/s for 20 s; p50/p99 from the moment a record was
 *    sent to the moment a read_committed consumer received its enriched record.
 *
 * Uses KAFKA_BROKERS / SCHEMA_REGISTRY_URL when set, else the local jar stack (started if needed).
 * Prints JSON (stdout) and a readable table (stderr).
 */
import { readFileSync } from 'node:fs';
import { COMPATIBILITY, SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { Kafka, Partitioners, logLevel, type Message } from 'kafkajs';
import { stackStatus, stackUp, stackOptions } from '../scripts/stack.js';
import { loadConfig } from '../src/config.js';
import { loadReferenceData } from '../src/data/load.js';
import { buildSnapshot } from '../src/engine/snapshot.js';
import { createLogger } from '../src/observability/logger.js';
import { Worker } from '../src/pipeline/worker.js';
import type { processChunk } from '../src/pipeline/process-chunk.js';
import { generateSamples } from '../src/samples/generate.js';

const RECORDS = Number(process.env.BENCH_E2E_RECORDS ?? 200_000);
const PARTITIONS = Number(process.env.BENCH_E2E_PARTITIONS ?? 6);
const BATCH = process.env.BENCH_E2E_BATCH ?? '2000';
const LATENCY_RATE = 2_000;
const LATENCY_SECONDS = Number(process.env.BENCH_E2E_LATENCY_SECONDS ?? 20);
const run = `bench-${Date.now().toString(36)}`;

async function main(): Promise<void> {
  const addresses = await ensureStack();
  const kafka = new Kafka({ clientId: 'bench-e2e', brokers: addresses.brokers, logLevel: logLevel.ERROR });
  const registry = new SchemaRegistry({ host: addresses.registry });
  const admin = kafka.admin();
  await admin.connect();
  const raw = `${run}.raw`;
  await admin.createTopics({
    waitForLeaders: true,
    topics: [
      raw,
      `${run}.enriched`,
      `${run}.copy`,
      `${run}.dlq`,
      `${run}.lat.raw`,
      `${run}.lat.enriched`,
    ].map((topic) => ({
      topic,
      numPartitions: PARTITIONS,
    })),
  });

  process.stderr.write(`preloading ${RECORDS} Avro transactions on ${raw} (${PARTITIONS} partitions)...\n`);
  const { id: schemaId } = await registry.register(
    { type: SchemaType.AVRO, schema: readFileSync('schemas/raw-transaction.avsc', 'utf8') },
    { subject: `${raw}-value`, compatibility: COMPATIBILITY.BACKWARD },
  );
  const data = loadReferenceData();
  const producer = kafka.producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    allowAutoTopicCreation: false,
  });
  await producer.connect();
  let batch: Message[] = [];
  for (const s of generateSamples(data, RECORDS, { seed: 3, customers: 5_000 })) {
    const v = s.value as Record<string, unknown>;
    batch.push({ key: String(v.customer_id), value: await registry.encode(schemaId, avroReady(v)) });
    if (batch.length === 5_000) {
      await producer.send({ topic: raw, messages: batch, acks: -1 });
      batch = [];
    }
  }
  if (batch.length > 0) await producer.send({ topic: raw, messages: batch, acks: -1 });

  const snapshot = buildSnapshot(data);
  const passthrough: typeof processChunk = async (messages) => ({
    enriched: messages.map((m) => ({ key: m.key, value: m.value, headers: m.headers ?? {} })),
    deadLetters: [],
    deadLetterCodes: [],
    enrichments: [],
  });
  const copy = await drain(kafka, addresses, raw, `${run}.copy`, passthrough, snapshot);
  const enrich = await drain(kafka, addresses, raw, `${run}.enriched`, undefined, snapshot);
  const latency = await measureLatency(kafka, addresses, registry, schemaId, snapshot);
  await producer.disconnect();
  await admin.disconnect();

  const result = {
    records: RECORDS,
    partitions: PARTITIONS,
    batch_max_records: Number(BATCH),
    enrich: enrich,
    passthrough: copy,
    ratio_enrich_to_passthrough: round(enrich.records_per_second / copy.records_per_second),
    latency_at_2000_per_second: latency,
    cores: (await import('node:os')).cpus().length,
  };
  console.log(JSON.stringify(result, null, 2));
  const rows: [string, string][] = [
    ['records, partitions, batch', `${RECORDS}, ${PARTITIONS}, ${BATCH}`],
    ['enrich: records/s (exactly-once)', fmt(enrich.records_per_second)],
    ['passthrough: records/s (same client)', fmt(copy.records_per_second)],
    ['ratio enrich / passthrough', String(result.ratio_enrich_to_passthrough)],
    ['enrich: CPU broker / worker (cores)', `${enrich.broker_cores} / ${enrich.worker_cores}`],
    ['passthrough: CPU broker / worker', `${copy.broker_cores} / ${copy.worker_cores}`],
    ['latency p50 / p99 at 2,000/s (ms)', `${latency.p50_ms} / ${latency.p99_ms}`],
    ['latency max, records measured', `${latency.max_ms} ms, ${latency.records}`],
  ];
  const w = Math.max(...rows.map((r) => r[0].length));
  process.stderr.write(rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`).join('\n') + '\n');
}

interface Addresses {
  brokers: string[];
  registry: string;
}

async function ensureStack(): Promise<Addresses> {
  if (process.env.KAFKA_BROKERS && process.env.SCHEMA_REGISTRY_URL) {
    return { brokers: process.env.KAFKA_BROKERS.split(','), registry: process.env.SCHEMA_REGISTRY_URL };
  }
  const up = await stackUp(stackOptions());
  return { brokers: up.addresses.KAFKA_BROKERS.split(','), registry: up.addresses.SCHEMA_REGISTRY_URL };
}

function workerConfig(addresses: Addresses, input: string, output: string) {
  return loadConfig({
    ...process.env,
    KAFKA_BROKERS: addresses.brokers.join(','),
    SCHEMA_REGISTRY_URL: addresses.registry,
    INPUT_TOPICS: input,
    OUTPUT_TOPIC: output,
    DLQ_TOPIC: `${run}.dlq`,
    CONSUMER_GROUP: `${output}-group`,
    BATCH_MAX_RECORDS: BATCH,
    KAFKA_SESSION_TIMEOUT_MS: '10000',
  });
}

/** Runs a worker (or the passthrough) over the preloaded topic until every record is committed. */
async function drain(
  kafka: Kafka,
  addresses: Addresses,
  input: string,
  output: string,
  process_: typeof processChunk | undefined,
  snapshot: ReturnType<typeof buildSnapshot>,
) {
  const label = process_ ? 'passthrough' : 'enrich';
  process.stderr.write(`${label}: draining ${RECORDS} records...\n`);
  const worker = new Worker(
    workerConfig(addresses, input, output),
    createLogger(process.env.BENCH_LOG_LEVEL ?? 'error'),
    {
      snapshot: () => snapshot,
      ...(process_ ? { process: process_ } : {}),
    },
  );
  let brokerBefore: number | null = null;
  let cpuBefore = process.cpuUsage();
  let started = 0;
  await worker.start((error) => {
    throw error;
  });
  // Sustained rate: from the first commit to the last, so joining the group is not counted.
  const out = () => worker.metrics.recordsOut.get().then((m) => m.values[0]?.value ?? 0);
  for (;;) {
    const n = await out();
    if (n > 0 && started === 0) {
      started = performance.now();
      cpuBefore = process.cpuUsage();
      brokerBefore = brokerCpuSeconds();
    }
    if (n >= RECORDS) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const brokerAfter = brokerCpuSeconds();
  await worker.stop();
  void kafka;
  return {
    records_per_second: Math.round(RECORDS / seconds),
    seconds: round(seconds),
    worker_cores: round((cpu.user + cpu.system) / 1e6 / seconds),
    broker_cores:
      brokerBefore === null || brokerAfter === null ? null : round((brokerAfter - brokerBefore) / seconds),
  };
}

/** Offers records at a fixed rate and measures send → read_committed receipt of the enriched record. */
async function measureLatency(
  kafka: Kafka,
  addresses: Addresses,
  registry: SchemaRegistry,
  schemaId: number,
  snapshot: ReturnType<typeof buildSnapshot>,
) {
  const input = `${run}.lat.raw`;
  const output = `${run}.lat.enriched`;
  const latencyConfig = loadConfig({
    ...process.env,
    KAFKA_BROKERS: addresses.brokers.join(','),
    SCHEMA_REGISTRY_URL: addresses.registry,
    INPUT_TOPICS: input,
    OUTPUT_TOPIC: output,
    DLQ_TOPIC: `${run}.dlq`,
    CONSUMER_GROUP: `${output}-group`,
    BATCH_MAX_WAIT_MS: '20',
    KAFKA_SESSION_TIMEOUT_MS: '10000',
  });
  const worker = new Worker(latencyConfig, createLogger(process.env.BENCH_LOG_LEVEL ?? 'error'), {
    snapshot: () => snapshot,
  });
  await worker.start((error) => {
    throw error;
  });
  const total = LATENCY_RATE * LATENCY_SECONDS;
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  const consumer = kafka.consumer({
    groupId: `${output}-reader`,
    readUncommitted: false,
    maxWaitTimeInMs: 10,
  });
  await consumer.connect();
  await consumer.subscribe({ topics: [output], fromBeginning: true });
  await consumer.run({
    eachBatch: async ({ batch }) => {
      const now = performance.now();
      for (const m of batch.messages) {
        // The transaction id is the first Avro field; decoding it is cheap and exact.
        const v = (await registry.decode(m.value as Buffer)) as { transaction_id: string };
        const sent = sentAt.get(v.transaction_id);
        if (sent !== undefined) latencies.push(now - sent);
      }
    },
  });
  await new Promise((r) => setTimeout(r, 3_000));
  process.stderr.write(`latency: offering ${LATENCY_RATE} records/s for ${LATENCY_SECONDS} s...\n`);
  const producer = kafka.producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    allowAutoTopicCreation: false,
  });
  await producer.connect();
  const samples = [...generateSamples(loadReferenceData(), total, { seed: 5, customers: 2_000 })];
  const tick = 10; // ms: 20 records every 10 ms
  const perTick = Math.round((LATENCY_RATE * tick) / 1000);
  const t0 = performance.now();
  for (let i = 0; i < total; i += perTick) {
    const due = t0 + (i / LATENCY_RATE) * 1000;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const messages: Message[] = [];
    const ids: string[] = [];
    for (const s of samples.slice(i, i + perTick)) {
      const v: Record<string, unknown> = {
        ...(s.value as Record<string, unknown>),
        transaction_id: `lat-${i + ids.length}`,
      };
      ids.push(String(v.transaction_id));
      messages.push({ key: String(v.customer_id), value: await registry.encode(schemaId, avroReady(v)) });
    }
    const sentTime = performance.now();
    for (const id of ids) sentAt.set(id, sentTime);
    await producer.send({ topic: input, messages });
  }
  const waitUntil = performance.now() + 30_000;
  while (latencies.length < total && performance.now() < waitUntil)
    await new Promise((r) => setTimeout(r, 100));
  await producer.disconnect();
  await consumer.disconnect();
  await worker.stop();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN);
  return {
    offered_per_second: LATENCY_RATE,
    records: latencies.length,
    of: total,
    p50_ms: pct(0.5),
    p99_ms: pct(0.99),
    max_ms: Math.round(latencies[latencies.length - 1] ?? NaN),
  };
}

/** Total CPU seconds of the local stack's broker process, when this machine runs it. */
function brokerCpuSeconds(): number | null {
  const pid = stackStatus().find((s) => s.component === 'kafka' && s.state === 'running')?.pid;
  if (!pid) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]);
    return ticks / 100;
  } catch {
    return null;
  }
}

/** Avro needs every optional field present. */
function avroReady(t: Record<string, unknown>): Record<string, unknown> {
  const location = { city: null, address: null, region: null, postal_code: null, ...(t.location as object) };
  return {
    card_name: null,
    is_self_transaction: null,
    ref_id: null,
    pos_id: null,
    pos_entry_mode: null,
    ...t,
    location,
  };
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

function fmt(n: number): string {
  return n.toLocaleString('en');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench:e2e failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
