/**
 * The brand-change listener: every worker instance refreshes its snapshot from the store when the
 * brand-change topic grows. The event is the signal; the store is the truth: a refresh reads every
 * mapping and brand changed since the snapshot's change number (milliseconds when nothing changed),
 * so a missed or reordered event costs nothing but time (SNAPSHOT_REFRESH_MS is the net).
 *
 * It uses no consumer group: it watches the topic's end offsets (one ListOffsets request per poll)
 * instead of reading records. A group per instance — the earlier design, with a random name per
 * start — left a group on the broker after every start, and a stable name would make a restarted
 * instance wait for its dead predecessor's session to expire before joining. Nothing of the event is
 * needed but that it exists.
 *
 * Failures: a poll or refresh that meets an unavailable broker or database is retried at the next
 * poll and reported on the RetryBoard as `brand-changes` until one succeeds; a bug is logged loudly.
 */
import type { Admin, Kafka } from 'kafkajs';
import { classifyError } from '../errors/classify.js';
import { backoffDelay, type RetryBoard } from '../errors/retry.js';
import type { Logger } from '../observability/logger.js';
import type { StoreSnapshot } from '../store/store-snapshot.js';
import { brandChangesTopicConfig, ensureTopics } from './kafka.js';

export const BRAND_CHANGES_LOOP = 'brand-changes';

export interface BrandChangeListenerOptions {
  readonly kafka: Kafka;
  readonly snapshots: Pick<StoreSnapshot, 'refresh'>;
  readonly topic: string;
  readonly log: Logger;
  /** SNAPSHOT_REFRESH_MS: a refresh at least this often, events or not. */
  readonly refreshMs: number;
  /** How often the topic's end offsets are read (default 200 ms). */
  readonly pollMs?: number;
  readonly retryMaxDelayMs: number;
  readonly board?: RetryBoard | undefined;
}

export class BrandChangeListener {
  private admin: Admin | null = null;
  private stopping = false;
  private running: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private end: bigint | null = null;
  private lastRefresh = 0;
  /** Times the topic grew since start (each one a refresh). */
  events = 0;

  constructor(private readonly options: BrandChangeListenerOptions) {}

  /** Creates the topic if missing and starts watching it (in the background until stop()). */
  async start(): Promise<void> {
    const { kafka, topic, log } = this.options;
    await this.admin?.disconnect().catch(() => undefined);
    const admin = kafka.admin();
    await admin.connect();
    try {
      await ensureTopics(admin, [brandChangesTopicConfig(topic)], log);
      // Where the topic ends now: what is before it, the snapshot loaded at start already holds.
      this.end = await this.endOffset(admin);
    } catch (error) {
      await admin.disconnect().catch(() => undefined);
      throw error;
    }
    this.admin = admin;
    // Covers what changed between the start-up load and now.
    await this.refresh('start');
    this.running ??= this.loop();
    log.info(
      { topic, pollMs: this.pollMs },
      'brand-change listener started (no consumer group: it watches end offsets)',
    );
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeUp?.();
    await this.running;
    await this.admin?.disconnect().catch(() => undefined);
    this.admin = null;
  }

  private get pollMs(): number {
    return this.options.pollMs ?? 200;
  }

  private async loop(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      let delay = this.pollMs;
      try {
        const end = await this.endOffset(this.admin as Admin);
        const grew = this.end === null || end > this.end;
        if (grew) this.events++;
        const due = Date.now() - this.lastRefresh >= this.options.refreshMs;
        if (grew || due) await this.refresh(grew ? 'event' : 'periodic');
        this.end = end;
        failures = 0;
        this.options.board?.recovered(BRAND_CHANGES_LOOP);
      } catch (error) {
        if (this.stopping) break;
        failures++;
        const failure = classifyError(error);
        this.options.board?.failing(BRAND_CHANGES_LOOP, failure);
        delay = Math.max(this.pollMs, backoffDelay(failures, 200, this.options.retryMaxDelayMs));
        const entry = { code: failure.code, err: failure.message, attempt: failures, delayMs: delay };
        if (failure.kind === 'infrastructure')
          this.options.log.warn(entry, 'brand-change listener: retrying');
        else
          this.options.log.error(entry, 'BUG: the brand-change listener met an unexpected error: retrying');
      }
      await this.pause(delay);
    }
  }

  private async endOffset(admin: Admin): Promise<bigint> {
    const offsets = await admin.fetchTopicOffsets(this.options.topic);
    return offsets.reduce((sum, p) => sum + BigInt(p.high), 0n);
  }

  private async refresh(why: string): Promise<void> {
    const result = await this.options.snapshots.refresh();
    this.lastRefresh = Date.now();
    if (why !== 'periodic' || result.rebuilt || result.mappings > 0) {
      this.options.log.debug({ why, ...result }, 'brand snapshot refresh');
    }
  }

  private pause(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
