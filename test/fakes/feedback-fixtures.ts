/**
 * What the feedback unit tests share: the reference data with a small catalog (a snapshot of it
 * builds in tens of milliseconds), indexed transactions made by the real engine, corrections,
 * feedback records and an apply context on the in-memory brand store.
 */
import { loadReferenceData } from '../../src/data/load.js';
import type { Brand } from '../../src/data/schemas.js';
import { enrichBatch } from '../../src/engine/enrich.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import type { Correction } from '../../src/feedback/correction.js';
import type { ApplyContext, FeedbackSource } from '../../src/feedback/outcome.js';
import { createLogger } from '../../src/observability/logger.js';
import type { IndexRow } from '../../src/store/index-store.js';
import { InMemoryBrandStore } from './brand-store.js';

export const files = loadReferenceData();
const pick = (slug: string): Brand => {
  const brand = files.brands.find((b) => b.slug === slug);
  if (!brand) throw new Error(`no catalog brand ${slug}`);
  return brand;
};
export const starbucks = pick('starbucks');
export const ikea = pick('ikea');
export const spinneys = pick('spinneys');
export const carrefour = pick('carrefour');
export const catalog: readonly Brand[] = [starbucks, ikea, spinneys, carrefour];

export const silentLog = createLogger('silent');

/** A merchant no catalog brand matches: its index key is its normalized text. */
export const SHOP = 'ZAHRAT AL KHALEEJ TRADING';

const snapshot = buildSnapshot({ ...files, brands: [...catalog] });

/** An index row as the worker writes it: the engine's outcome for this transaction. */
export function indexed(
  tenant: string,
  transactionId: string,
  customerId: string,
  description: string,
  over: Partial<IndexRow> = {},
): IndexRow {
  const base = {
    raw_description: description,
    merchant_name: over.merchant_name ?? '',
    merchant_id: over.merchant_id ?? '',
    mcc: over.mcc ?? '',
    amount: over.amount ?? 42.5,
    direction: over.direction ?? ('DEBIT' as const),
    is_transfer: false,
    is_self_transaction: null,
    iso_currency_cd: 'AED',
    occurred_at: over.occurred_at ?? '2026-10-01T10:00:00Z',
    ref_id: null,
  };
  const [e] = enrichBatch(
    [
      {
        ...base,
        transaction_id: transactionId,
        customer_id: customerId,
        account_id: '',
        card_id: '',
        card_name: null,
        location: { iso_country_cd: 'AE' },
        tenant,
      },
    ],
    snapshot,
  );
  if (!e) throw new Error('the engine returned nothing');
  return {
    ...base,
    tenant,
    transaction_id: transactionId,
    customer_id: customerId,
    merchant_key: e.merchant_key,
    brand_id: e.brand?.id ?? null,
    category_id: e.category.id,
    sub_category_id: e.sub_category.id,
    recurring: e.recurring,
    revision: 1,
    country: 'AE',
    override_brand_id: null,
    override_sub_category_id: null,
    ...over,
  };
}

export function correction(over: Partial<Correction> = {}): Correction {
  return {
    correction_id: 'c-1',
    tenant: 'bank-a',
    transaction_id: 'tx-1',
    customer_id: 'cust-1',
    brand_id: null,
    new_brand: null,
    category_id: null,
    sub_category_id: null,
    scope: 'merchant',
    reported_at: 1_760_000_000_000,
    ...over,
  };
}

export function source(offset: number, over: Partial<FeedbackSource> = {}): FeedbackSource {
  return {
    topic: 'feedback',
    partition: 0,
    offset: String(offset),
    key: Buffer.from('k'),
    value: Buffer.from('{}'),
    headers: {},
    ...over,
  };
}

/** A store with the small catalog and these rows indexed, and the context that applies changes to it. */
export function setup(rows: readonly IndexRow[] = [], over: Partial<ApplyContext> = {}) {
  const store = new InMemoryBrandStore(files, catalog);
  store.index(...rows);
  let committed = 0;
  const ctx: ApplyContext = {
    store,
    logoBaseUrl: '',
    quorum: 3,
    minTenants: 2,
    log: silentLog,
    onCommitted: () => committed++,
    now: () => 1_770_000_000_000,
    ...over,
  };
  return { store, ctx, committed: () => committed };
}
