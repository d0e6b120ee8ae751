/**
 * The worker's consumer group member: `read_committed`, offsets never auto-committed (each commits
 * inside its micro-batch's Kafka transaction), fetches bounded by MAX_IN_FLIGHT_BYTES, partitions
 * processed PARTITIONS_CONCURRENCY at a time.
 */
import type { Consumer, ConsumerRunConfig, Kafka } from 'kafkajs';
import type { Config } from '../config.js';

export type ConsumerConfig = Pick<
  Config,
  | 'consumerGroup' | 'batchMaxWaitMs' | 'maxInFlightBytes' | 'partitionsConcurrency' | 'kafkaSessionTimeoutMs'
  | 'kafkaRebalanceTimeoutMs' | 'retryMaxDelayMs' | 'inputTopics' | 'inputTopicPattern'
>; // prettier-ignore

export function createConsumer(kafka: Kafka, c: ConsumerConfig): Consumer {
  return kafka.consumer({
    groupId: c.consumerGroup,
    readUncommitted: false,
    maxWaitTimeInMs: c.batchMaxWaitMs,
    maxBytes: c.maxInFlightBytes,
    maxBytesPerPartition: Math.max(1, Math.floor(c.maxInFlightBytes / c.partitionsConcurrency)),
    sessionTimeout: c.kafkaSessionTimeoutMs,
    rebalanceTimeout: c.kafkaRebalanceTimeoutMs,
    heartbeatInterval: Math.max(500, Math.floor(c.kafkaSessionTimeoutMs / 10)),
    retry: { retries: 8, initialRetryTime: 300, maxRetryTime: c.retryMaxDelayMs },
  });
}

/** Subscribes to the input topics (or pattern) from the beginning and runs `eachBatch`. */
export async function consume(
  consumer: Consumer,
  c: ConsumerConfig,
  eachBatch: ConsumerRunConfig['eachBatch'],
): Promise<void> {
  await consumer.subscribe({
    topics: c.inputTopicPattern ? [c.inputTopicPattern] : [...c.inputTopics],
    fromBeginning: true,
  });
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: c.partitionsConcurrency,
    ...(eachBatch ? { eachBatch } : {}),
  });
}
