/**
 * Topics the service creates when they are missing, and what the broker will accept on them.
 */
import type { Admin, ITopicConfig } from 'kafkajs';
import type { Logger } from '../observability/logger.js';
import { ConfigResourceTypes } from './kafkajs.js';

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

/** The broker's default `message.max.bytes` (1 MiB + 12), for a topic that does not say. */
export const DEFAULT_MAX_MESSAGE_BYTES = 1_048_588;

/**
 * The largest record batch each topic accepts (`max.message.bytes`, which falls back to the broker's
 * `message.max.bytes`): a record that would not fit is refused by the broker for the whole request,
 * so the worker checks sizes before it sends.
 */
export async function maxMessageBytes(admin: Admin, topics: readonly string[]): Promise<Map<string, number>> {
  const described = await admin.describeConfigs({
    includeSynonyms: false,
    resources: topics.map((name) => ({
      type: ConfigResourceTypes.TOPIC,
      name,
      configNames: ['max.message.bytes'],
    })),
  });
  const limits = new Map<string, number>();
  for (const resource of described.resources) {
    const entry = resource.configEntries.find((e) => e.configName === 'max.message.bytes');
    const value = Number(entry?.configValue);
    limits.set(
      resource.resourceName,
      Number.isFinite(value) && value > 0 ? value : DEFAULT_MAX_MESSAGE_BYTES,
    );
  }
  return limits;
}
