import type { Transaction } from '../contract/transaction.js';
import type { RuleKind } from '../data/schemas.js';

/** A validated transaction plus the tenant it belongs to (learned mappings are per tenant). */
export interface EngineTransaction extends Transaction {
  readonly tenant?: string;
}

/**
 * A tenant's customer at one merchant (merchant key): what recurring history is fetched by. Customer
 * ids are the bank's own: two tenants may both have `c-1`.
 */
export interface HistoryKey {
  readonly tenant: string;
  readonly customer_id: string;
  readonly merchant_key: string;
}

/**
 * An earlier transaction of a customer, as the pipeline remembers it, for recurring detection. A
 * customer is a tenant's: two banks' customers who share an id share no history.
 */
export interface HistoryEntry {
  /** Absent: the default tenant, as for an EngineTransaction without one. */
  readonly tenant?: string;
  readonly customer_id: string;
  readonly brand_id: number | null;
  readonly merchant_key: string;
  readonly occurred_at: string;
  readonly amount: number;
}

export interface BrandRef {
  readonly id: number;
  readonly name: string;
  readonly name_ar: string;
  readonly logo: string;
  readonly website: string | null;
  /** Slug of the parent brand for a product line (`uber` for Uber Eats), else its own slug. */
  readonly family: string;
}

export interface NamedRef {
  readonly id: string;
  readonly name: string;
  readonly name_ar: string;
}

/** How sure we are, and which rule (and which alias or phrase) decided. */
export interface Reasons {
  readonly brand: string;
  readonly category: string;
  readonly recurring: string;
}

export interface Enrichment {
  readonly transaction_id: string;
  readonly customer_id: string;
  readonly tenant: string;
  readonly brand: BrandRef | null;
  /** English display name: the brand's, or a cleaned name for an unknown merchant; null for non-merchant rows. */
  readonly display_name: string | null;
  readonly category: NamedRef;
  readonly sub_category: NamedRef;
  readonly recurring: boolean;
  /** In [0, 1]. */
  readonly confidence: number;
  readonly reasons: Reasons;
  /** The processor, wallet or marketplace whose name prefixed the merchant's, if any. */
  readonly intermediary: { readonly id: string; readonly name: string } | null;
  /** Normalized merchant key: what learned mappings and recurring history are keyed by. */
  readonly merchant_key: string;
  /** The non-merchant rule that fired (salary, transfer, ...), if any. */
  readonly rule: RuleKind | 'self_transfer' | null;
  readonly catalog_version: string;
  readonly engine_version: string;
}

/** A correction learned from feedback or an operator, applied before the catalog. */
export interface LearnedMapping {
  /** Tenant the mapping belongs to, or `*` for a global mapping. */
  readonly tenant: string;
  readonly merchant_id?: string;
  readonly merchant_key?: string;
  readonly brand_id: number | null;
  readonly sub_category_id: string | null;
}
