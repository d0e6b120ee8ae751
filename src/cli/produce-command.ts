/**
 * `tx-enrich produce`: sends realistic sample transactions to a raw topic, keyed by customer_id,
 * Avro through the registry (or JSON), at a given rate, with an optional share of invalid records.
 */
import type { Message } from 'kafkajs';
import { Kafka, Partitioners, logLevel } from '../kafka/kafkajs.js';
import { loadConfigOrExit } from '../config.js';
import { loadReferenceData } from '../data/load.js';
import { RegistryCodec } from '../schema-registry/codec.js';
import { sleep } from '../errors/retry.js';
import { generateSamples } from '../samples/generate.js';
import {
  defineCommand,
  option,
  runCommand,
  UsageError,
  type CommandContext,
  type OptionValues,
} from './command-kit.js';

const HELP = `usage: tx-enrich produce --count N [--rate R] [--bad-share P] [--topic T] [--format avro|json|mixed]
                         [--seed S] [--tenant ID]

Sends N realistic sample transactions (MENA and global merchants, English and Arabic forms,
transfers, salaries, fees, monthly subscriptions) to the raw topic (default: first INPUT_TOPICS),
keyed by customer_id.
  --rate R        records per second (default: as fast as possible)
  --bad-share P   share in [0, 1] of deliberately invalid records (sent as JSON)
  --format F      avro (Confluent wire format via the registry), json, or mixed (default mixed)
  --tenant ID     set the tenant-id header (1-64 of A-Z a-z 0-9 . _ -)
  --partitions N  partitions of the topic if it has to be created (default 6)
`;

const PRODUCE_OPTIONS = {
  count: option.integer({ min: 1 }),
  rate: option.number({ min: 0, exclusive: true, rule: 'must be a positive number' }),
  'bad-share': option.number({ min: 0, max: 1, rule: 'must be a number between 0 and 1' }, 0),
  topic: option.text(),
  format: option.choice(['avro', 'json', 'mixed'], 'mixed'),
  seed: option.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }, 42),
  tenant: option.tenant(),
  partitions: option.integer({ min: 1, max: 10_000 }, 6),
} as const;

export const PRODUCE_COMMAND = defineCommand({ help: HELP, options: PRODUCE_OPTIONS, run: produce });

export function runProduceCommand(argv: string[]): Promise<number> {
  return runCommand('tx-enrich produce', PRODUCE_COMMAND, argv);
}

async function produce({ values }: CommandContext<OptionValues<typeof PRODUCE_OPTIONS>>): Promise<number> {
  if (values.count === undefined) throw new UsageError('--count is required');
  const count = values.count;
  const rate = values.rate ?? Infinity;
  const badShare = values['bad-share'];
  const seed = values.seed;
  const partitions = values.partitions;
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
