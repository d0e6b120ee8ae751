/**
 * Maps an enrichment to the spec's v3 and v2 response records.
 */
import { createHash } from 'node:crypto';
import type { Enrichment } from './types.js';

export interface V3Record {
  brand_id: number | null;
  brand_name: string | null;
  brand_logo: string | null;
  brand_name_ar: string | null;
  brand_url: string | null;
  category_id: string;
  category_name: string;
  category_name_ar: string;
  sub_category_id: string;
  sub_category_name: string;
  sub_category_name_ar: string;
  recurring: boolean;
  ref_id: string | null;
}

export interface V3Options {
  /**
   * Public base URL of the API serving GET /logos/{brand_id} (`https://enrich.example.com`); v3
   * returns full locations. Empty: the path alone.
   */
  readonly logoBaseUrl: string;
}

/**
 * Where a brand's logo is served (src/api/logos.ts). The version is a digest of the brand's logo
 * path, so an operator's new logo changes the URL (and every re-enriched record) and caches follow.
 */
export function logoUrl(brand: { readonly id: number; readonly logo: string }, options: V3Options): string {
  const version = createHash('sha256').update(brand.logo).digest('hex').slice(0, 8);
  const path = `logos/${brand.id}?v=${version}`;
  return options.logoBaseUrl ? joinUrl(options.logoBaseUrl, path) : `/${path}`;
}

/**
 * `ref_id` echoes the request's `ref_id` when it sent one, else its `transaction_id`, so every
 * response item can be matched to its request item (docs/decisions.md).
 */
export function toV3Record(e: Enrichment, refId: string | null | undefined, options: V3Options): V3Record {
  return {
    brand_id: e.brand?.id ?? null,
    brand_name: e.display_name,
    brand_logo: e.brand ? logoUrl(e.brand, options) : null,
    // A brand created from a report may have no Arabic name yet: null, never an empty string.
    brand_name_ar: e.brand?.name_ar || null,
    brand_url: e.brand?.website ?? null,
    category_id: e.category.id,
    category_name: e.category.name,
    category_name_ar: e.category.name_ar,
    sub_category_id: e.sub_category.id,
    sub_category_name: e.sub_category.name,
    sub_category_name_ar: e.sub_category.name_ar,
    recurring: e.recurring,
    ref_id: refId ?? e.transaction_id,
  };
}

export interface V2Options {
  readonly arabicEnabled: boolean;
  /** Return the client's `transaction_id` in place of `ref_id`. */
  readonly returnTransactionId: boolean;
}

export type V2Record = {
  ref_id?: string;
  transaction_id?: string;
  global_tx_id: string;
  brand_name: string | null;
  brand_name_ar?: string | null;
  brand_logo: string | null;
  brand_url: string | null;
  category_id: string;
  category_name: string;
  category_name_ar?: string;
  sub_category_id: string;
  sub_category_name: string;
  sub_category_name_ar?: string;
};

export function toV2Record(e: Enrichment, refId: string | null | undefined, options: V2Options): V2Record {
  const id: Pick<V2Record, 'ref_id' | 'transaction_id'> = options.returnTransactionId
    ? { transaction_id: e.transaction_id }
    : { ref_id: refId ?? e.transaction_id };
  const record: V2Record = {
    ...id,
    global_tx_id: globalTransactionId(e.tenant, e.transaction_id),
    brand_name: e.display_name,
    brand_logo: e.brand?.logo ?? null,
    brand_url: e.brand?.website ?? null,
    category_id: e.category.id,
    category_name: e.category.name,
    sub_category_id: e.sub_category.id,
    sub_category_name: e.sub_category.name,
  };
  if (options.arabicEnabled) {
    record.brand_name_ar = e.brand?.name_ar || null;
    record.category_name_ar = e.category.name_ar;
    record.sub_category_name_ar = e.sub_category.name_ar;
  }
  return record;
}

/**
 * A UUID-shaped id that is the same every time the same tenant sends the same transaction id
 * (name-based, SHA-256, RFC 9562 version 8 layout), so replays and retries agree.
 */
export function globalTransactionId(tenant: string, transactionId: string): string {
  const hex = createHash('sha256').update(`${tenant}\u0000${transactionId}`).digest('hex');
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function joinUrl(base: string, path: string): string {
  return base.endsWith('/') ? base + path : `${base}/${path}`;
}
