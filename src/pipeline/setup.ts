/**
 * What the worker makes sure of before it consumes: the broker answers, the output and dead-letter
 * topics exist, their size limits are known, and the output schema is registered. Each step is
 * retried through infrastructure failures (reported as the `startup` loop) until the worker stops.
 */
import type { Admin } from 'kafkajs';
import type { Config } from '../config.js';
import { withRetry, type RetryBoard } from '../errors/retry.js';
import { ensureTopics, maxMessageBytes } from '../kafka/topics.js';
import type { Logger } from '../observability/logger.js';
import type { RegistryCodec } from '../schema-registry/codec.js';

export interface OutputSetup {
  readonly outputSchemaId: number;
  /** `max.message.bytes` of the output and dead-letter topics. */
  readonly outputMaxBytes: number;
  readonly dlqMaxBytes: number;
}

export async function prepareOutput(
  admin: Admin,
  codec: RegistryCodec,
  config: Pick<Config, 'outputTopic' | 'dlqTopic' | 'retryMaxDelayMs'>,
  log: Logger,
  options: { board: RetryBoard; shouldStop: () => boolean },
): Promise<OutputSetup> {
  const { outputTopic, dlqTopic } = config;
  const step = <T>(what: string, fn: () => Promise<T>) =>
    withRetry(what, fn, { maxDelayMs: config.retryMaxDelayMs, ...options, loop: 'startup' });
  await step('connecting to Kafka', () => admin.connect());
  const topics = [
    { topic: outputTopic, numPartitions: 6 },
    { topic: dlqTopic, numPartitions: 1 },
  ];
  await step('creating output topics', () => ensureTopics(admin, topics, log));
  const limits = await step('reading topic limits', () => maxMessageBytes(admin, [outputTopic, dlqTopic]));
  const outputSchemaId = await step('registering the output schema', () =>
    codec.register(outputTopic, 'enriched-transaction'),
  );
  log.info({ output: outputTopic, dlq: dlqTopic, limits: Object.fromEntries(limits) }, 'output ready');
  return {
    outputSchemaId,
    outputMaxBytes: limits.get(outputTopic) as number,
    dlqMaxBytes: limits.get(dlqTopic) as number,
  };
}
