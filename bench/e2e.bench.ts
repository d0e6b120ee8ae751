/**
 * `npm run bench:e2e`: the worker through a real broker with exactly-once on.
 *
 * 1. Throughput: 200,000 Avro transactions preloaded on a raw topic; the enrichment worker, and in
 *    the same run a passthrough that copies key and value bytes through the very same consumer,
 *    per-partition transactional producers, batching and commits, each drain it from the start.
 *    Reports sustained records/s of both and their ratio, and the CPU the broker and the worker used.
 *    Options: BENCH_E2E_SHAPED=1 (also
 *    enriched-shaped output without enriching), BENCH_E2E_STORE=1 (also the worker with the brand
 *    store in PostgreSQL, as `tx-enrich worker` runs), BENCH_E2E_CPU_PROF=dir (V8 CPU profiles).
 * 2. Latency: records offered at a fixed 2,000/s to a worker process, 5 s of warm-up (reported apart)
 *    then 20 s measured; p50/p99 from the moment a record was sent to the moment a read_committed
 *    consumer received its enriched record. BENCH_E2E_LATENCY_SECONDS / _WARM_SECONDS change the two.
 *
 * Uses KAFKA_BROKERS / SCHEMA_REGISTRY_URL when set, else the local jar stack (started if needed).
 * Prints JSON (stdout) and a readable table (stderr).
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { COMPATIBILITY, SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import type { Message } from 'kafkajs';
import { Kafka, Partitioners, logLevel } from '../src/kafka/kafkajs.js';
import pg from 'pg';
import { stackStatus, stackUp, stackOptions } from '../scripts/stack.js';
import { WORKER_NODE_OPTIONS } from '../src/cli/worker-command.js';
import { loadReferenceData } from '../src/data/load.js';
import { generateSamples } from '../src/samples/generate.js';

const RECORDS = Number(process.env.BENCH_E2E_RECORDS ?? 200_000);
const PARTITIONS = Number(process.env.BENCH_E2E_PARTITIONS ?? 6);
const BATCH = process.env.BENCH_E2E_BATCH ?? '2000';
const LATENCY_RATE = 2_000;
/** Worker processes per run: 1, then as many as the machine has cores (the worker scales by instances). */
const INSTANCES = (process.env.BENCH_E2E_INSTANCES ?? `1,${cpus().length}`).split(',').map(Number);
const LATENCY_SECONDS = Number(process.env.BENCH_E2E_LATENCY_SECONDS ?? 20);
const LATENCY_WARM_SECONDS = Number(process.env.BENCH_E2E_LATENCY_WARM_SECONDS ?? 5);
/**
 * BENCH_E2E_SHAPED=1: also drain writing enriched-shaped records (real enriched values and headers,
 * nothing decoded, validated, enriched or encoded): the highest rate the enriched output allows with
 * this client, whatever the enrichment costs.
 */
const SHAPED = process.env.BENCH_E2E_SHAPED === '1';
/**
 * BENCH_E2E_STORE=1: also drain with the worker as `tx-enrich worker` runs it, with the brand store
 * in PostgreSQL (DATABASE_URL, default the local postgres://postgres@127.0.0.1:5432/test; a fresh
 * schema per run, dropped at the end): snapshot from the store, recurring history read and every
 * enriched transaction indexed, once per chunk. Reports the database's CPU too when it runs here.
 */
const STORE = process.env.BENCH_E2E_STORE === '1';
const STORE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

const run = `bench-${Date.now().toString(36)}`;
const STORE_SCHEMA = `bench_${run.replace(/\W/g, '_').toLowerCase()}`;

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
    batch.push({ key: String(v.customer_id), value: await registry.encode(schemaId, v) });
    if (batch.length === 5_000) {
      await producer.send({ topic: raw, messages: batch, acks: -1 });
      batch = [];
    }
  }
  if (batch.length > 0) await producer.send({ topic: raw, messages: batch, acks: -1 });

  const runs: Record<string, Awaited<ReturnType<typeof drain>>> = {};
  for (const instances of INSTANCES) {
    runs[`passthrough_x${instances}`] = await drain(kafka, addresses, raw, 'passthrough', instances);
    runs[`enrich_x${instances}`] = await drain(kafka, addresses, raw, 'enrich', instances);
    if (SHAPED) runs[`shaped_x${instances}`] = await drain(kafka, addresses, raw, 'shaped', instances);
    if (STORE) runs[`store_x${instances}`] = await drain(kafka, addresses, raw, 'store', instances);
  }
  if (STORE) await dropStoreSchema();
  const latency = await measureLatency(kafka, addresses, registry, schemaId);
  await producer.disconnect();
  await admin.disconnect();

  const ratios: Record<string, number> = {};
  for (const instances of INSTANCES) {
    const e = runs[`enrich_x${instances}`];
    const p = runs[`passthrough_x${instances}`];
    if (e && p) ratios[`x${instances}`] = round(e.records_per_second / p.records_per_second);
    const sh = runs[`shaped_x${instances}`];
    if (sh && p)
      ratios[`x${instances}_shaped_output_only`] = round(sh.records_per_second / p.records_per_second);
    const st = runs[`store_x${instances}`];
    if (st && p) ratios[`x${instances}_with_store`] = round(st.records_per_second / p.records_per_second);
  }
  const result = {
    records: RECORDS,
    partitions: PARTITIONS,
    batch_max_records: Number(BATCH),
    runs,
    ratio_enrich_to_passthrough: ratios,
    latency_at_2000_per_second: latency,
    cores: (await import('node:os')).cpus().length,
  };
  console.log(JSON.stringify(result, null, 2));
  const rows: [string, string][] = [['records, partitions, batch', `${RECORDS}, ${PARTITIONS}, ${BATCH}`]];
  for (const [name, r] of Object.entries(runs)) {
    rows.push([`${name}: records/s`, fmt(r.records_per_second)]);
    rows.push([`${name}: CPU worker(s) / broker (cores)`, `${r.worker_cores} / ${r.broker_cores}`]);
    if ('database_cores' in r) rows.push([`${name}: CPU database (cores)`, String(r.database_cores)]);
  }
  for (const [k, v] of Object.entries(ratios)) rows.push([`ratio enrich / passthrough, ${k}`, String(v)]);
  rows.push(['latency p50 / p99 at 2,000/s (ms)', `${latency.p50_ms} / ${latency.p99_ms}`]);
  rows.push(['latency max, records measured', `${latency.max_ms} ms, ${latency.records}`]);
  rows.push([
    `latency p50 / p99 / max, first ${LATENCY_WARM_SECONDS} s (warm-up)`,
    `${latency.warm_up.p50_ms} / ${latency.warm_up.p99_ms} / ${latency.warm_up.max_ms}`,
  ]);
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

/**
 * Runs `instances` worker processes (enrich or passthrough) over the preloaded topic until the group
 * has committed every record. Sustained rate: from the first committed offset to the last, so
 * starting and joining the group are not counted.
 */
async function drain(
  kafka: Kafka,
  addresses: Addresses,
  input: string,
  mode: 'enrich' | 'passthrough' | 'shaped' | 'store',
  instances: number,
) {
  const output = `${run}.${mode}.${instances}`;
  const group = `${output}-group`;
  process.stderr.write(`${mode} x${instances}: draining ${RECORDS} records...\n`);
  const env = {
    ...workerEnv(addresses, input, output),
    BATCH_MAX_RECORDS: BATCH,
    ...(mode === 'store' ? { DATABASE_URL: STORE_URL, DATABASE_SCHEMA: STORE_SCHEMA } : {}),
  };
  // BENCH_E2E_CPU_PROF=dir: each worker writes V8 CPU profiles (one per thread; tsx's loader runs on
  // its own) to dir/<run>-<mode>-x<instances>-<i>/ when it exits.
  const profileDir = process.env.BENCH_E2E_CPU_PROF;
  const profile = (i: number): string[] =>
    profileDir ? ['--cpu-prof', '--cpu-prof-dir', `${profileDir}/${run}-${mode}-x${instances}-${i}`] : [];
  const children = Array.from({ length: instances }, (_, i) =>
    spawn(
      process.execPath,
      [...WORKER_NODE_OPTIONS, ...profile(i), '--import', 'tsx', 'bench/bench-worker.ts', mode],
      {
        env,
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    ),
  );
  const admin = kafka.admin();
  await admin.connect();
  const committed = async (): Promise<number> => {
    const [topic] = await admin.fetchOffsets({ groupId: group, topics: [input] });
    return (topic?.partitions ?? []).reduce((n, p) => n + Math.max(0, Number(p.offset)), 0);
  };
  let started = 0;
  let cpuBefore = 0;
  let brokerBefore: number | null = null;
  let databaseBefore: number | null = null;
  for (;;) {
    const n = await committed();
    if (n > 0 && started === 0) {
      started = performance.now();
      cpuBefore = children.reduce((t, c) => t + (cpuSecondsOf(c.pid) ?? 0), 0);
      brokerBefore = brokerCpuSeconds();
      databaseBefore = mode === 'store' ? databaseCpuSeconds() : null;
    }
    if (n >= RECORDS) break;
    if (children.some((c) => c.exitCode !== null)) throw new Error(`a ${mode} worker exited early`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = children.reduce((t, c) => t + (cpuSecondsOf(c.pid) ?? 0), 0);
  const brokerAfter = brokerCpuSeconds();
  const databaseAfter = mode === 'store' ? databaseCpuSeconds() : null;
  await admin.disconnect();
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          c.once('exit', () => resolve());
          c.kill('SIGTERM');
        }),
    ),
  );
  return {
    instances,
    records_per_second: Math.round(RECORDS / seconds),
    seconds: round(seconds),
    worker_cores: round((cpuAfter - cpuBefore) / seconds),
    broker_cores:
      brokerBefore === null || brokerAfter === null ? null : round((brokerAfter - brokerBefore) / seconds),
    ...(mode === 'store'
      ? {
          database_cores:
            databaseBefore === null || databaseAfter === null
              ? null
              : round((databaseAfter - databaseBefore) / seconds),
        }
      : {}),
  };
}

/** CPU seconds of this machine's PostgreSQL processes (server and backends), or null if none runs here. */
function databaseCpuSeconds(): number | null {
  let total: number | null = null;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let comm: string;
    try {
      comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    if (comm !== 'postgres') continue;
    total = (total ?? 0) + (cpuSecondsOf(Number(entry)) ?? 0);
  }
  return total;
}

/** Drops the schema the store drains used. */
async function dropStoreSchema(): Promise<void> {
  const client = new pg.Client({ connectionString: STORE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${STORE_SCHEMA}" CASCADE`);
  await client.end();
}

/** The environment of a benchmark worker process (configured as `tx-enrich worker` is). */
function workerEnv(addresses: Addresses, input: string, output: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    KAFKA_BROKERS: addresses.brokers.join(','),
    SCHEMA_REGISTRY_URL: addresses.registry,
    INPUT_TOPICS: input,
    OUTPUT_TOPIC: output,
    DLQ_TOPIC: `${run}.dlq`,
    CONSUMER_GROUP: `${output}-group`,
    KAFKA_SESSION_TIMEOUT_MS: '10000',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error',
  };
}

/**
 * Offers records at a fixed rate to an enrichment worker running as its own process (as deployed)
 * and measures, per record, the time from the producer's send to receipt of the enriched record by a
 * read_committed consumer. Records are encoded before the clock starts, so the offering loop does
 * little besides sending. One record per partition must make the whole trip before the clock
 * starts (the worker's start, group join and producers are not counted); then the first
 * LATENCY_WARM_SECONDS of traffic at the rate are measured apart (JIT and connection warm-up of a
 * worker that has just started), and the steady state after them is the figure.
 */
async function measureLatency(
  kafka: Kafka,
  addresses: Addresses,
  registry: SchemaRegistry,
  schemaId: number,
) {
  const input = `${run}.lat.raw`;
  const output = `${run}.lat.enriched`;
  const worker = spawn(
    process.execPath,
    [...WORKER_NODE_OPTIONS, '--import', 'tsx', 'bench/bench-worker.ts', 'enrich'],
    {
      env: { ...workerEnv(addresses, input, output), BATCH_MAX_WAIT_MS: '20' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const warmCount = LATENCY_RATE * LATENCY_WARM_SECONDS;
  const total = warmCount + LATENCY_RATE * LATENCY_SECONDS;
  const samples = [
    ...generateSamples(loadReferenceData(), total + PARTITIONS, { seed: 5, customers: 2_000 }),
  ];
  const encoded: Message[] = [];
  for (const [i, s] of samples.entries()) {
    const v: Record<string, unknown> = {
      ...(s.value as Record<string, unknown>),
      transaction_id: `lat-${i}`,
    };
    encoded.push({ key: String(v.customer_id), value: await registry.encode(schemaId, v) });
  }
  // The last PARTITIONS records: one first trip through each partition.
  const firstTrips = encoded.splice(total).map((m, partition) => ({ ...m, partition }));

  const sentAt = new Map<string, number>();
  const warmLatencies: number[] = [];
  const latencies: number[] = [];
  let tripsDone = 0;
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
        const n = Number(v.transaction_id.slice('lat-'.length));
        if (sent !== undefined) (n < warmCount ? warmLatencies : latencies).push(now - sent);
        else if (n >= total) tripsDone++;
      }
    },
  });
  const producer = kafka.producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    allowAutoTopicCreation: false,
  });
  await producer.connect();
  await producer.send({ topic: input, messages: firstTrips });
  const tripsUntil = performance.now() + 60_000;
  while (tripsDone < PARTITIONS) {
    if (performance.now() > tripsUntil) throw new Error('latency: the first records never came through');
    if (worker.exitCode !== null) throw new Error('latency: the worker exited early');
    await new Promise((r) => setTimeout(r, 50));
  }

  process.stderr.write(
    `latency: offering ${LATENCY_RATE} records/s for ${LATENCY_WARM_SECONDS} s (warm-up) + ${LATENCY_SECONDS} s...\n`,
  );
  const tick = 10; // ms: 20 records every 10 ms
  const perTick = Math.round((LATENCY_RATE * tick) / 1000);
  const t0 = performance.now();
  for (let i = 0; i < total; i += perTick) {
    const due = t0 + (i / LATENCY_RATE) * 1000;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const sentTime = performance.now();
    for (let k = i; k < Math.min(total, i + perTick); k++) sentAt.set(`lat-${k}`, sentTime);
    await producer.send({ topic: input, messages: encoded.slice(i, i + perTick) });
  }
  const waitUntil = performance.now() + 30_000;
  while (warmLatencies.length + latencies.length < total && performance.now() < waitUntil)
    await new Promise((r) => setTimeout(r, 100));
  await producer.disconnect();
  await consumer.disconnect();
  await new Promise<void>((resolve) => {
    worker.once('exit', () => resolve());
    worker.kill('SIGTERM');
  });
  const steady = percentiles(latencies);
  const warm = percentiles(warmLatencies);
  return {
    offered_per_second: LATENCY_RATE,
    warm_up_seconds: LATENCY_WARM_SECONDS,
    records: latencies.length,
    of: total - warmCount,
    p50_ms: steady.p50,
    p99_ms: steady.p99,
    max_ms: steady.max,
    warm_up: {
      records: warmLatencies.length,
      of: warmCount,
      p50_ms: warm.p50,
      p99_ms: warm.p99,
      max_ms: warm.max,
    },
  };
}

function percentiles(values: number[]): { p50: number; p99: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const pct = (p: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN);
  return { p50: pct(0.5), p99: pct(0.99), max: Math.round(sorted[sorted.length - 1] ?? NaN) };
}

/** Total CPU seconds of the local stack's broker process, when this machine runs it. */
function brokerCpuSeconds(): number | null {
  return cpuSecondsOf(stackStatus().find((s) => s.component === 'kafka' && s.state === 'running')?.pid);
}

/** User + system CPU seconds of a process so far (Linux /proc). */
function cpuSecondsOf(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]);
    return ticks / 100;
  } catch {
    return null;
  }
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
