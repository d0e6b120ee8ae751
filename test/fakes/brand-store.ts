/**
 * An in-memory brand store behind the ChangeStore port (src/store/change-store.ts): the audit, the
 * index, learned mappings, store-created brands with their owners, and the outbox, in plain maps.
 * A change runs on a copy of the state that replaces it only when the change resolves, like a
 * database transaction. Every feedback step and use case runs against it in milliseconds; the SQL
 * behind the same port is proven on PostgreSQL and PGlite by test/integration/store-contract.test.ts.
 *
 * `failOn` makes a method throw (an unavailable database, a value PostgreSQL refuses, a bug), for
 * the failure policy's tests.
 */
import type { Brand, ReferenceData } from '../../src/data/schemas.js';
import { buildSnapshot, learnedKey, type Snapshot } from '../../src/engine/snapshot.js';
import type { HistoryEntry } from '../../src/engine/types.js';
import type { BrandEdit, NewBrandRow } from '../../src/store/brands.js';
import type { ChangeStore, ChangeTx } from '../../src/store/change-store.js';
import type { AuditRow, ProposalReporter, StoredCorrection } from '../../src/store/corrections.js';
import type { IndexRow, IndexUpdate } from '../../src/store/index-store.js';
import { mappingId, toLearned, type MappingChange, type MappingRow } from '../../src/store/mappings.js';
import type { OutboxMessage } from '../../src/store/outbox.js';
import type { StoreView } from '../../src/store/store-snapshot.js';

const STORE_BRAND_ID_BASE = 100_000_000;

interface State {
  corrections: AuditRow[];
  index: Map<string, IndexRow>;
  mappings: Map<string, MappingRow>;
  brands: Brand[];
  /** Changes whenever the catalog does (unique across drafts, so a cached snapshot is never stale). */
  catalogVersion: number;
  owners: Map<number, string | null>;
  origins: Map<number, 'catalog' | 'operator' | 'feedback'>;
  versions: Map<number, number>;
  outbox: OutboxMessage[];
  seq: number;
}

const indexKey = (tenant: string, transactionId: string) => `${tenant}\u0000${transactionId}`;

export class InMemoryBrandStore implements ChangeStore {
  private state: State;
  private snapshotCache: { catalogVersion: number; snapshot: Snapshot } | null = null;
  private catalogVersions = 0;
  /** Called before every port method; what it throws, the method throws. */
  failOn: ((method: keyof ChangeTx) => void) | null = null;
  /** Changes committed and rolled back (a thrown change leaves the state as it was). */
  commits = 0;
  rollbacks = 0;

  constructor(
    private readonly files: ReferenceData,
    catalog: readonly Brand[],
  ) {
    this.state = {
      corrections: [],
      index: new Map(),
      mappings: new Map(),
      brands: catalog.map((b) => ({ ...b })),
      catalogVersion: 0,
      owners: new Map(catalog.map((b) => [b.id, null])),
      origins: new Map(catalog.map((b) => [b.id, 'catalog'])),
      versions: new Map(catalog.map((b) => [b.id, 1])),
      outbox: [],
      seq: 1,
    };
  }

  // --- what tests look at and set up ---------------------------------------------------------------

  get corrections(): readonly AuditRow[] {
    return this.state.corrections;
  }
  get outbox(): readonly OutboxMessage[] {
    return this.state.outbox;
  }
  get mappings(): readonly MappingRow[] {
    return [...this.state.mappings.values()];
  }
  brand(id: number): Brand | undefined {
    return this.state.brands.find((b) => b.id === id);
  }
  ownerOf(id: number): string | null | undefined {
    return this.state.owners.get(id);
  }
  indexed(tenant: string, transactionId: string): IndexRow | undefined {
    return this.state.index.get(indexKey(tenant, transactionId));
  }
  /** Puts rows in the index, as the worker would have. */
  index(...rows: IndexRow[]): void {
    for (const row of rows) this.state.index.set(indexKey(row.tenant, row.transaction_id), row);
  }
  /** A brand of one tenant, as if that tenant's correction had created it. */
  addTenantBrand(brand: Brand, owner: string): void {
    this.state.brands.push(brand);
    this.state.owners.set(brand.id, owner);
    this.state.origins.set(brand.id, 'feedback');
    this.state.versions.set(brand.id, ++this.state.seq);
    this.state.catalogVersion = ++this.catalogVersions;
  }
  /** The snapshot of the committed state. */
  snapshot(): Snapshot {
    return this.snapshotOf(this.state);
  }

  // --- the port ------------------------------------------------------------------------------------

  async change<T>(fn: (tx: ChangeTx) => Promise<T>): Promise<T> {
    const draft = copy(this.state);
    try {
      const result = await fn(this.tx(draft));
      this.state = draft;
      this.commits++;
      return result;
    } catch (error) {
      this.rollbacks++;
      throw error;
    }
  }

  private tx(s: State): ChangeTx {
    const guard =
      <A extends unknown[], R>(name: keyof ChangeTx, fn: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        this.failOn?.(name);
        return fn(...args);
      };
    const rows = (predicate: (r: IndexRow) => boolean) =>
      [...s.index.values()]
        .filter(predicate)
        .sort(
          (a, b) =>
            Date.parse(a.occurred_at) - Date.parse(b.occurred_at) ||
            a.tenant.localeCompare(b.tenant) ||
            a.transaction_id.localeCompare(b.transaction_id),
        );
    return {
      findCorrection: guard('findCorrection', async (tenant, id): Promise<StoredCorrection | null> => {
        const row = s.corrections.find((c) => (c.tenant ?? '') === (tenant ?? '') && c.correction_id === id);
        return row ? { status: row.status, content_digest: row.content_digest } : null;
      }),
      audit: guard('audit', async (row) => {
        if (
          s.corrections.some(
            (c) => (c.tenant ?? '') === (row.tenant ?? '') && c.correction_id === row.correction_id,
          )
        ) {
          throw new Error(`duplicate key (${row.tenant}, ${row.correction_id})`);
        }
        s.corrections.push(row);
      }),
      proposalReporters: guard('proposalReporters', async (key): Promise<ProposalReporter[]> =>
        s.corrections
          .filter((c) => c.status === 'proposed' && c.proposal_key === key && c.reporter && c.tenant)
          .map((c) => ({
            reporter: c.reporter as string,
            tenant: c.tenant as string,
            indexed_customer_id:
              s.index.get(indexKey(c.tenant as string, c.transaction_id ?? ''))?.customer_id ?? null,
          })),
      ),
      applyProposals: guard('applyProposals', async (key, brandId, id) => {
        const keys: string[] = [];
        s.corrections = s.corrections.map((c) => {
          if (c.status !== 'proposed' || c.proposal_key !== key) return c;
          const k = c.payload.indexed_merchant_key;
          if (typeof k === 'string' && k) keys.push(k);
          return { ...c, status: 'applied', brand_id: brandId, reason: `global: quorum reached by ${id}` };
        });
        return keys;
      }),
      findIndexed: guard('findIndexed', async (tenant, id) => s.index.get(indexKey(tenant, id)) ?? null),
      merchantCandidates: guard('merchantCandidates', async (tenant, keys, merchantId) =>
        rows(
          (r) =>
            (tenant === null || r.tenant === tenant) &&
            (keys.includes(r.merchant_key) || (!!merchantId && r.merchant_id === merchantId)),
        ),
      ),
      rowsWithBrands: guard('rowsWithBrands', async (ids) =>
        rows((r) => r.brand_id !== null && ids.includes(r.brand_id)),
      ),
      historyExcluding: guard('historyExcluding', async (affected): Promise<HistoryEntry[]> => {
        const customers = new Set(affected.map((r) => r.customer_id));
        const tenants = new Set(affected.map((r) => r.tenant));
        const excluded = new Set(affected.map((r) => indexKey(r.tenant, r.transaction_id)));
        return [...s.index.values()]
          .filter(
            (r) =>
              customers.has(r.customer_id) &&
              tenants.has(r.tenant) &&
              r.merchant_key !== '' &&
              !excluded.has(indexKey(r.tenant, r.transaction_id)),
          )
          .map((r) => ({
            tenant: r.tenant,
            customer_id: r.customer_id,
            brand_id: r.brand_id,
            merchant_key: r.merchant_key,
            occurred_at: r.occurred_at,
            amount: r.amount,
          }));
      }),
      updateIndexed: guard('updateIndexed', async (updates: readonly IndexUpdate[]) => {
        for (const u of updates) {
          const row = s.index.get(indexKey(u.tenant, u.transaction_id));
          if (row) s.index.set(indexKey(u.tenant, u.transaction_id), { ...row, ...u });
        }
      }),
      setTransactionOverride: guard('setTransactionOverride', async (tenant, id, brandId, sub) => {
        const row = s.index.get(indexKey(tenant, id));
        if (!row) return null;
        const updated = {
          ...row,
          override_brand_id: brandId ?? row.override_brand_id,
          override_sub_category_id: sub ?? row.override_sub_category_id,
        };
        s.index.set(indexKey(tenant, id), updated);
        return updated;
      }),
      view: guard('view', async (): Promise<StoreView> => ({
        snapshot: this.snapshotOf(s),
        mappings: new Map(s.mappings),
      })),
      preview: guard(
        'preview',
        async (view: StoreView, changed: readonly MappingRow[], catalogChanged: boolean) =>
          catalogChanged ? this.snapshotOf(s) : withMappings(view.snapshot, changed),
      ),
      brandOwner: guard('brandOwner', async (id) => {
        if (s.owners.has(id)) return { owner: s.owners.get(id) ?? null };
        const parent = s.brands.find((b) => b.product_lines?.some((l) => l.id === id));
        return parent ? { owner: s.owners.get(parent.id) ?? null } : null;
      }),
      findTenantBrandByName: guard('findTenantBrandByName', async (tenant, name) => {
        const found = s.brands.find(
          (b) =>
            s.origins.get(b.id) !== 'catalog' &&
            (s.owners.get(b.id) ?? null) === tenant &&
            b.name.toLowerCase() === name.trim().toLowerCase(),
        );
        return found?.id ?? null;
      }),
      insertBrand: guard('insertBrand', async (row: NewBrandRow) => {
        const id = Math.max(STORE_BRAND_ID_BASE, ...s.brands.map((b) => b.id + 1));
        const slug = `${
          row.name
            .toLowerCase()
            .replace(/[^a-z0-9]+/g, '-')
            .replace(/^-|-$/g, '') || 'brand'
        }-${id}`;
        s.brands.push({
          id,
          slug,
          name: row.name,
          name_ar: row.name_ar ?? '',
          name_ar_source: row.name_ar ? 'official' : 'transliteration',
          ...(row.website ? { website: row.website } : {}),
          sub_category_id: row.sub_category_id,
          aliases: [...row.aliases],
          subscription: row.subscription,
          name_alias: row.origin === 'operator' && row.owner_tenant === null,
          logo: row.logo ?? `brands/${slug}.png`,
          weak_aliases: [],
          mccs: [...row.mccs],
          countries: row.countries.length > 0 ? [...row.countries] : ['*'],
          venue: false,
          lines: [],
        });
        s.owners.set(id, row.owner_tenant);
        s.origins.set(id, row.origin);
        s.versions.set(id, ++s.seq);
        s.catalogVersion = ++this.catalogVersions;
        return id;
      }),
      editBrand: guard('editBrand', async (id, edit: BrandEdit, aliases) => {
        const at = s.brands.findIndex((b) => b.id === id);
        if (at < 0) return null;
        const b = s.brands[at] as Brand;
        s.brands[at] = {
          ...b,
          ...(edit.name !== undefined ? { name: edit.name } : {}),
          ...(edit.name_ar !== undefined
            ? { name_ar: edit.name_ar, name_ar_source: 'official' as const }
            : {}),
          ...(edit.website !== undefined ? { website: edit.website } : {}),
          ...(edit.logo !== undefined ? { logo: edit.logo } : {}),
          ...(edit.sub_category_id !== undefined ? { sub_category_id: edit.sub_category_id } : {}),
          aliases: [...b.aliases, ...aliases],
        };
        s.versions.set(id, ++s.seq);
        s.catalogVersion = ++this.catalogVersions;
        return 'brand';
      }),
      promoteBrand: guard('promoteBrand', async (id) => {
        if ((s.owners.get(id) ?? null) === null) return false;
        s.owners.set(id, null);
        s.versions.set(id, ++s.seq);
        s.catalogVersion = ++this.catalogVersions;
        return true;
      }),
      brandFamilyIds: guard('brandFamilyIds', async (id) => [
        id,
        ...(s.brands.find((b) => b.id === id)?.product_lines ?? []).map((l) => l.id),
      ]),
      brandVersion: guard('brandVersion', async (id) => s.versions.get(id) ?? 0),
      upsertMapping: guard('upsertMapping', async (change: MappingChange) => {
        const previous = s.mappings.get(mappingId(change));
        const row: MappingRow = {
          tenant: change.tenant,
          kind: change.kind,
          key: change.key,
          brand_id: change.brand_id ?? previous?.brand_id ?? null,
          sub_category_id: change.sub_category_id ?? previous?.sub_category_id ?? null,
          correction_id: change.correction_id,
          version: ++s.seq,
        };
        s.mappings.set(mappingId(row), row);
        return row;
      }),
      enqueue: guard('enqueue', async (messages) => {
        s.outbox.push(...messages);
      }),
    };
  }

  private snapshotOf(s: State): Snapshot {
    if (this.snapshotCache?.catalogVersion !== s.catalogVersion) {
      const snapshot = buildSnapshot({ ...this.files, brands: s.brands }, []);
      this.snapshotCache = { catalogVersion: s.catalogVersion, snapshot };
    }
    return withMappings(this.snapshotCache.snapshot, [...s.mappings.values()]);
  }
}

/** The snapshot with these mappings on top (what StoreSnapshot.withMappings does). */
function withMappings(base: Snapshot, rows: readonly MappingRow[]): Snapshot {
  if (rows.length === 0) return base;
  const byId = new Map(base.learnedByMerchantId);
  const byKey = new Map(base.learnedByMerchantKey);
  for (const row of rows) {
    (row.kind === 'merchant_id' ? byId : byKey).set(learnedKey(row.tenant, row.key), toLearned(row));
  }
  return Object.freeze({ ...base, learnedByMerchantId: byId, learnedByMerchantKey: byKey });
}

function copy(s: State): State {
  return {
    corrections: [...s.corrections],
    index: new Map(s.index),
    mappings: new Map(s.mappings),
    brands: [...s.brands],
    catalogVersion: s.catalogVersion,
    owners: new Map(s.owners),
    origins: new Map(s.origins),
    versions: new Map(s.versions),
    outbox: [...s.outbox],
    seq: s.seq,
  };
}
