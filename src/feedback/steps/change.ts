/**
 * Step 5, change: write what the trust decision allows — a transaction override, the tenant's
 * mappings of the merchant (its normalized text and its merchant id), or the global mapping (with
 * the agreeing proposals marked applied) — and find the indexed transactions the change affects.
 */
import type { Snapshot } from '../../engine/snapshot.js';
import type { ChangeTx } from '../../store/change-store.js';
import type { IndexRow } from '../../store/index-store.js';
import { GLOBAL_TENANT, type MappingRow } from '../../store/mappings.js';
import type { Correction } from '../correction.js';
import type { Located } from './locate.js';
import { merchantTextKey, type ReenrichReason } from './reenrich.js';
import type { TrustDecision } from './trust.js';

export interface Changed {
  /** Mappings written (each gets a brand-change event). */
  readonly mappings: MappingRow[];
  /** Indexed transactions to run the engine on again, oldest first. */
  readonly affected: IndexRow[];
  readonly reason: ReenrichReason;
}

type Applying = Exclude<TrustDecision, { action: 'propose' }>;

export async function change(
  tx: Pick<ChangeTx, 'setTransactionOverride' | 'upsertMapping' | 'merchantCandidates' | 'applyProposals'>,
  c: Correction,
  decision: Applying,
  located: Located,
  brandId: number | null,
  proposalKey: string | null,
  snapshot: Snapshot,
): Promise<Changed> {
  const { row, textKey, merchantId } = located;
  const mapping = (tenant: string, kind: 'merchant_key' | 'merchant_id', key: string) =>
    tx.upsertMapping({
      tenant,
      kind,
      key,
      brand_id: brandId,
      sub_category_id: c.sub_category_id,
      correction_id: c.correction_id,
    });

  if (decision.action === 'transaction') {
    const updated = await tx.setTransactionOverride(c.tenant, c.transaction_id, brandId, c.sub_category_id);
    return { mappings: [], affected: updated ? [updated] : [], reason: 'correction:transaction' };
  }
  if (decision.action === 'tenant-mapping') {
    const mappings: MappingRow[] = [];
    if (textKey !== '') mappings.push(await mapping(c.tenant, 'merchant_key', textKey));
    if (merchantId !== '') mappings.push(await mapping(c.tenant, 'merchant_id', merchantId));
    const candidates = await tx.merchantCandidates(c.tenant, [textKey, row.merchant_key], merchantId);
    return {
      mappings,
      affected: sameMerchant(candidates, snapshot, textKey, merchantId),
      reason: 'correction:merchant',
    };
  }
  const mappings = [await mapping(GLOBAL_TENANT, 'merchant_key', textKey)];
  // The agreeing proposals are applied with it; their transactions' indexed keys widen the search.
  const agreed = proposalKey === null ? [] : await tx.applyProposals(proposalKey, brandId, c.correction_id);
  const keys = new Set([textKey, row.merchant_key, ...agreed]);
  const candidates = await tx.merchantCandidates(null, [...keys], null);
  return { mappings, affected: sameMerchant(candidates, snapshot, textKey, ''), reason: 'correction:global' };
}

/** Rows whose normalized text has `textKey` (or whose merchant id is `merchantId`). */
export function sameMerchant(
  rows: readonly IndexRow[],
  snapshot: Snapshot,
  textKey: string,
  merchantId: string,
): IndexRow[] {
  return rows.filter(
    (r) =>
      (merchantId !== '' && r.merchant_id === merchantId) ||
      (textKey !== '' && merchantTextKey(r, snapshot) === textKey),
  );
}
