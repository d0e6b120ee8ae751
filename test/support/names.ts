import { randomBytes } from 'node:crypto';

let counter = 0;

/**
 * A name no other test (or test run, or worker) uses: for topics, subjects, consumer groups and
 * transactional ids, so tests never see each other's records even on a shared, long-running broker.
 * Only Kafka-safe characters: [A-Za-z0-9._-].
 */
export function uniqueName(prefix: string): string {
  const safe = prefix.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 120);
  counter += 1;
  return `${safe}-${Date.now().toString(36)}-${process.pid}-${counter}-${randomBytes(3).toString('hex')}`;
}
