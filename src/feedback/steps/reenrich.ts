/**
 * Step 6, re-enrich: the engine run again, with the snapshot after a change, on the fields the index
 * kept, giving revision + 1 of each affected transaction's v3 record (for the outbox) and the index
 * update that goes with it.
 */
import { enrichBatch } from '../../engine/enrich.js';
import { normalizeText } from '../../engine/normalize.js';
import { toV3Record } from '../../engine/records.js';
import type { Snapshot } from '../../engine/snapshot.js';
import type { EngineTransaction, Enrichment, HistoryEntry } from '../../engine/types.js';
import { HEADER, enrichHeader } from '../../kafka/headers.js';
import type { ChangeTx } from '../../store/change-store.js';
import type { IndexRow, IndexUpdate } from '../../store/index-store.js';
import type { OutboxMessage } from '../../store/outbox.js';
import { FEEDBACK_HEADER } from '../headers.js';

export type ReenrichReason =
  'correction:transaction' | 'correction:merchant' | 'correction:global' | 'brand-update';

export interface ReenrichOptions {
  readonly logoBaseUrl: string;
  /** enriched_at of the new revision, epoch ms. */
  readonly now: number;
  readonly reason: ReenrichReason;
  readonly correctionId: string;
  /**
   * `changed`: only rows whose brand, category or recurring flag changes (a mapping change);
   * `all`: every row (a brand's own fields changed: name, logo, website).
   */
  readonly emit: 'changed' | 'all';
}

export interface ReenrichResult {
  readonly messages: OutboxMessage[];
  readonly updates: IndexUpdate[];
}

/** The merchant key the engine's learned mappings are looked up by, for an indexed transaction. */
export function merchantTextKey(
  row: Pick<IndexRow, 'raw_description' | 'merchant_name'>,
  snapshot: Snapshot,
): string {
  return normalizeText(row.raw_description, row.merchant_name, snapshot).merchant().merchantKey;
}

export function toEngineTransaction(row: IndexRow): EngineTransaction {
  return {
    raw_description: row.raw_description,
    amount: row.amount,
    transaction_id: row.transaction_id,
    customer_id: row.customer_id,
    // Not kept in the index (personal data the engine does not use).
    account_id: '',
    card_id: '',
    card_name: null,
    merchant_name: row.merchant_name,
    merchant_id: row.merchant_id,
    mcc: row.mcc,
    direction: row.direction,
    is_self_transaction: row.is_self_transaction,
    is_transfer: row.is_transfer,
    iso_currency_cd: row.iso_currency_cd,
    occurred_at: row.occurred_at,
    location: { iso_country_cd: row.country },
    ref_id: row.ref_id,
    tenant: row.tenant,
  };
}

/** A transaction-scope correction wins over the engine for that one transaction. */
export function applyOverride(e: Enrichment, row: IndexRow, snapshot: Snapshot): Enrichment {
  if (row.override_brand_id === null && row.override_sub_category_id === null) return e;
  let result: Enrichment = e;
  const brand = row.override_brand_id === null ? undefined : snapshot.brandsById.get(row.override_brand_id);
  if (brand) {
    result = {
      ...result,
      brand: {
        id: brand.id,
        name: brand.name,
        name_ar: brand.name_ar,
        logo: brand.logo,
        website: brand.website,
        family: brand.family,
      },
      display_name: brand.name,
      merchant_key: brand.merchant_key,
      rule: null,
      reasons: { ...result.reasons, brand: 'correction:transaction' },
    };
  }
  const subId = row.override_sub_category_id ?? brand?.sub_category_id ?? null;
  const info = subId === null ? undefined : snapshot.taxonomy.get(subId);
  if (info) {
    result = {
      ...result,
      category: info.category,
      sub_category: info.sub_category,
      reasons: { ...result.reasons, category: 'correction:transaction' },
    };
  }
  return result;
}

/**
 * Runs the engine on `rows` (sorted by time, so earlier ones are history for later ones) with
 * `history` (the customers' other transactions).
 */
export function reenrich(
  rows: readonly IndexRow[],
  snapshot: Snapshot,
  history: readonly HistoryEntry[],
  options: ReenrichOptions,
): ReenrichResult {
  const messages: OutboxMessage[] = [];
  const updates: IndexUpdate[] = [];
  if (rows.length === 0) return { messages, updates };
  const results = enrichBatch(rows.map(toEngineTransaction), snapshot, history);
  rows.forEach((row, i) => {
    const e = applyOverride(results[i] as Enrichment, row, snapshot);
    const brandId = e.brand?.id ?? null;
    const changed =
      brandId !== row.brand_id ||
      e.sub_category.id !== row.sub_category_id ||
      e.category.id !== row.category_id ||
      e.recurring !== row.recurring;
    if (options.emit === 'changed' && !changed) return;
    const revision = row.revision + 1;
    const v3 = toV3Record(e, row.ref_id, { logoBaseUrl: options.logoBaseUrl });
    const record = {
      transaction_id: row.transaction_id,
      customer_id: row.customer_id,
      ...v3,
      // A brand without an Arabic name has none: null, as the schema documents, not "".
      brand_name_ar: v3.brand_name_ar || null,
      revision,
      enriched_at: options.now,
    };
    messages.push({
      kind: 'reenriched',
      key: row.customer_id,
      record,
      correctionId: options.correctionId,
      headers: {
        [HEADER.tenant]: row.tenant,
        [FEEDBACK_HEADER.reenrichReason]: options.reason,
        [FEEDBACK_HEADER.correctionId]: options.correctionId,
        [FEEDBACK_HEADER.previousRevision]: String(row.revision),
        [HEADER.enrich]: enrichHeader(e),
      },
    });
    updates.push({
      tenant: row.tenant,
      transaction_id: row.transaction_id,
      merchant_key: e.merchant_key,
      brand_id: brandId,
      category_id: e.category.id,
      sub_category_id: e.sub_category.id,
      recurring: e.recurring,
      revision,
    });
  });
  return { messages, updates };
}

/**
 * Re-enriches `affected` with `snapshot` in the change's transaction: their customers' other indexed
 * transactions are the history, the index gets revision + 1; returns the records for the outbox.
 */
export async function reenrichAffected(
  tx: Pick<ChangeTx, 'historyExcluding' | 'updateIndexed'>,
  affected: readonly IndexRow[],
  snapshot: Snapshot,
  options: ReenrichOptions,
): Promise<OutboxMessage[]> {
  const history = await tx.historyExcluding(affected);
  const result = reenrich(affected, snapshot, history, options);
  await tx.updateIndexed(result.updates);
  return result.messages;
}
