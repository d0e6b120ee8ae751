/**
 * Shared helpers for the engine unit tests: a transaction builder with neutral defaults and a
 * one-transaction wrapper around `enrichBatch`.
 */
import { enrichBatch } from '../../../src/engine/enrich.js';
import type { Snapshot } from '../../../src/engine/snapshot.js';
import type { EngineTransaction, Enrichment, HistoryEntry } from '../../../src/engine/types.js';

export type TxnOverrides = Partial<Omit<EngineTransaction, 'location'>> & {
  readonly location?: EngineTransaction['location'];
  /** Shorthand for `location.iso_country_cd`. */
  readonly country?: string;
};

let counter = 0;

/** A valid transaction: a debit in the UAE with no merchant name, MCC or flags, unless overridden. */
export function txn(overrides: TxnOverrides = {}): EngineTransaction {
  const { country, ...rest } = overrides;
  counter++;
  return {
    raw_description: 'POS PURCHASE',
    amount: 25,
    transaction_id: `txn-${counter}`,
    customer_id: 'customer-1',
    account_id: 'account-1',
    card_id: '',
    merchant_name: '',
    merchant_id: '',
    mcc: '',
    direction: 'DEBIT',
    is_transfer: false,
    is_self_transaction: false,
    iso_currency_cd: 'AED',
    occurred_at: '2024-03-12T10:00:00Z',
    ...rest,
    location: rest.location ?? { iso_country_cd: country ?? 'AE' },
  };
}

/** Enriches one transaction built from `overrides`. */
export function enrichOne(
  snapshot: Snapshot,
  overrides: TxnOverrides,
  history: readonly HistoryEntry[] = [],
): Enrichment {
  const [result] = enrichBatch([txn(overrides)], snapshot, history);
  if (!result) throw new Error('enrichBatch returned no result');
  return result;
}

/** Slug of the matched brand (or null), for short assertions. */
export function slugOf(snapshot: Snapshot, e: Enrichment): string | null {
  if (!e.brand) return null;
  return snapshot.brandsById.get(e.brand.id)?.slug ?? `#${e.brand.id}`;
}

/** Deterministic 32-bit PRNG (mulberry32), so property tests are reproducible. */
export { seededRandom } from '../../../src/samples/generate.js';

/** Recursively freezes an object graph (for mutation checks). */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
