/**
 * The feedback side of a worker process: the feedback consumer, the outbox relay and the
 * brand-change listener, started together and stopped together, their retry loops reported on the
 * caller's RetryBoard; and the operator's (CLI) way to publish what a change recorded.
 */
import type { Registry } from 'prom-client';
import type { Config } from '../config.js';
import { RetryBoard, withRetry } from '../errors/retry.js';
import type { Logger } from '../observability/logger.js';
import { RegistryCodec } from '../schema-registry/codec.js';
import { sqlChangeStore } from '../store/change-store.js';
import type { Database } from '../store/db.js';
import { outboxCounts } from '../store/outbox.js';
import type { StoreSnapshot } from '../store/store-snapshot.js';
import { BRAND_CHANGES_LOOP, BrandChangeListener } from './brand-changes.js';
import { FeedbackConsumer } from './consumer.js';
import { FEEDBACK_LOOP } from './handle-record.js';
import { createKafka } from './kafka.js';
import type { ApplyContext } from './outcome.js';
import { OutboxRelay, RELAY_LOOP } from './relay.js';

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
  | 'defaultTenant'
  | 'logoBaseUrl'
  | 'globalCorrectionQuorum'
  | 'globalCorrectionMinTenants'
  | 'outboxPollMs'
  | 'snapshotRefreshMs'
  | 'retryMaxDelayMs'
  | 'kafkaSessionTimeoutMs'
  | 'kafkaRebalanceTimeoutMs'
  | 'kafkaRequestTimeoutMs'
>;

/** The loops the feedback services report on the board. */
export const FEEDBACK_LOOPS = [FEEDBACK_LOOP, RELAY_LOOP, BRAND_CHANGES_LOOP] as const;

/** A feedback loop failing this long makes the process not ready (unless the caller says otherwise). */
export const NOT_READY_AFTER_MS = 30_000;

export interface FeedbackServiceOptions {
  /** Where the loops report that they are retrying (shared with the worker's own loops). */
  readonly board?: RetryBoard;
  /** The worker's metrics registry (for `txenrich_outbox_dead_lettered_total`). */
  readonly registry?: Registry;
  readonly notReadyAfterMs?: number;
}

export interface FeedbackServices {
  readonly consumer: FeedbackConsumer;
  readonly relay: OutboxRelay;
  readonly listener: BrandChangeListener;
  readonly apply: ApplyContext;
  readonly board: RetryBoard;
  /** Starts the relay, the brand-change listener and the consumer; gives up when stop() is called. */
  start(): Promise<void>;
  /** null when ready; else which feedback loop has been failing past the bound, and why. */
  readiness(): string | null;
  stop(): Promise<void>;
}

export function createRelay(
  config: FeedbackConfig,
  log: Logger,
  db: Database,
  options: { retryMaxDelayMs?: number; board?: RetryBoard; registry?: Registry } = {},
): OutboxRelay {
  const retryMaxDelayMs = options.retryMaxDelayMs ?? config.retryMaxDelayMs;
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
    board: options.board,
    registry: options.registry,
  });
}

export function applyContext(
  config: Pick<FeedbackConfig, 'logoBaseUrl' | 'globalCorrectionQuorum' | 'globalCorrectionMinTenants'>,
  log: Logger,
  db: Database,
  snapshots: StoreSnapshot,
  onCommitted?: () => void,
): ApplyContext {
  return {
    store: sqlChangeStore(db, snapshots),
    logoBaseUrl: config.logoBaseUrl ?? '',
    quorum: config.globalCorrectionQuorum,
    minTenants: config.globalCorrectionMinTenants,
    log,
    ...(onCommitted ? { onCommitted } : {}),
  };
}

/** The three services, not started yet (so that a stop during start can reach them). */
export function createFeedbackServices(
  config: FeedbackConfig,
  log: Logger,
  db: Database,
  snapshots: StoreSnapshot,
  options: FeedbackServiceOptions = {},
): FeedbackServices {
  const board = options.board ?? new RetryBoard();
  const relay = createRelay(config, log, db, {
    board,
    ...(options.registry ? { registry: options.registry } : {}),
  });
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
    log,
    refreshMs: config.snapshotRefreshMs,
    retryMaxDelayMs: config.retryMaxDelayMs,
    board,
  });
  const consumer = new FeedbackConsumer({
    kafka: createKafka(config, log, 'feedback'),
    codec: new RegistryCodec(config.schemaRegistryUrl),
    apply,
    topic: config.feedbackTopic,
    group: config.consumerGroup,
    defaultTenant: config.defaultTenant,
    log,
    board,
    retryMaxDelayMs: config.retryMaxDelayMs,
    sessionTimeoutMs: config.kafkaSessionTimeoutMs,
    rebalanceTimeoutMs: config.kafkaRebalanceTimeoutMs,
  });
  let stopping = false;
  let starting: Promise<void> | null = null;
  const notReadyAfterS = (options.notReadyAfterMs ?? NOT_READY_AFTER_MS) / 1000;
  return {
    consumer,
    relay,
    listener,
    apply,
    board,
    start() {
      starting ??= (async () => {
        relay.start();
        const retry = (loop: string) => ({
          maxDelayMs: config.retryMaxDelayMs,
          board,
          loop,
          shouldStop: () => stopping,
          onRetry: (attempt: number, delayMs: number, error: unknown) =>
            log.warn(
              { loop, attempt, delayMs, err: (error as Error).message },
              'starting the feedback pipeline failed: retrying',
            ),
        });
        await withRetry(
          'starting the brand-change listener',
          () => listener.start(),
          retry(BRAND_CHANGES_LOOP),
        );
        if (stopping) return;
        await withRetry('starting the feedback consumer', () => consumer.start(), retry(FEEDBACK_LOOP));
      })();
      return starting;
    },
    readiness() {
      const failing = board
        .entries()
        .filter((e) => (FEEDBACK_LOOPS as readonly string[]).includes(e.loop) && e.seconds >= notReadyAfterS)
        .sort((a, b) => b.seconds - a.seconds)[0];
      return failing ? `${failing.loop} has been retrying for ${Math.round(failing.seconds)} s` : null;
    },
    async stop() {
      stopping = true;
      // A stop during the start: let the start finish (its retries give up now), then stop what it
      // started — else a listener or consumer started after this stop keeps the process alive.
      await starting?.catch(() => undefined);
      await Promise.allSettled([consumer.stop(), listener.stop()]);
      await relay.stop();
    },
  };
}

/** Creates and starts the feedback services (stopping what started if the start fails). */
export async function startFeedbackServices(
  config: FeedbackConfig,
  log: Logger,
  db: Database,
  snapshots: StoreSnapshot,
  options: FeedbackServiceOptions = {},
): Promise<FeedbackServices> {
  const services = createFeedbackServices(config, log, db, snapshots, options);
  try {
    await services.start();
  } catch (error) {
    await services.stop();
    throw error;
  }
  return services;
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
  const relay = createRelay(config, log, db, { retryMaxDelayMs: 2_000 });
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
