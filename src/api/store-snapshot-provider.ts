/**
 * The API's snapshot when the brand store is PostgreSQL (`DATABASE_URL`): the same catalog, operator
 * edits and learned mappings the worker enriches with, refreshed every SNAPSHOT_REFRESH_MS. While the
 * store cannot be read (at start, or when a refresh fails) the provider reports not ready and the
 * enrichment routes answer 503, as the spec's "brand store unavailable" case wants.
 */
import type { Config } from '../config.js';
import type { ReferenceData } from '../data/schemas.js';
import type { Snapshot } from '../engine/snapshot.js';
import type { Logger } from '../observability/logger.js';
import type { Database } from '../store/db.js';
import { StoreSnapshot } from '../store/store-snapshot.js';
import { openStore, prepareStore } from '../store/store.js';
import type { SnapshotProvider } from './snapshot-provider.js';

export class StoreSnapshotProvider implements SnapshotProvider {
  private snapshots: StoreSnapshot | null = null;
  private db: Database | null = null;
  private reason: string | null = 'brand store not loaded yet';
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly config: Config,
    private readonly files: ReferenceData,
    private readonly log: Logger,
  ) {}

  current(): Snapshot | null {
    return this.reason === null && this.snapshots ? this.snapshots.current() : null;
  }

  readiness(): string | null {
    return this.reason;
  }

  /** Opens the store (retrying in the background until it answers) and keeps the snapshot fresh. */
  start(): void {
    void this.load();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.db?.close().catch(() => undefined);
  }

  private async load(): Promise<void> {
    try {
      this.db = await openStore(this.config, this.log, { shouldStop: () => this.closed });
      await prepareStore(this.db, this.files, this.log);
      this.snapshots = await StoreSnapshot.load(this.db, this.files, this.log);
      this.reason = null;
      this.log.info({ version: this.snapshots.version }, 'brand snapshot loaded from the store');
    } catch (error) {
      if (this.closed) return;
      this.reason = `brand store unavailable: ${(error as Error).message}`;
      this.log.warn({ err: (error as Error).message }, 'brand store unavailable: enrichment answers 503');
      this.schedule(() => this.load());
      return;
    }
    this.schedule(() => this.refresh());
  }

  private async refresh(): Promise<void> {
    try {
      await this.snapshots?.refresh();
      if (this.reason !== null) this.log.info('brand store available again');
      this.reason = null;
    } catch (error) {
      this.reason = `brand store unavailable: ${(error as Error).message}`;
      this.log.warn({ err: (error as Error).message }, 'brand store refresh failed: enrichment answers 503');
    }
    this.schedule(() => this.refresh());
  }

  private schedule(next: () => Promise<void>): void {
    if (this.closed) return;
    this.timer = setTimeout(() => void next(), this.config.snapshotRefreshMs);
    this.timer.unref();
  }
}
