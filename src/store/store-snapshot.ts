/**
 * The brand snapshot built from the store: the catalog (seeded data/ plus operator and feedback
 * brands) and the learned mappings, on top of the reference files (taxonomy, MCC map, rules,
 * places). A worker keeps one and refreshes it when a brand-change event arrives: mapping changes
 * are patched in (cheap); a catalog change rebuilds the snapshot.
 */
import type { ReferenceData } from '../data/schemas.js';
import { buildSnapshot, learnedKey, type Snapshot } from '../engine/snapshot.js';
import type { LearnedMapping } from '../engine/types.js';
import type { Logger } from '../observability/logger.js';
import { catalogVersion, loadCatalog } from './catalog.js';
import type { Database, Queryable } from './db.js';
import { mappingId, mappingsSince, toLearned, type MappingRow } from './mappings.js';

/** The store's brands and mappings as one transaction sees them. */
export interface StoreView {
  readonly snapshot: Snapshot;
  readonly mappings: ReadonlyMap<string, MappingRow>;
}

export interface RefreshResult {
  readonly rebuilt: boolean;
  readonly mappings: number;
  readonly version: number;
  readonly ms: number;
}

export class StoreSnapshot {
  private snapshot: Snapshot;
  private readonly mappings = new Map<string, MappingRow>();
  private catalog: { brands: ReferenceData['brands']; version: number; digest: string };
  private mappingVersion = 0;
  private refreshing: Promise<RefreshResult> | null = null;
  private again = false;

  private constructor(
    private readonly db: Database,
    private readonly files: ReferenceData,
    private readonly log: Logger | null,
    catalog: { brands: ReferenceData['brands']; version: number; digest: string },
    mappings: readonly MappingRow[],
  ) {
    this.catalog = catalog;
    for (const m of mappings) this.remember(m);
    this.snapshot = this.build();
  }

  /** Loads the catalog and every mapping from the store and builds the first snapshot. */
  static async load(db: Database, files: ReferenceData, log: Logger | null = null): Promise<StoreSnapshot> {
    const catalog = await loadCatalog(db);
    const mappings = await mappingsSince(db, 0);
    return new StoreSnapshot(db, files, log, catalog, mappings);
  }

  current(): Snapshot {
    return this.snapshot;
  }

  /** Highest change number this snapshot includes. */
  get version(): number {
    return Math.max(this.catalog.version, this.mappingVersion);
  }

  get referenceFiles(): ReferenceData {
    return this.files;
  }

  /**
   * Reads what changed since the last load and updates the snapshot. Calls that arrive while one
   * runs are folded into one more run after it.
   */
  refresh(): Promise<RefreshResult> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    const run = async (): Promise<RefreshResult> => {
      let result: RefreshResult;
      do {
        this.again = false;
        result = await this.refreshOnce(this.db);
      } while (this.again);
      return result;
    };
    this.refreshing = run().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async refreshOnce(q: Queryable): Promise<RefreshResult> {
    const started = performance.now();
    const latestCatalog = await catalogVersion(q);
    let rebuilt = false;
    if (latestCatalog > this.catalog.version) {
      this.catalog = await loadCatalog(q);
      rebuilt = true;
    }
    const changed = await mappingsSince(q, this.mappingVersion);
    for (const m of changed) this.remember(m);
    if (rebuilt) this.snapshot = this.build();
    else if (changed.length > 0)
      this.snapshot = this.withMappings(
        this.snapshot,
        changed.map((m) => this.mappings.get(mappingId(m)) ?? m),
      );
    const result = {
      rebuilt,
      mappings: changed.length,
      version: this.version,
      ms: performance.now() - started,
    };
    if (rebuilt || changed.length > 0) {
      this.log?.info(
        { rebuilt, mappings: changed.length, version: result.version, ms: Math.round(result.ms) },
        'brand snapshot refreshed from the store',
      );
    }
    return result;
  }

  /** The snapshot with these mapping rows on top (new objects; this holder is not changed). */
  withMappings(base: Snapshot, rows: readonly MappingRow[]): Snapshot {
    const byId = new Map(base.learnedByMerchantId);
    const byKey = new Map(base.learnedByMerchantKey);
    for (const row of rows) {
      const learned = toLearned(row);
      if (row.kind === 'merchant_id') byId.set(learnedKey(row.tenant, row.key), learned);
      else byKey.set(learnedKey(row.tenant, row.key), learned);
    }
    return Object.freeze({ ...base, learnedByMerchantId: byId, learnedByMerchantKey: byKey });
  }

  /**
   * The store as `q` sees it (inside a transaction that holds the apply lock): this snapshot plus
   * whatever other instances committed since it was loaded. Leaves this holder unchanged.
   */
  async view(q: Queryable): Promise<StoreView> {
    const base = this.snapshot;
    const mappings = new Map(this.mappings);
    const mappingVersion = this.mappingVersion;
    const catalog = this.catalog;
    const newer = await mappingsSince(q, mappingVersion);
    for (const m of newer) mappings.set(mappingId(m), m);
    if ((await catalogVersion(q)) > catalog.version) {
      const fresh = await loadCatalog(q);
      const snapshot = buildSnapshot(this.referenceData(fresh), [...mappings.values()].map(toLearned));
      return { snapshot, mappings };
    }
    return { snapshot: newer.length > 0 ? this.withMappings(base, newer) : base, mappings };
  }

  /**
   * The snapshot after a change made in `q` (not yet committed): `view` plus the changed mappings,
   * or a full rebuild from `q` when the catalog changed.
   */
  async preview(
    q: Queryable,
    view: StoreView,
    changed: readonly MappingRow[],
    catalogChanged: boolean,
  ): Promise<Snapshot> {
    if (!catalogChanged)
      return changed.length > 0 ? this.withMappings(view.snapshot, changed) : view.snapshot;
    const catalog = await loadCatalog(q);
    const all = new Map(view.mappings);
    for (const m of changed) all.set(mappingId(m), m);
    return buildSnapshot(this.referenceData(catalog), [...all.values()].map(toLearned));
  }

  private remember(m: MappingRow): void {
    const id = mappingId(m);
    // Two refreshes may overlap: never let an older read replace a newer row.
    if ((this.mappings.get(id)?.version ?? -1) > m.version) return;
    this.mappings.set(id, m);
    this.mappingVersion = Math.max(this.mappingVersion, m.version);
  }

  private referenceData(catalog: { brands: ReferenceData['brands']; digest: string }): ReferenceData {
    return {
      ...this.files,
      brands: catalog.brands,
      version: `${this.files.taxonomy.version}+${catalog.digest}`,
    };
  }

  private build(): Snapshot {
    const learned: LearnedMapping[] = [...this.mappings.values()].map(toLearned);
    return buildSnapshot(this.referenceData(this.catalog), learned);
  }
}
