/**
 * The brand store as the change use cases (src/feedback/use-cases) see it: one unit of work — a
 * database transaction under the apply lock — with the few reads and writes a correction, a brand
 * edit or a promotion needs. The use cases never see SQL; `sqlChangeStore` runs them on PostgreSQL or
 * PGlite, and test/fakes/brand-store.ts in memory (so each step has unit tests that need no database).
 *
 * The apply lock serializes changes: outbox ids and change numbers commit in ascending order (what
 * the relay and the workers' incremental refresh rely on), and quorum counting has no races.
 */
import type { Snapshot } from '../engine/snapshot.js';
import type { HistoryEntry } from '../engine/types.js';
import {
  brandFamilyIds,
  brandOwner,
  brandVersion,
  editBrand,
  findTenantBrandByName,
  insertBrand,
  promoteBrand,
  type BrandEdit,
  type NewBrandRow,
} from './brands.js';
import { applyLockName } from './catalog.js';
import {
  applyProposals,
  findCorrection,
  insertAudit,
  proposalReporters,
  type AuditRow,
  type ProposalReporter,
  type StoredCorrection,
} from './corrections.js';
import { XACT_LOCK_SQL, type Database } from './db.js';
import {
  findIndexed,
  historyExcluding,
  merchantCandidates,
  rowsWithBrands,
  setTransactionOverride,
  updateIndexed,
  type IndexRow,
  type IndexUpdate,
} from './index-store.js';
import { upsertMapping, type MappingChange, type MappingRow } from './mappings.js';
import { enqueue, type OutboxMessage } from './outbox.js';
import type { StoreSnapshot, StoreView } from './store-snapshot.js';

/** One change's view of the store: everything runs in one transaction that holds the apply lock. */
export interface ChangeTx {
  // The audit (corrections repository).
  findCorrection(tenant: string | null, correctionId: string): Promise<StoredCorrection | null>;
  audit(row: AuditRow): Promise<void>;
  proposalReporters(proposalKey: string): Promise<ProposalReporter[]>;
  applyProposals(proposalKey: string, brandId: number | null, correctionId: string): Promise<string[]>;
  // The index of enriched transactions.
  findIndexed(tenant: string, transactionId: string): Promise<IndexRow | null>;
  merchantCandidates(
    tenant: string | null,
    merchantKeys: readonly string[],
    merchantId: string | null,
  ): Promise<IndexRow[]>;
  rowsWithBrands(brandIds: readonly number[]): Promise<IndexRow[]>;
  historyExcluding(rows: readonly IndexRow[]): Promise<HistoryEntry[]>;
  updateIndexed(updates: readonly IndexUpdate[]): Promise<void>;
  setTransactionOverride(
    tenant: string,
    transactionId: string,
    brandId: number | null,
    subCategoryId: string | null,
  ): Promise<IndexRow | null>;
  // The catalog and learned mappings.
  /** The store's brands and mappings as this transaction sees them. */
  view(): Promise<StoreView>;
  /** The snapshot after this transaction's changes (not yet committed). */
  preview(view: StoreView, changed: readonly MappingRow[], catalogChanged: boolean): Promise<Snapshot>;
  brandOwner(id: number): Promise<{ owner: string | null } | null>;
  findTenantBrandByName(tenant: string | null, name: string): Promise<number | null>;
  insertBrand(brand: NewBrandRow): Promise<number>;
  editBrand(
    id: number,
    edit: BrandEdit,
    aliases: readonly string[],
  ): Promise<'brand' | 'product_line' | null>;
  promoteBrand(id: number): Promise<boolean>;
  brandFamilyIds(id: number): Promise<number[]>;
  brandVersion(id: number): Promise<number>;
  upsertMapping(change: MappingChange): Promise<MappingRow>;
  // The outbox.
  enqueue(messages: readonly OutboxMessage[]): Promise<void>;
}

export interface ChangeStore {
  /** Runs `fn` in one transaction under the apply lock: committed when it resolves, rolled back when it throws. */
  change<T>(fn: (tx: ChangeTx) => Promise<T>): Promise<T>;
}

/** The change store on the real database (PostgreSQL or PGlite). */
export function sqlChangeStore(db: Database, snapshots: StoreSnapshot): ChangeStore {
  return {
    change: (fn) =>
      db.transaction(async (q) => {
        await q.query(XACT_LOCK_SQL, [applyLockName(db)]);
        const tx: ChangeTx = {
          findCorrection: (tenant, id) => findCorrection(q, tenant, id),
          audit: (row) => insertAudit(q, row),
          proposalReporters: (key) => proposalReporters(q, key),
          applyProposals: (key, brandId, id) => applyProposals(q, key, brandId, id),
          findIndexed: (tenant, id) => findIndexed(q, tenant, id),
          merchantCandidates: (tenant, keys, merchantId) => merchantCandidates(q, tenant, keys, merchantId),
          rowsWithBrands: (ids) => rowsWithBrands(q, ids),
          historyExcluding: (rows) => historyExcluding(q, rows),
          updateIndexed: (updates) => updateIndexed(q, updates),
          setTransactionOverride: (tenant, id, brandId, sub) =>
            setTransactionOverride(q, tenant, id, brandId, sub),
          view: () => snapshots.view(q),
          preview: (view, changed, catalogChanged) => snapshots.preview(q, view, changed, catalogChanged),
          brandOwner: (id) => brandOwner(q, id),
          findTenantBrandByName: (tenant, name) => findTenantBrandByName(q, tenant, name),
          insertBrand: (brand) => insertBrand(q, brand),
          editBrand: (id, edit, aliases) => editBrand(q, id, edit, aliases),
          promoteBrand: (id) => promoteBrand(q, id),
          brandFamilyIds: (id) => brandFamilyIds(q, id),
          brandVersion: (id) => brandVersion(q, id),
          upsertMapping: (change) => upsertMapping(q, change),
          enqueue: (messages) => enqueue(q, messages),
        };
        return fn(tx);
      }),
  };
}
