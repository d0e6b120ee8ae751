/**
 * The Kafka client every part of the service uses: kafkajs' log lines go through our logger
 * (without message payloads), retries are bounded, and every request has a timeout.
 */
import type { Kafka as KafkaClient } from 'kafkajs';
import type { Logger } from '../observability/logger.js';
import { Kafka, logLevel } from './kafkajs.js';

export interface KafkaClientConfig {
  readonly kafkaBrokers: readonly string[];
  readonly kafkaClientId: string;
  readonly retryMaxDelayMs: number;
  readonly kafkaRequestTimeoutMs: number;
}

/**
 * kafkajs warns at every idempotent producer that is given bounded retries. Ours are bounded on
 * purpose: an unbounded producer retries in the background for ever after we have given up on it
 * (src/kafka/transactional-sink.ts), while a failed send only ever aborts its transaction.
 */
const EXPECTED_WARNINGS = [/Limiting retries for the idempotent producer/];

/**
 * A transaction that starts while the broker still writes the previous one's commit markers is told
 * CONCURRENT_TRANSACTIONS, and kafkajs retries it: every micro-batch right after a commit meets it
 * (hundreds a minute per busy partition), so it is not worth a warning.
 */
const EXPECTED_RESPONSE_ERRORS: readonly { message: RegExp; error: RegExp }[] = [
  {
    message: /^Response AddPartitionsToTxn\b/,
    error: /another concurrent operation on the same transaction/,
  },
];

/** Whether a kafkajs log line is one of the expected ones above (dropped, not logged). */
export function expectedKafkaWarning(message: string, error: unknown): boolean {
  if (EXPECTED_WARNINGS.some((pattern) => pattern.test(message))) return true;
  return EXPECTED_RESPONSE_ERRORS.some((e) => e.message.test(message) && e.error.test(String(error)));
}

export function createKafka(config: KafkaClientConfig, log: Logger, role?: string): KafkaClient {
  return new Kafka({
    clientId: role === undefined ? config.kafkaClientId : `${config.kafkaClientId}-${role}`,
    brokers: [...config.kafkaBrokers],
    logLevel: logLevel.WARN,
    requestTimeout: config.kafkaRequestTimeoutMs,
    connectionTimeout: Math.min(10_000, config.kafkaRequestTimeoutMs),
    logCreator: () => (entry) => {
      const { message, ...extra } = entry.log;
      if (expectedKafkaWarning(String(message), extra.error)) return;
      log.warn({ kafkajs: entry.namespace, role, ...pickSafe(extra) }, String(message));
    },
    retry: { initialRetryTime: 200, maxRetryTime: config.retryMaxDelayMs, retries: 8 },
  });
}

/** kafkajs log extras, minus anything that could carry message payloads. */
function pickSafe(extra: Record<string, unknown>): Record<string, unknown> {
  const { broker, clientId, groupId, topic, partition, error, retryCount, retryTime } = extra;
  return { broker, clientId, groupId, topic, partition, error, retryCount, retryTime };
}
