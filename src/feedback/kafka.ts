/**
 * What the feedback side adds to src/kafka: its clients (one per role, through the service's Kafka
 * client factory) and the brand-change topic's configuration.
 */
import type { ITopicConfig, Kafka } from 'kafkajs';
import type { Config } from '../config.js';
import { createKafka as createServiceKafka } from '../kafka/client.js';
import type { Logger } from '../observability/logger.js';

export { ensureTopics } from '../kafka/topics.js';

export type FeedbackKafkaConfig = Pick<
  Config,
  'kafkaBrokers' | 'kafkaClientId' | 'retryMaxDelayMs' | 'kafkaRequestTimeoutMs'
>;

export function createKafka(config: FeedbackKafkaConfig, log: Logger, role: string): Kafka {
  return createServiceKafka(config, log, role);
}

/** The brand-change topic: compacted (the latest event per brand or mapping key is what matters). */
export function brandChangesTopicConfig(topic: string): ITopicConfig {
  return {
    topic,
    numPartitions: 1,
    configEntries: [{ name: 'cleanup.policy', value: 'compact' }],
  };
}
