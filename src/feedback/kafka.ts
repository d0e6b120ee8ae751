/**
 * Kafka plumbing shared by the feedback consumer, the outbox relay and the brand-change listener:
 * the client (logging through our logger, never message payloads) and topic creation.
 */
import type { Admin, ITopicConfig } from 'kafkajs';
import { Kafka, logLevel as KafkaLogLevel } from '../kafka/kafkajs.js';
import type { Config } from '../config.js';
import type { Logger } from '../observability/logger.js';

export type FeedbackKafkaConfig = Pick<Config, 'kafkaBrokers' | 'kafkaClientId' | 'retryMaxDelayMs'>;

export function createKafka(config: FeedbackKafkaConfig, log: Logger, role: string): Kafka {
  return new Kafka({
    clientId: `${config.kafkaClientId}-${role}`,
    brokers: [...config.kafkaBrokers],
    logLevel: KafkaLogLevel.WARN,
    logCreator: () => (entry) => {
      const { message, broker, groupId, topic, partition, error } = entry.log as Record<string, unknown>;
      log.warn({ kafkajs: entry.namespace, role, broker, groupId, topic, partition, error }, String(message));
    },
    retry: { initialRetryTime: 200, maxRetryTime: config.retryMaxDelayMs, retries: 8 },
  });
}

/** Creates the topics that do not exist yet (several instances may race: "already exists" is fine). */
export async function ensureTopics(
  admin: Admin,
  topics: readonly ITopicConfig[],
  log: Logger,
): Promise<void> {
  const existing = new Set(await admin.listTopics());
  const wanted = topics.filter((t) => !existing.has(t.topic));
  if (wanted.length === 0) return;
  try {
    await admin.createTopics({ waitForLeaders: true, topics: [...wanted] });
    log.info({ topics: wanted.map((t) => t.topic) }, 'created missing topics');
  } catch (error) {
    if (!/already exists/i.test(String((error as Error).message ?? error))) throw error;
  }
}

/** The brand-change topic: compacted (the latest event per brand or mapping key is what matters). */
export function brandChangesTopicConfig(topic: string): ITopicConfig {
  return {
    topic,
    numPartitions: 1,
    configEntries: [{ name: 'cleanup.policy', value: 'compact' }],
  };
}
