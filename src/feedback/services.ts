/**
 * The feedback side of a worker process: the feedback consumer, the outbox relay and the
 * brand-change listener, started together and stopped together; and the operator's (CLI) way to
 * publish what a change recorded.
 */
import type { Config } from '../config.js';
import type { Logger } from '../observability/logger.js';
import { withRetry } from '../errors/retry.js';
import { RegistryCodec } from '../schema-registry/codec.js';
import type { Database } from '../store/db.js';
import type { StoreSnapshot } from '../store/store-snapshot.js';
import type { ApplyContext } from './apply.js';
import { BrandChangeListener } from './brand-changes.js';
import { FeedbackConsumer } from './consumer.js';
import { createKafka } from './kafka.js';
import { outboxCounts } from './outbox.js';
import { OutboxRelay } from './relay.js';

export type FeedbackConfig = Pick<
  Config,
  | 'kafkaBrokers'
  | 'kafkaClientId'
  | 'schemaRegistryUrl'
  | 'feedbackTopic'
  | 'reenrichedTopic'
  | 'brandChangesTopic'
  | 'dlqTopic'
  | 'consumerGroup'
  | 'logoBaseUrl'
  | 'globalCorrectionQuorum'
  | 'outboxPollMs'
  | 'snapshotRefreshMs'
  | 'retryMaxDelayMs'
  | 'kafkaSessionTimeoutMs'
  | 'kafkaRebalanceTimeoutMs'
>;

export interface FeedbackServices {
  readonly consumer: FeedbackConsumer;
  readonly relay: OutboxRelay;
  readonly listener: BrandChangeListener;
  readonly apply: ApplyContext;
  stop(): Promise<void>;
}

export function createRelay(
  config: FeedbackConfig,
  log: Logger,
  db: Database,
  retryMaxDelayMs = config.retryMaxDelayMs,
) {
  return new OutboxRelay({
    kafka: createKafka({ ...config, retryMaxDelayMs }, log, 'outbox-relay'),
    db,
    codec: new RegistryCodec(config.schemaRegistryUrl),
    log,
    topics: {
      reenriched: config.reenrichedTopic,
      brandChanges: config.brandChangesTopic,
      deadLetters: config.dlqTopic,
    },
    group: config.consumerGroup,
    pollMs: config.outboxPollMs,
    retryMaxDelayMs,
  });
}

export function applyContext(
  config: Pick<FeedbackConfig, 'logoBaseUrl' | 'globalCorrectionQuorum'>,
  log: Logger,
  db: Database,
  snapshots: StoreSnapshot,
  onCommitted?: () => void,
): ApplyContext {
  return {
    db,
    snapshots,
    logoBaseUrl: config.logoBaseUrl ?? '',
    quorum: config.globalCorrectionQuorum,
    log,
    ...(onCommitted ? { onCommitted } : {}),
  };
}

/** Starts the relay, the brand-change listener and the feedback consumer (in that order). */
export async function startFeedbackServices(
  config: FeedbackConfig,
  log: Logger,
  db: Database,
  snapshots: StoreSnapshot,
): Promise<FeedbackServices> {
  const relay = createRelay(config, log, db);
  const apply = applyContext(config, log, db, snapshots, () => {
    relay.wake();
    // This instance sees its own change at once; the others through the brand-change topic.
    snapshots
      .refresh()
      .catch((error: unknown) =>
        log.warn({ err: (error as Error).message }, 'brand snapshot refresh failed: will retry'),
      );
  });
  const listener = new BrandChangeListener({
    kafka: createKafka(config, log, 'brand-changes'),
    snapshots,
    topic: config.brandChangesTopic,
    group: config.consumerGroup,
    log,
    refreshMs: config.snapshotRefreshMs,
    retryMaxDelayMs: config.retryMaxDelayMs,
  });
  const consumer = new FeedbackConsumer({
    kafka: createKafka(config, log, 'feedback'),
    codec: new RegistryCodec(config.schemaRegistryUrl),
    apply,
    topic: config.feedbackTopic,
    group: config.consumerGroup,
    log,
    retryMaxDelayMs: config.retryMaxDelayMs,
    sessionTimeoutMs: config.kafkaSessionTimeoutMs,
    rebalanceTimeoutMs: config.kafkaRebalanceTimeoutMs,
  });
  relay.start();
  const retry = {
    maxDelayMs: config.retryMaxDelayMs,
    onRetry: (attempt: number, delayMs: number, error: unknown) =>
      log.warn(
        { attempt, delayMs, err: (error as Error).message },
        'starting the feedback pipeline failed: retrying',
      ),
  };
  try {
    await withRetry('starting the brand-change listener', () => listener.start(), retry);
    await withRetry('starting the feedback consumer', () => consumer.start(), retry);
  } catch (error) {
    await Promise.allSettled([consumer.stop(), listener.stop(), relay.stop()]);
    throw error;
  }
  return {
    consumer,
    relay,
    listener,
    apply,
    async stop() {
      await Promise.allSettled([consumer.stop(), listener.stop()]);
      await relay.stop();
    },
  };
}

/**
 * For the CLI, after a change committed: publish the outbox now if no worker's relay is active on
 * this store; otherwise the worker's relay does it within OUTBOX_POLL_MS. Never throws: the change
 * is committed either way, and the outbox keeps what is not yet published.
 */
export async function publishFromCli(
  config: FeedbackConfig,
  log: Logger,
  db: Database,
): Promise<{ published: number | null; pending: number; error?: string }> {
  const relay = createRelay(config, log, db, 2_000);
  try {
    const published = await withDeadline(relay.drainOnce(), 60_000);
    const { pending } = await outboxCounts(db);
    return { published, pending };
  } catch (error) {
    const { pending } = await outboxCounts(db).catch(() => ({ pending: -1 }));
    return { published: 0, pending, error: (error as Error).message };
  } finally {
    await relay.stop().catch(() => undefined);
  }
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Kafka did not answer within ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
