/**
 * `tx-enrich tail <topic>`: prints a topic's committed records, decoded, as a readable table (brand,
 * Arabic name, category) or as JSON Lines. Reads with a throw-away consumer group, commits nothing.
 */
import { randomUUID } from 'node:crypto';
import type { KafkaMessage } from 'kafkajs';
import { Kafka, logLevel } from '../kafka/kafkajs.js';
import { loadConfigOrExit } from '../config.js';
import { HEADER, headerText } from '../kafka/headers.js';
import { AVRO_MAGIC_BYTE, RegistryCodec } from '../schema-registry/codec.js';
import { defineCommand, option, runCommand, type CommandContext, type OptionValues } from './command-kit.js';

const HELP = `usage: tx-enrich tail <topic> [--json] [--from-end] [--count N] [--timeout SECONDS]

Prints the committed records of a topic, decoded (Avro through the registry, or JSON).
  --json        one JSON object per line (value plus key, partition, offset, headers)
  --from-end    only records produced from now on (default: from the beginning)
  --count N     stop after N records
  --timeout S   stop after S seconds without a new record (default: run until Ctrl-C)
`;

const TAIL_OPTIONS = {
  json: option.flag(),
  'from-end': option.flag(),
  count: option.integer({ min: 1 }),
  timeout: option.number({ min: 0, exclusive: true, rule: 'must be a positive number of seconds' }),
} as const;

export const TAIL_COMMAND = defineCommand({
  help: HELP,
  options: TAIL_OPTIONS,
  args: [{ name: 'topic', missing: 'needs the topic to read' }],
  run: tail,
});

export function runTailCommand(argv: string[]): Promise<number> {
  return runCommand('tx-enrich tail', TAIL_COMMAND, argv);
}

async function tail({ values, args }: CommandContext<OptionValues<typeof TAIL_OPTIONS>>): Promise<number> {
  const topic = args[0] ?? '';
  const limit = values.count ?? Infinity;
  const idleSeconds = values.timeout ?? Infinity;
  const config = loadConfigOrExit();
  const codec = new RegistryCodec(config.schemaRegistryUrl);
  const kafka = new Kafka({
    clientId: `${config.kafkaClientId}-tail`,
    brokers: [...config.kafkaBrokers],
    logLevel: logLevel.ERROR,
  });
  await waitForTopic(kafka, topic);
  const consumer = kafka.consumer({ groupId: `tx-enrich-tail-${randomUUID()}`, readUncommitted: false });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: !values['from-end'] });
  let seen = 0;
  let lastSeen = Date.now();
  if (!values.json)
    process.stdout.write(
      row(['partition:offset', 'brand', 'brand (ar)', 'category / sub-category', 'recurring', 'tenant']) +
        '\n',
    );
  const done = new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (seen >= limit || Date.now() - lastSeen > idleSeconds * 1000) {
        clearInterval(timer);
        resolve();
      }
    }, 200);
    process.once('SIGINT', () => {
      clearInterval(timer);
      resolve();
    });
  });
  await consumer.run({
    eachMessage: async ({ partition, message }) => {
      if (seen >= limit) return;
      seen++;
      lastSeen = Date.now();
      const value = await decode(message, codec);
      if (values.json) {
        process.stdout.write(
          JSON.stringify({
            partition,
            offset: message.offset,
            key: message.key?.toString('utf8') ?? null,
            headers: textHeaders(message),
            value,
          }) + '\n',
        );
      } else {
        process.stdout.write(describe(partition, message, value) + '\n');
      }
    },
  });
  await done;
  await consumer.disconnect();
  return 0;
}

/** The worker creates its output topics on start; a tail started alongside it waits for them. */
async function waitForTopic(kafka: Kafka, topic: string): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    for (let waited = 0; !(await admin.listTopics()).includes(topic); waited += 500) {
      if (waited === 0) process.stderr.write(`waiting for topic ${topic} to exist...\n`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    await admin.disconnect();
  }
}

async function decode(message: KafkaMessage, codec: RegistryCodec): Promise<unknown> {
  const value = message.value;
  if (!value || value.length === 0) return null;
  if (value[0] === AVRO_MAGIC_BYTE) {
    const decoded = await codec.decode(value);
    return decoded.ok ? decoded.value : { undecodable: decoded.error.message };
  }
  try {
    return JSON.parse(value.toString('utf8')) as unknown;
  } catch {
    return { undecodable: `not JSON (${value.length} bytes)` };
  }
}

function describe(partition: number, message: KafkaMessage, value: unknown): string {
  const v = (value ?? {}) as Record<string, unknown>;
  const error = headerText(message.headers, HEADER.errorCode);
  if (error) {
    return row([
      `${partition}:${message.offset}`,
      `DEAD LETTER ${error}`,
      '',
      `${headerText(message.headers, HEADER.errorField) ?? ''}: ${headerText(message.headers, HEADER.errorMessage) ?? ''}`,
      '',
      '',
    ]);
  }
  return row([
    `${partition}:${message.offset}`,
    String(v.brand_name ?? '-'),
    String(v.brand_name_ar ?? ''),
    v.category_name
      ? `${String(v.category_name)} / ${String(v.sub_category_name)}`
      : String(v.raw_description ?? ''),
    v.recurring === undefined ? '' : v.recurring ? 'yes' : 'no',
    headerText(message.headers, HEADER.tenant) ?? '',
  ]);
}

const WIDTHS = [16, 28, 22, 52, 9, 10];

function row(cells: string[]): string {
  return cells.map((c, i) => truncate(c, WIDTHS[i] ?? 20).padEnd(WIDTHS[i] ?? 20)).join(' ');
}

function truncate(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

function textHeaders(message: KafkaMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(message.headers ?? {})) out[name] = headerText(message.headers, name) ?? '';
  return out;
}
