/**
 * Step 2, locate: find the corrected transaction in the index of enriched transactions (every scope
 * needs it: even a global proposal must know the merchant) and the merchant it names — the engine's
 * normalized merchant key of its text, and its merchant id.
 */
import type { Snapshot } from '../../engine/snapshot.js';
import { dataError } from '../../errors/catalog.js';
import type { ChangeTx } from '../../store/change-store.js';
import type { IndexRow } from '../../store/index-store.js';
import type { Correction } from '../correction.js';
import { merchantTextKey } from './reenrich.js';
import { fail, ok, type StepResult } from './result.js';

export interface Located {
  readonly row: IndexRow;
  /** The normalized merchant text the engine's learned mappings are keyed by ('' when none). */
  readonly textKey: string;
  /** The transaction's merchant id, trimmed ('' when none). */
  readonly merchantId: string;
}

export async function locate(
  tx: Pick<ChangeTx, 'findIndexed'>,
  c: Correction,
  snapshot: Snapshot,
): Promise<StepResult<Located>> {
  const row = await tx.findIndexed(c.tenant, c.transaction_id);
  if (!row) {
    return fail(
      dataError(
        'UNKNOWN_TRANSACTION',
        'transaction_id',
        `transaction ${c.transaction_id} of tenant ${c.tenant} is not in the index of enriched transactions`,
      ),
    );
  }
  const textKey = merchantTextKey(row, snapshot);
  const merchantId = row.merchant_id.trim();
  const noMerchant =
    (c.scope === 'merchant' && textKey === '' && merchantId === '') ||
    (c.scope === 'global' && textKey === '');
  if (noMerchant) {
    return fail(
      dataError(
        'INVALID_CORRECTION',
        'scope',
        'the transaction names no merchant to map: use scope "transaction"',
      ),
    );
  }
  return ok({ row, textKey, merchantId });
}
