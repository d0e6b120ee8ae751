/**
 * `tx-enrich produce`: sends realistic sample transactions to a raw topic, keyed by customer_id,
 * Avro through the registry (or JSON), at a given rate, with an optional share of invalid records.
 */
import { parseArgs } from 'node:util';
import type { Message } from 'kafkajs';
import { Kafka, Partitioners, logLevel } from '../kafka/kafkajs.js';
import { loadConfigOrExit } from '../config.js';
import { loadReferenceData } from '../data/load.js';
import { RegistryCodec } from '../schema-registry/codec.js';
import { sleep } from '../errors/retry.js';
import { generateSamples } from '../samples/generate.js';

const HELP = `usage: tx-enrich produce --count N [--rate R] [--bad-share P] [--topic T] [--format avro|json|mixed]
                         [--seed S] [--tenant ID]

Sends N realistic sample transactions (MENA and global merchants, English and Arabic forms,
transfers, salaries, fees, monthly subscriptions) to the raw topic (default: first INPUT_TOPICS),
keyed by customer_id.
  --rate R        records per second (default: as fast as possible)
  --bad-share P   share in [0, 1] of deliberately invalid records (sent as JSON)
  --format F      avro (Confluent wire format via the registry), json, or mixed (default mixed)
  --tenant ID     set the tenant-id header
  --partitions N  partitions of the topic if it has to be created (default 6)
`;

export async function runProduceCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      count: { type: 'string' },
      rate: { type: 'string' },
      'bad-share': { type: 'string', default: '0' },
      topic: { type: 'string' },
      format: { type: 'string', default: 'mixed' },
      seed: { type: 'string', default: '42' },
      tenant: { type: 'string' },
      partitions: { type: 'string', default: '6' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const count = Number(values.count);
  const rate = values.rate === undefined ? Infinity : Number(values.rate);
  const badShare = Number(values['bad-share']);
  const seed = Number(values.seed);
  const partitions = Number(values.partitions);
  const problems = [
    !Number.isInteger(count) || count < 1
      ? `--count must be a positive integer, got "${values.count ?? ''}"`
      : null,
    !(rate > 0) ? `--rate must be a positive number, got "${values.rate}"` : null,
    !(badShare >= 0 && badShare <= 1)
      ? `--bad-share must be between 0 and 1, got "${values['bad-share']}"`
      : null,
    !['avro', 'json', 'mixed'].includes(values.format)
      ? `--format must be avro, json or mixed, got "${values.format}"`
      : null,
    !Number.isInteger(seed) ? `--seed must be an integer, got "${values.seed}"` : null,
    !Number.isInteger(partitions) || partitions < 1 ? `--partitions must be a positive integer` : null,
  ].filter((p): p is string => p !== null);
  if (problems.length > 0) {
    process.stderr.write(`tx-enrich produce: ${problems.join('; ')}\n`);
    return 2;
  }
  const config = loadConfigOrExit();
  const topic = values.topic ?? config.inputTopics[0] ?? 'transactions.raw';
  const kafka = new Kafka({
    clientId: `${config.kafkaClientId}-produce`,
    brokers: [...config.kafkaBrokers],
    logLevel: logLevel.WARN,
  });
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  const codec = new RegistryCodec(config.schemaRegistryUrl);
  await producer.connect();
  const admin = kafka.admin();
  try {
    await admin.connect();
    if (!(await admin.listTopics()).includes(topic)) {
      await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: partitions }] });
      process.stderr.write(`created topic ${topic} with ${partitions} partitions\n`);
    }
    const schemaId = values.format === 'json' ? 0 : await codec.register(topic, 'raw-transaction');
    const data = loadReferenceData();
    const batchSize = Number.isFinite(rate) ? Math.max(1, Math.min(500, Math.round(rate / 10))) : 500;
    const started = Date.now();
    let sent = 0;
    let batch: Message[] = [];
    const headers = values.tenant ? { 'tenant-id': values.tenant } : undefined;
    const flush = async (): Promise<void> => {
      if (batch.length === 0) return;
      await producer.send({ topic, messages: batch });
      sent += batch.length;
      batch = [];
      if (Number.isFinite(rate)) {
        const due = started + (sent / rate) * 1000;
        if (due > Date.now()) await sleep(due - Date.now());
      }
      if (process.stderr.isTTY) process.stderr.write(`\r${sent}/${count} sent`);
    };
    let i = 0;
    for (const sample of generateSamples(data, count, { seed, badShare })) {
      const value = sample.value as { customer_id?: unknown };
      const key = typeof value.customer_id === 'string' ? value.customer_id : null;
      const useAvro =
        sample.valid && (values.format === 'avro' || (values.format === 'mixed' && i % 2 === 0));
      batch.push({
        key,
        value: useAvro ? await codec.encode(schemaId, sample.value) : JSON.stringify(sample.value),
        ...(headers ? { headers } : {}),
      });
      i++;
      if (batch.length >= batchSize) await flush();
    }
    await flush();
    const seconds = (Date.now() - started) / 1000;
    process.stderr.write(
      `${process.stderr.isTTY ? '\n' : ''}sent ${sent} records to ${topic} in ${seconds.toFixed(1)} s\n`,
    );
    return 0;
  } finally {
    await admin.disconnect();
    await producer.disconnect();
  }
}
