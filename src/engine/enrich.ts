/**
 * The engine's entry point: a pure function of (transactions, snapshot, history) to one enrichment
 * per transaction. No I/O, no clock, no globals.
 *
 * `enrichBatch` does it in one call. A caller that fetches history from a store does it in two:
 * `prepareBatch` (brand and category: everything but the recurring flag), `historyKeys` (the
 * customers and merchants whose earlier transactions can decide it: what to fetch), then
 * `finishBatch` with what was fetched. Fetching by merchant rather than by customer keeps the fetch
 * the same size however long a customer's history grows.
 */
import { categorize, type CategoryDecision } from './categorize.js';
import { matchBrand, type BrandMatch } from './match.js';
import { normalizeText, type NormalizedText } from './normalize.js';
import { detectRhythm, type Occurrence } from './recurring.js';
import { learnedKey, type BrandEntry, type Snapshot, type SubCategoryInfo } from './snapshot.js';
import type { EngineTransaction, Enrichment, HistoryEntry, HistoryKey, LearnedMapping } from './types.js';

export const DEFAULT_TENANT = 'default';

const NO_HISTORY: readonly HistoryEntry[] = [];

/** Words that make a subscription brand's charge a one-off (`Top Up ETISALAT`, gift cards). */
const ONE_OFF_WORDS = new Set([
  'top',
  'topup',
  'recharge',
  'gift',
  'giftcard',
  'voucher',
  'شحن',
  'store',
  'device',
  'handset',
]);

export function enrichBatch(
  transactions: readonly EngineTransaction[],
  snapshot: Snapshot,
  history: readonly HistoryEntry[] = [],
): Enrichment[] {
  return finishBatch(prepareBatch(transactions, snapshot), history);
}

/** A batch with brand and category decided; the recurring flag waits for history. */
export interface PreparedBatch {
  readonly snapshot: Snapshot;
  readonly items: readonly Prepared[];
}

interface Prepared {
  readonly txn: EngineTransaction;
  readonly tenant: string;
  readonly text: NormalizedText;
  readonly match: BrandMatch | null;
  readonly decision: CategoryDecision;
  readonly brand: BrandEntry | null;
  readonly info: SubCategoryInfo;
  readonly merchantKey: string;
}

export function prepareBatch(transactions: readonly EngineTransaction[], snapshot: Snapshot): PreparedBatch {
  const items: Prepared[] = [];
  for (const txn of transactions) items.push(prepareOne(txn, snapshot));
  return { snapshot, items };
}

/**
 * Each (tenant, customer, merchant key) of the batch once: the earlier transactions recurring
 * detection compares a transaction with are that customer's at that merchant (a brand's merchant
 * key is `brand:<id>`, so a brand's transactions share it). Transactions without a merchant key
 * have no history to look for.
 */
export function historyKeys(prepared: PreparedBatch): HistoryKey[] {
  const seen = new Set<string>();
  const keys: HistoryKey[] = [];
  for (const p of prepared.items) {
    if (p.merchantKey === '') continue;
    const id = `${p.tenant}\u0000${p.txn.customer_id}\u0000${p.merchantKey}`;
    if (seen.has(id)) continue;
    seen.add(id);
    keys.push({ tenant: p.tenant, customer_id: p.txn.customer_id, merchant_key: p.merchantKey });
  }
  return keys;
}

export function finishBatch(prepared: PreparedBatch, history: readonly HistoryEntry[] = []): Enrichment[] {
  const { snapshot, items } = prepared;
  const byCustomer = indexHistory(history);
  // Earlier transactions of the same batch are history for later ones; only customers that occur
  // more than once in the batch need them remembered.
  const customers: string[] = [];
  const firstAt = new Map<string, number>();
  const repeated = new Uint8Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const txn = (items[i] as Prepared).txn;
    const customer = customerKey(txn.tenant, txn.customer_id);
    customers.push(customer);
    const first = firstAt.get(customer);
    if (first === undefined) {
      firstAt.set(customer, i);
    } else {
      repeated[first] = 1;
      repeated[i] = 1;
    }
  }
  const results: Enrichment[] = [];
  for (let i = 0; i < items.length; i++) {
    const p = items[i] as Prepared;
    const customer = customers[i] as string;
    const known = byCustomer.size === 0 ? undefined : byCustomer.get(customer);
    const result = finishOne(p, snapshot, known ?? NO_HISTORY);
    results.push(result);
    if (repeated[i] === 0) continue;
    let list = byCustomer.get(customer);
    if (!list) {
      list = [];
      byCustomer.set(customer, list);
    }
    list.push({
      tenant: result.tenant,
      customer_id: p.txn.customer_id,
      brand_id: result.brand?.id ?? null,
      merchant_key: result.merchant_key,
      occurred_at: p.txn.occurred_at,
      amount: p.txn.amount,
    });
  }
  return results;
}

function prepareOne(txn: EngineTransaction, snapshot: Snapshot): Prepared {
  const tenant = txn.tenant ?? DEFAULT_TENANT;
  const country = txn.location.iso_country_cd.toUpperCase();
  const text = normalizeText(txn.raw_description, txn.merchant_name, snapshot, country);

  const learned = findLearned(txn, text, tenant, snapshot);
  let match: BrandMatch | null = null;
  if (learned?.mapping.brand_id != null) {
    const brand = snapshot.brandsById.get(learned.mapping.brand_id);
    if (brand) match = { brand, confidence: 0.99, reason: `learned:${learned.via}` };
  }
  match ??= matchBrand(text, txn.mcc, country, snapshot);

  const decision = categorize(
    {
      direction: txn.direction,
      is_transfer: txn.is_transfer,
      is_self_transaction: txn.is_self_transaction ?? false,
      mcc: txn.mcc,
      text,
      brand: match,
      learnedSubCategory: learned?.mapping.sub_category_id ?? null,
      country,
    },
    snapshot,
  );
  // Transfers, salaries, fees and the like have no merchant: the bank named in the text is the
  // channel, not a brand the customer bought from.
  const brand: BrandEntry | null = decision.rule === null ? (match?.brand ?? null) : null;
  const info = snapshot.taxonomy.get(decision.sub_category_id) ?? snapshot.taxonomy.get('20-1');
  if (!info) throw new Error('taxonomy has no Miscellaneous (20-1) sub-category');

  const merchantKey = brand ? brand.merchant_key : text.merchant().merchantKey;
  return { txn, tenant, text, match, decision, brand, info, merchantKey };
}

function finishOne(p: Prepared, snapshot: Snapshot, history: readonly HistoryEntry[]): Enrichment {
  const { txn, tenant, text, match, decision, brand, info, merchantKey } = p;
  const recurring = decideRecurring(txn, brand, merchantKey, text.tokens, decision.refund, history);
  const confidence = brand ? Math.min(match?.confidence ?? 0, decision.confidence) : decision.confidence;

  return {
    transaction_id: txn.transaction_id,
    customer_id: txn.customer_id,
    tenant,
    // The snapshot's entry is immutable and already a BrandRef: no copy per transaction.
    brand,
    display_name: brand ? brand.name : decision.rule === null ? text.merchant().displayName || null : null,
    category: info.category,
    sub_category: info.sub_category,
    recurring: recurring.value,
    confidence: Math.round(confidence * 100) / 100,
    reasons: {
      brand: brand ? (match?.reason ?? 'none') : match ? `suppressed-by:${decision.rule}` : 'none',
      category: decision.reason,
      recurring: recurring.reason,
    },
    intermediary: text.intermediary ? { id: text.intermediary.id, name: text.intermediary.name } : null,
    merchant_key: merchantKey,
    rule: decision.rule,
    catalog_version: snapshot.catalogVersion,
    engine_version: snapshot.engineVersion,
  };
}

function findLearned(
  txn: EngineTransaction,
  text: NormalizedText,
  tenant: string,
  snapshot: Snapshot,
): { mapping: LearnedMapping; via: string } | null {
  if (snapshot.learnedByMerchantId.size === 0 && snapshot.learnedByMerchantKey.size === 0) return null;
  const merchantKey = text.merchant().merchantKey;
  // Tenant mappings beat global ones; a merchant id is more specific than a name.
  for (const scope of [tenant, '*']) {
    if (txn.merchant_id) {
      const m = snapshot.learnedByMerchantId.get(learnedKey(scope, txn.merchant_id));
      if (m) return { mapping: m, via: `merchant_id@${scope}` };
    }
    if (merchantKey) {
      const m = snapshot.learnedByMerchantKey.get(learnedKey(scope, merchantKey));
      if (m) return { mapping: m, via: `merchant_key@${scope}` };
    }
  }
  return null;
}

function decideRecurring(
  txn: EngineTransaction,
  brand: BrandEntry | null,
  merchantKey: string,
  tokens: readonly string[],
  refund: boolean,
  history: readonly HistoryEntry[],
): RecurringDecision {
  if (refund || (txn.direction === 'CREDIT' && brand !== null)) return REFUND;
  if (history.length === 0) {
    if (brand?.subscription) return subscriptionDecision(brand, tokens);
    return NO_HISTORY_DECISION;
  }
  const earlier: Occurrence[] = [];
  for (const h of history) {
    const same =
      (brand !== null && h.brand_id === brand.id) || (merchantKey !== '' && h.merchant_key === merchantKey);
    if (same) earlier.push({ time: Date.parse(h.occurred_at), amount: h.amount });
  }
  const rhythm =
    earlier.length > 0
      ? detectRhythm({ time: Date.parse(txn.occurred_at), amount: txn.amount }, earlier)
      : null;
  if (rhythm) return { value: true, reason: `history:${rhythm.name}` };
  if (brand?.subscription) return subscriptionDecision(brand, tokens);
  return earlier.length > 0 ? IRREGULAR : NO_HISTORY_DECISION;
}

interface RecurringDecision {
  readonly value: boolean;
  readonly reason: string;
}
const REFUND: RecurringDecision = { value: false, reason: 'refund' };
const NO_HISTORY_DECISION: RecurringDecision = { value: false, reason: 'no-history' };
const IRREGULAR: RecurringDecision = { value: false, reason: 'history:irregular' };
const ONE_OFF: RecurringDecision = { value: false, reason: 'subscription-brand:one-off' };

function subscriptionDecision(brand: BrandEntry, tokens: readonly string[]): RecurringDecision {
  for (const t of tokens) if (ONE_OFF_WORDS.has(t)) return ONE_OFF;
  return { value: true, reason: brand.subscription_reason };
}

/** History belongs to a tenant's customer: the same customer id at two tenants is two people. */
function customerKey(tenant: string | undefined, customerId: string): string {
  return tenant === undefined || tenant === DEFAULT_TENANT ? customerId : `${tenant}\u0000${customerId}`;
}

function indexHistory(history: readonly HistoryEntry[]): Map<string, HistoryEntry[]> {
  const map = new Map<string, HistoryEntry[]>();
  for (const h of history) {
    const key = customerKey(h.tenant, h.customer_id);
    let list = map.get(key);
    if (!list) {
      list = [];
      map.set(key, list);
    }
    list.push(h);
  }
  return map;
}
