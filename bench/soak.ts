/**
 * `npm run soak`: the worker as `npm start` runs it (brand store in PostgreSQL, feedback pipeline in
 * the same process) under steady traffic with hostile records mixed in, for SOAK_MINUTES (default 10)
 * at SOAK_RATE records/s (default 1,000), SOAK_POISON_SHARE of them poison (default 0.01), one of
 * every class of issue 12 in turn:
 *
 *   raw topic:      long-token (H1), nul-field / long-id / nul-tenant / star-tenant (H2),
 *                   near-limit (H3), avro-hostile (M5), invalid-utf8 (E1), not-json, bad-magic,
 *                   empty-value;
 *   feedback topic: huge-correction (H4), invented-customer (H5), star-correction (H6),
 *                   not-owner / tenant-mismatch (M2), reused-id (M3), huge-brand (M4), nul-correction.
 *
 * At the end, a `read_committed` reader checks every id: each good transaction enriched exactly once,
 * each poison record dead-lettered exactly once (and never enriched); `/readyz` is polled every second
 * throughout and every answer that was not 200 is reported. Prints JSON (stdout) and a table (stderr);
 * exits 1 when any check fails.
 *
 * Uses KAFKA_BROKERS / SCHEMA_REGISTRY_URL / DATABASE_URL when set, else the local stack.
 */
import { spawn } from 'node:child_process';
import { COMPATIBILITY, SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import type { IHeaders, Message } from 'kafkajs';
import pg from 'pg';
import { stackUp, stackOptions } from '../scripts/stack.js';
import { WORKER_NODE_OPTIONS } from '../src/cli/worker-command.js';
import { loadReferenceData } from '../src/data/load.js';
import { Kafka, Partitioners, logLevel } from '../src/kafka/kafkajs.js';
import { generateSamples } from '../src/samples/generate.js';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const RATE = Number(process.env.SOAK_RATE ?? 1_000);
const POISON_SHARE = Number(process.env.SOAK_POISON_SHARE ?? 0.01);
const PARTITIONS = 6;
const TICK_MS = 100;
const DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const run = `soak-${Date.now().toString(36)}`;
const SCHEMA = run.replace(/\W/g, '_');
const POISON_HEADER = 'x-soak-poison';

const FEEDBACK_CLASSES = [
  'huge-correction',
  'invented-customer',
  'star-correction',
  'not-owner',
  'tenant-mismatch',
  'reused-id',
  'huge-brand',
  'nul-correction',
] as const;
type FeedbackClass = (typeof FEEDBACK_CLASSES)[number];

const CLASSES = [
  'long-token',
  'nul-field',
  'long-id',
  'nul-tenant',
  'star-tenant',
  'near-limit',
  'avro-hostile',
  'invalid-utf8',
  'not-json',
  'bad-magic',
  'empty-value',
] as const;
type PoisonClass = (typeof CLASSES)[number];

async function main(): Promise<void> {
  const brokers = process.env.KAFKA_BROKERS?.split(',') ?? [
    (await stackUp(stackOptions())).addresses.KAFKA_BROKERS,
  ];
  const registryUrl = process.env.SCHEMA_REGISTRY_URL ?? 'http://127.0.0.1:18081/apis/ccompat/v7';
  const kafka = new Kafka({ clientId: run, brokers, logLevel: logLevel.ERROR });
  const admin = kafka.admin();
  await admin.connect();
  const topics = {
    raw: `${run}.raw`,
    out: `${run}.enriched`,
    dlq: `${run}.dlq`,
    feedback: `${run}.feedback`,
  };
  await admin.createTopics({
    waitForLeaders: true,
    topics: [
      { topic: topics.raw, numPartitions: PARTITIONS },
      { topic: topics.feedback, numPartitions: 3 },
    ],
  });
  const hostileSchemaId = await hostileSchema(registryUrl, topics.raw);

  const port = 19_000 + Math.floor(Math.random() * 500);
  const worker = spawn(process.execPath, [...WORKER_NODE_OPTIONS, 'bin/tx-enrich.js', 'worker'], {
    env: {
      ...process.env,
      KAFKA_BROKERS: brokers.join(','),
      SCHEMA_REGISTRY_URL: registryUrl,
      DATABASE_URL,
      DATABASE_SCHEMA: SCHEMA,
      INPUT_TOPICS: topics.raw,
      OUTPUT_TOPIC: topics.out,
      DLQ_TOPIC: topics.dlq,
      FEEDBACK_TOPIC: topics.feedback,
      REENRICHED_TOPIC: `${run}.reenriched`,
      BRAND_CHANGES_TOPIC: `${run}.brand-changes`,
      CONSUMER_GROUP: run,
      HTTP_PORT: String(port),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const readiness = { polls: 0, notReady: [] as { at: number; reason: string }[] };
  await waitReady(port);
  const poll = setInterval(() => {
    readiness.polls++;
    void fetch(`http://127.0.0.1:${port}/readyz`).then(
      async (res) => {
        if (res.status !== 200) readiness.notReady.push({ at: Date.now(), reason: await res.text() });
      },
      (error: unknown) => readiness.notReady.push({ at: Date.now(), reason: String(error) }),
    );
  }, 1_000);

  // Traffic: realistic transactions, and every 1/POISON_SHARE-th record a poison one.
  const samples = [
    ...generateSamples(loadReferenceData(), 20_000, { seed: 7, customers: 2_000, badShare: 0 }),
  ]
    .filter((s) => s.valid)
    .map((s) => s.value as Record<string, unknown>);
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, idempotent: true });
  await producer.connect();
  const good = new Set<string>();
  const poison = new Map<string, PoisonClass | FeedbackClass>();
  const total = Math.round(MINUTES * 60 * RATE);
  const perTick = Math.max(1, Math.round((RATE * TICK_MS) / 1000));
  const started = Date.now();
  let sent = 0;
  let nearLimit: Message[] = [];
  /** Good transactions already sent, that feedback poison can point at. */
  const sentGood: Record<string, unknown>[] = [];
  let rawCount = 0;
  let feedbackCount = 0;
  while (sent < total) {
    const batch: Message[] = [];
    for (let i = 0; i < perTick && sent < total; i++, sent++) {
      if (sent % Math.round(1 / POISON_SHARE) === 7) {
        const cls = CLASSES[rawCount++ % CLASSES.length] as PoisonClass;
        const id = `${cls}-${poison.size}`;
        poison.set(id, cls);
        const message = poisonMessage(
          cls,
          id,
          samples[sent % samples.length] as Record<string, unknown>,
          hostileSchemaId,
        );
        // A record at the broker's limit goes in a request of its own.
        if (cls === 'near-limit') nearLimit.push(message);
        else batch.push(message);
        continue;
      }
      const id = `${run}-${sent}`;
      good.add(id);
      if (sentGood.length < 1_000)
        sentGood.push({
          transaction_id: id,
          customer_id: (samples[sent % samples.length] as Record<string, unknown>).customer_id,
        });
      const t: Record<string, unknown> = {
        ...(samples[sent % samples.length] as Record<string, unknown>),
        transaction_id: id,
      };
      batch.push({
        key: String(t.customer_id),
        value: JSON.stringify(t),
        headers: { 'tenant-id': 'soak-bank' },
      });
    }
    await producer.send({ topic: topics.raw, messages: batch, acks: -1 });
    // Feedback poison at the same share of the feedback traffic's size as raw poison: one per tick.
    if (sentGood.length > 10 && (sent / perTick) % Math.round(1 / POISON_SHARE / 10) === 0) {
      const cls = FEEDBACK_CLASSES[feedbackCount++ % FEEDBACK_CLASSES.length] as FeedbackClass;
      const id = `${cls}-${poison.size}`;
      poison.set(id, cls);
      const target = sentGood[poison.size % sentGood.length] as Record<string, unknown>;
      for (const m of feedbackPoison(cls, id, target))
        await producer.send({ topic: topics.feedback, messages: [m], acks: -1 });
    }
    for (const m of nearLimit) await producer.send({ topic: topics.raw, messages: [m], acks: -1 });
    nearLimit = [];
    const due = started + (sent / RATE) * 1000;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (sent % (RATE * 60) < perTick)
      process.stderr.write(`[soak] ${Math.round((Date.now() - started) / 1000)} s: ${sent} sent\n`);
  }
  const sendSeconds = (Date.now() - started) / 1000;
  await producer.disconnect();

  const verdict = await verify(kafka, registryUrl, topics, good, poison);
  clearInterval(poll);
  worker.kill('SIGTERM');
  const exit = await new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
  await admin.deleteTopics({ topics: Object.values(topics) }).catch(() => undefined);
  await admin.disconnect();
  await dropSchema();

  const report = {
    minutes: MINUTES,
    rate: RATE,
    sent,
    send_seconds: Math.round(sendSeconds),
    good: good.size,
    poison: poison.size,
    poison_by_class: Object.fromEntries(
      [...CLASSES, ...FEEDBACK_CLASSES].map((c) => [c, [...poison.values()].filter((v) => v === c).length]),
    ),
    ...verdict,
    readiness_polls: readiness.polls,
    readiness_not_ready: readiness.notReady.length,
    readiness_reasons: [...new Set(readiness.notReady.map((n) => n.reason))].slice(0, 5),
    worker_exit: exit,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  const ok =
    verdict.lost === 0 &&
    verdict.duplicated === 0 &&
    verdict.poison_dead_lettered_once === poison.size &&
    verdict.poison_enriched === 0 &&
    readiness.notReady.length === 0 &&
    exit === 0;
  process.stderr.write(
    [
      `soak ${ok ? 'PASSED' : 'FAILED'}: ${MINUTES} min at ${RATE}/s, ${sent} records (${poison.size} poison)`,
      `  enriched: lost ${verdict.lost}, duplicated ${verdict.duplicated}`,
      `  poison: dead-lettered once ${verdict.poison_dead_lettered_once}/${poison.size}, twice or more ${verdict.poison_dead_lettered_twice}, enriched ${verdict.poison_enriched}`,
      `  readiness: ${readiness.notReady.length} of ${readiness.polls} polls not ready; worker exit ${exit}`,
    ].join('\n') + '\n',
  );
  process.exit(ok ? 0 : 1);
}

function poisonMessage(
  cls: PoisonClass,
  id: string,
  sample: Record<string, unknown>,
  hostileSchemaId: number,
): Message {
  const headers: IHeaders = { [POISON_HEADER]: id, 'tenant-id': 'soak-bank' };
  const json = (t: Record<string, unknown>) => JSON.stringify({ ...sample, transaction_id: id, ...t });
  switch (cls) {
    case 'long-token':
      return { key: id, value: json({ raw_description: 'CAREEM'.repeat(80_000) }), headers };
    case 'nul-field':
      return { key: id, value: json({ raw_description: 'SPINNEYS\u0000DUBAI' }), headers };
    case 'long-id':
      return {
        key: id,
        value: JSON.stringify({ ...sample, transaction_id: `${id}-${'x'.repeat(10_240)}` }),
        headers,
      };
    case 'nul-tenant':
      return { key: id, value: json({}), headers: { ...headers, 'tenant-id': 'soak\u0000bank' } };
    case 'star-tenant':
      return { key: id, value: json({}), headers: { ...headers, 'tenant-id': '*' } };
    case 'near-limit': {
      const value = Buffer.alloc(1_046_000, 0x61);
      value.write('{"raw_description": "', 0);
      return { key: id, value, headers };
    }
    case 'avro-hostile': {
      const value = Buffer.from([0, 0, 0, 0, 0, 0x80, 0x9b, 0xee, 0x1c, 0x00]);
      value.writeInt32BE(hostileSchemaId, 1);
      return { key: id, value, headers };
    }
    case 'invalid-utf8': {
      const value = Buffer.from(json({ raw_description: 'CARREFOUR ZZ' }));
      value[value.indexOf('ZZ')] = 0xff;
      return { key: id, value, headers };
    }
    case 'not-json':
      return { key: id, value: 'hello, world', headers };
    case 'bad-magic':
      return { key: id, value: Buffer.from([0x07, 1, 2, 3, 4, 5]), headers };
    case 'empty-value':
      return { key: id, value: null, headers };
  }
}

/**
 * Corrections that must each be dead-lettered once: the reused id is two records (the second, with
 * other content, is the poison one; the first is a valid correction and applied).
 */
function feedbackPoison(cls: FeedbackClass, id: string, target: Record<string, unknown>): Message[] {
  const headers: IHeaders = { [POISON_HEADER]: id, 'tenant-id': 'soak-bank' };
  const correction = (overrides: Record<string, unknown>) =>
    JSON.stringify({
      correction_id: id,
      tenant: 'soak-bank',
      transaction_id: target.transaction_id,
      customer_id: target.customer_id,
      brand_id: null,
      new_brand: null,
      category_id: '10',
      sub_category_id: '10-1',
      scope: 'transaction',
      reported_at: Date.now(),
      ...overrides,
    });
  switch (cls) {
    case 'huge-correction':
      return [{ key: id, value: correction({ customer_id: 'c'.repeat(900_000) }), headers }];
    case 'invented-customer':
      return [{ key: id, value: correction({ customer_id: `invented-${id}`, scope: 'global' }), headers }];
    case 'star-correction':
      return [
        {
          key: id,
          value: correction({ tenant: '*', scope: 'merchant' }),
          headers: { ...headers, 'tenant-id': '*' },
        },
      ];
    case 'not-owner':
      return [{ key: id, value: correction({ customer_id: 'someone-else' }), headers }];
    case 'tenant-mismatch':
      return [{ key: id, value: correction({ tenant: 'other-bank' }), headers }];
    case 'reused-id':
      return [
        { key: id, value: correction({}), headers: { 'tenant-id': 'soak-bank' } },
        { key: id, value: correction({ sub_category_id: '10-2' }), headers },
      ];
    case 'huge-brand':
      return [
        {
          key: id,
          value: correction({
            new_brand: { name: 'Soak Brand', name_ar: 'ب'.repeat(300_000), website: null },
          }),
          headers,
        },
      ];
    case 'nul-correction':
      return [
        { key: id, value: correction({ transaction_id: `${String(target.transaction_id)}\u0000` }), headers },
      ];
  }
}

async function verify(
  kafka: InstanceType<typeof Kafka>,
  registryUrl: string,
  topics: { out: string; dlq: string },
  good: Set<string>,
  poison: Map<string, PoisonClass | FeedbackClass>,
) {
  const registry = new SchemaRegistry({ host: registryUrl });
  const enriched = new Map<string, number>();
  const dead = new Map<string, number>();
  const consumer = kafka.consumer({ groupId: `${run}-verify`, readUncommitted: false, maxWaitTimeInMs: 200 });
  await consumer.connect();
  await consumer.subscribe({ topics: [topics.out, topics.dlq], fromBeginning: true });
  let last = Date.now();
  await consumer.run({
    eachBatch: async ({ batch }) => {
      for (const m of batch.messages) {
        if (batch.topic === topics.out) {
          const value = (await registry.decode(m.value as Buffer)) as { transaction_id: string };
          enriched.set(value.transaction_id, (enriched.get(value.transaction_id) ?? 0) + 1);
        } else {
          const id = m.headers?.[POISON_HEADER]?.toString() ?? '';
          dead.set(id, (dead.get(id) ?? 0) + 1);
        }
      }
      last = Date.now();
    },
  });
  const deadline = Date.now() + 5 * 60_000;
  const complete = () =>
    [...good].every((id) => enriched.has(id)) && [...poison.keys()].every((id) => dead.has(id));
  while (Date.now() < deadline && !(complete() && Date.now() - last > 5_000))
    await new Promise((r) => setTimeout(r, 500));
  await consumer.disconnect();
  return {
    lost: [...good].filter((id) => !enriched.has(id)).length,
    duplicated: [...enriched.values()].filter((n) => n > 1).length,
    poison_dead_lettered_once: [...poison.keys()].filter((id) => dead.get(id) === 1).length,
    poison_dead_lettered_twice: [...poison.keys()].filter((id) => (dead.get(id) ?? 0) > 1).length,
    poison_enriched: [...enriched.keys()].filter((id) => poison.has(id)).length,
    good_dead_lettered: [...dead.keys()].filter((id) => !poison.has(id)).length,
  };
}

/** A schema of the kind M5 abuses (an array of nulls), registered under its own subject. */
async function hostileSchema(registryUrl: string, raw: string): Promise<number> {
  const registry = new SchemaRegistry({ host: registryUrl });
  const schema = {
    type: 'record',
    name: 'Hostile',
    fields: [{ name: 'xs', type: { type: 'array', items: 'null' } }],
  };
  const { id } = await registry.register(
    { type: SchemaType.AVRO, schema: JSON.stringify(schema) },
    { subject: `${raw}-hostile-value`, compatibility: COMPATIBILITY.NONE },
  );
  return id;
}

async function waitReady(port: number): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null);
    if (res?.status === 200) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the worker on port ${port} was not ready within 120 s`);
}

async function dropSchema(): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`);
  await client.end();
}

main().catch((error: unknown) => {
  process.stderr.write(`soak failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
