/**
 * The brand-change listener: every worker instance reads the compacted brand-change topic (with a
 * consumer group of its own, so each instance sees every event) and refreshes its snapshot from the
 * store when an event is newer than what it has. The event is the signal; the store is the truth:
 * the refresh reads every mapping and brand changed since the snapshot's change number, so a lost or
 * reordered event costs nothing but time (a periodic refresh, SNAPSHOT_REFRESH_MS, is the net).
 */
import { randomBytes } from 'node:crypto';
import type { Consumer, Kafka } from 'kafkajs';
import type { Logger } from '../observability/logger.js';
import type { StoreSnapshot } from '../store/store-snapshot.js';
import { brandChangesTopicConfig, ensureTopics } from './kafka.js';

export interface BrandChangeListenerOptions {
  readonly kafka: Kafka;
  readonly snapshots: StoreSnapshot;
  readonly topic: string;
  readonly group: string;
  readonly log: Logger;
  readonly refreshMs: number;
  readonly retryMaxDelayMs: number;
}

export class BrandChangeListener {
  private consumer: Consumer | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopping = false;
  /** Events received since start. */
  events = 0;

  constructor(private readonly options: BrandChangeListenerOptions) {}

  async start(): Promise<void> {
    const { kafka, topic, log, snapshots } = this.options;
    // A retried start leaves no consumer of the failed attempt behind.
    await this.consumer?.disconnect().catch(() => undefined);
    const admin = kafka.admin();
    await admin.connect();
    try {
      await ensureTopics(admin, [brandChangesTopicConfig(topic)], log);
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
    // A group per instance, never committed: every instance reads every event, from the latest on
    // (the snapshot it loaded at start already holds everything older; the join triggers a refresh
    // that covers the gap between the load and the join).
    const groupId = `${this.options.group}-brand-changes-${randomBytes(6).toString('hex')}`;
    const consumer = kafka.consumer({
      groupId,
      readUncommitted: false,
      maxWaitTimeInMs: 100,
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
      retry: { retries: 8, initialRetryTime: 300, maxRetryTime: this.options.retryMaxDelayMs },
    });
    this.consumer = consumer;
    consumer.on(consumer.events.GROUP_JOIN, () => this.refresh('joined'));
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (!this.stopping) {
        log.error({ err: payload.error.message, restart: payload.restart }, 'brand-change listener crashed');
      }
    });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: false });
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ message }) => {
        this.events++;
        const version = versionOf(message.value);
        if (version === null || version > snapshots.version) this.refresh('event');
      },
    });
    this.timer = setInterval(() => this.refresh('periodic'), this.options.refreshMs);
    this.timer.unref();
    log.info({ topic, groupId }, 'brand-change listener started');
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.consumer?.disconnect().catch(() => undefined);
  }

  /** Refreshes the snapshot (concurrent calls fold into one); failures are logged and retried later. */
  refresh(why: string): void {
    if (this.stopping) return;
    this.options.snapshots.refresh().catch((error: unknown) => {
      this.options.log.warn(
        { why, err: (error as Error).message },
        'brand snapshot refresh failed: will retry',
      );
    });
  }
}

function versionOf(value: Buffer | null): number | null {
  if (!value) return null;
  try {
    const v = (JSON.parse(value.toString('utf8')) as { version?: unknown }).version;
    return typeof v === 'number' ? v : null;
  } catch {
    return null;
  }
}
