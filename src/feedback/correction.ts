/**
 * Feedback corrections: the record (schemas/feedback-correction.avsc, or the same fields as JSON),
 * its validation, and the trust policy. Pure: no I/O. What needs the store (does the brand exist,
 * is the transaction indexed) is asked through {@link CatalogView}.
 */
import { z } from 'zod';
import { dataError, type DataError } from '../errors/catalog.js';

export const SCOPES = ['transaction', 'merchant', 'global'] as const;
export type Scope = (typeof SCOPES)[number];

export interface NewBrand {
  readonly name: string;
  readonly name_ar: string | null;
  readonly website: string | null;
}

export interface Correction {
  readonly correction_id: string;
  readonly tenant: string;
  readonly transaction_id: string;
  readonly customer_id: string;
  readonly brand_id: number | null;
  readonly new_brand: NewBrand | null;
  readonly category_id: string | null;
  readonly sub_category_id: string | null;
  readonly scope: Scope;
  /** Epoch milliseconds. */
  readonly reported_at: number;
}

const id = (what: string) =>
  z
    .string(`${what} must be a string`)
    .trim()
    .min(1, `${what} must be a non-empty string`)
    .max(200, `${what} must be at most 200 characters`);
const nullableText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? null : v))
  .nullish()
  .transform((v) => v ?? null);

const newBrandSchema = z.object({
  name: z.string('new_brand.name must be a string').trim().min(1, 'must be a non-empty string').max(120),
  name_ar: nullableText,
  website: z
    .union([z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }), z.literal('')])
    .nullish()
    .transform((v) => (v ? v : null)),
});

/**
 * Avro decodes a union of null and a record without wrapping; a client may still send the wrapped
 * form (`{"com.txenrich.NewBrand": {...}}`): accept both.
 */
function unwrapNewBrand(value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0]?.endsWith('NewBrand'))
      return (value as Record<string, unknown>)[keys[0]];
  }
  return value;
}

const reportedAt = z.union([
  z.number().int().nonnegative(),
  z
    .string()
    .refine((s) => Number.isFinite(Date.parse(s)), 'must be epoch milliseconds or an ISO 8601 date-time'),
  z.date(),
]);

export const correctionSchema = z.object({
  correction_id: id('correction_id'),
  tenant: id('tenant'),
  transaction_id: id('transaction_id'),
  customer_id: id('customer_id'),
  brand_id: z.number().int().positive('must be a positive integer').nullish(),
  new_brand: z.preprocess(unwrapNewBrand, newBrandSchema.nullish()),
  category_id: nullableText.pipe(
    z
      .string()
      .regex(/^\d{1,2}$/, 'must be a category id like "4"')
      .nullable(),
  ),
  sub_category_id: nullableText.pipe(
    z
      .string()
      .regex(/^\d{1,2}-\d{1,2}$/, 'must be a sub-category id like "4-2"')
      .nullable(),
  ),
  scope: z.enum(SCOPES, `must be one of ${SCOPES.join(', ')}`),
  reported_at: reportedAt,
});

export type ValidationResult = { ok: true; value: Correction } | { ok: false; error: DataError };

/** Shape and consistency of one correction record (already decoded from Avro or JSON). */
export function validateCorrection(input: unknown): ValidationResult {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, error: dataError('INVALID_CORRECTION', '', 'a correction must be an object') };
  }
  const parsed = correctionSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.map(String).join('.') ?? '';
    const message =
      issue?.code === 'invalid_type' && (issue as { input?: unknown }).input === undefined
        ? 'is required'
        : (issue?.message ?? 'invalid');
    return { ok: false, error: dataError('INVALID_CORRECTION', field, message) };
  }
  const v = parsed.data;
  const value: Correction = {
    correction_id: v.correction_id,
    tenant: v.tenant,
    transaction_id: v.transaction_id,
    customer_id: v.customer_id,
    brand_id: v.brand_id ?? null,
    new_brand: v.new_brand ?? null,
    category_id: v.category_id,
    sub_category_id: v.sub_category_id,
    scope: v.scope,
    reported_at:
      typeof v.reported_at === 'number'
        ? v.reported_at
        : v.reported_at instanceof Date
          ? v.reported_at.getTime()
          : Date.parse(v.reported_at),
  };
  if (value.brand_id !== null && value.new_brand !== null) {
    return {
      ok: false,
      error: dataError('INVALID_CORRECTION', 'new_brand', 'set brand_id or new_brand, not both'),
    };
  }
  if (value.brand_id === null && value.new_brand === null && value.sub_category_id === null) {
    return {
      ok: false,
      error: dataError(
        'INVALID_CORRECTION',
        value.category_id === null ? '' : 'sub_category_id',
        value.category_id === null
          ? 'corrects nothing: set a brand (brand_id or new_brand) and/or a sub-category'
          : 'a category correction needs the sub-category too',
      ),
    };
  }
  if (value.category_id !== null && value.sub_category_id === null) {
    return {
      ok: false,
      error: dataError(
        'INVALID_CORRECTION',
        'sub_category_id',
        'a category correction needs the sub-category too',
      ),
    };
  }
  return { ok: true, value };
}

/** What the catalog knows, for {@link checkAgainstCatalog}. */
export interface CatalogView {
  hasBrand(id: number): boolean;
  /** The category id of a sub-category, or undefined when the taxonomy lacks it. */
  categoryOf(subCategoryId: string): string | undefined;
}

/** Brand and taxonomy references of a (shape-valid) correction. */
export function checkAgainstCatalog(c: Correction, catalog: CatalogView): DataError | null {
  if (c.brand_id !== null && !catalog.hasBrand(c.brand_id)) {
    return dataError('UNKNOWN_BRAND', 'brand_id', `brand ${c.brand_id} is not in the brand store`);
  }
  if (c.sub_category_id !== null) {
    const category = catalog.categoryOf(c.sub_category_id);
    if (category === undefined) {
      return dataError(
        'UNKNOWN_SUB_CATEGORY',
        'sub_category_id',
        `sub-category ${c.sub_category_id} is not in the taxonomy`,
      );
    }
    if (c.category_id !== null && c.category_id !== category) {
      return dataError(
        'UNKNOWN_SUB_CATEGORY',
        'category_id',
        `sub-category ${c.sub_category_id} belongs to category ${category}, not ${c.category_id}`,
      );
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------
// Trust policy

export type Actor = 'customer' | 'operator';

export type TrustDecision =
  /** Override this one transaction. */
  | { readonly action: 'transaction' }
  /** Learned mapping for this tenant's merchant, at once. */
  | { readonly action: 'tenant-mapping' }
  /** Global mapping (every tenant). */
  | { readonly action: 'global-mapping' }
  /** Recorded as a proposal; the global mapping waits for more agreeing reports. */
  | { readonly action: 'propose'; readonly agreeing: number; readonly needed: number };

/**
 * A single customer report never rewrites a global mapping: tenant-scoped corrections apply at once;
 * a global one needs `quorum` agreeing reports from distinct customers (counting this one), or an
 * operator.
 */
export function decideTrust(
  scope: Scope,
  actor: Actor,
  agreeingReporters: number,
  quorum: number,
): TrustDecision {
  if (scope === 'transaction') return { action: 'transaction' };
  if (scope === 'merchant') return { action: 'tenant-mapping' };
  if (actor === 'operator') return { action: 'global-mapping' };
  if (agreeingReporters >= quorum) return { action: 'global-mapping' };
  return { action: 'propose', agreeing: agreeingReporters, needed: quorum };
}

/**
 * What global proposals must agree on to count together: the merchant, and the same brand (id, or
 * new brand by folded name) and sub-category.
 */
export function proposalKey(
  merchantKey: string,
  c: Pick<Correction, 'brand_id' | 'new_brand' | 'sub_category_id'>,
): string {
  const brand =
    c.brand_id !== null ? `id:${c.brand_id}` : c.new_brand ? `new:${foldName(c.new_brand.name)}` : 'keep';
  return JSON.stringify([merchantKey, brand, c.sub_category_id ?? 'keep']);
}

export function foldName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
