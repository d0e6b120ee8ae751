/**
 * A feedback correction (schemas/feedback-correction.avsc, or the same fields as JSON) and its
 * validation: shape, consistency and the limits at the door. Pure: no I/O.
 *
 * Limits (docs/store.md): ids at most 200 characters; the tenant by the API's tenant pattern (`*`
 * is the store's global marker and never comes from outside); `new_brand` name and Arabic name at
 * most 120 characters, website an http(s) URL of at most 512 — so that no correction can make
 * re-enriched records the broker would refuse; no control characters anywhere (a NUL byte is what
 * PostgreSQL refuses), and no bidirectional-text controls in brand texts (they disguise a name).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { dataError, type DataError } from '../errors/catalog.js';
import { TENANT_ID_PATTERN, TENANT_ID_RULE } from '../contract/tenant.js';

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

export const LIMITS = {
  id: 200,
  brandName: 120,
  brandNameAr: 120,
  website: 512,
} as const;

/** C0 and C1 control characters and DEL: never part of an id, a name or a URL. */
const CONTROL = /\p{Cc}/u;
/** Bidirectional embeddings, overrides and isolates: they make a brand name read as another. */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;
const NO_CONTROL = 'must not contain control characters';

const id = (what: string) =>
  z
    .string(`${what} must be a string`)
    .trim()
    .min(1, `${what} must be a non-empty string`)
    .max(LIMITS.id, `${what} must be at most ${LIMITS.id} characters`)
    .refine((v) => !CONTROL.test(v), NO_CONTROL);

const brandText = (max: number) =>
  z
    .string('must be a string')
    .trim()
    .max(max, `must be at most ${max} characters`)
    .refine((v) => !CONTROL.test(v) && !BIDI_CONTROL.test(v), `${NO_CONTROL} or bidirectional controls`);

const nullable = <T extends z.ZodType<string, string>>(schema: T) =>
  schema
    .transform((v) => (v === '' ? null : v))
    .nullish()
    .transform((v) => v ?? null);

const nullableCode = z
  .string()
  .trim()
  .max(8, 'is too long')
  .transform((v) => (v === '' ? null : v))
  .nullish()
  .transform((v) => v ?? null);

const newBrandSchema = z.object({
  name: brandText(LIMITS.brandName).pipe(z.string().min(1, 'must be a non-empty string')),
  name_ar: nullable(brandText(LIMITS.brandNameAr)),
  website: z
    .string('must be a string')
    .trim()
    .max(LIMITS.website, `must be at most ${LIMITS.website} characters`)
    // Checked before URL parsing, which silently drops tabs and newlines.
    .refine((v) => !CONTROL.test(v), NO_CONTROL)
    .pipe(z.union([z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }), z.literal('')]))
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
    .max(64, 'must be epoch milliseconds or an ISO 8601 date-time')
    .refine((s) => Number.isFinite(Date.parse(s)), 'must be epoch milliseconds or an ISO 8601 date-time'),
  z.date(),
]);

export const correctionSchema = z.object({
  correction_id: id('correction_id'),
  tenant: z.string('tenant must be a string').trim().regex(TENANT_ID_PATTERN, `tenant ${TENANT_ID_RULE}`),
  transaction_id: id('transaction_id'),
  customer_id: id('customer_id'),
  // The store's brand ids are 32-bit (PostgreSQL integer, Avro int).
  brand_id: z
    .number()
    .int()
    .positive('must be a positive integer')
    .max(2_147_483_647, 'is too large')
    .nullish(),
  new_brand: z.preprocess(unwrapNewBrand, newBrandSchema.nullish()),
  category_id: nullableCode.pipe(
    z
      .string()
      .regex(/^\d{1,2}$/, 'must be a category id like "4"')
      .nullable(),
  ),
  sub_category_id: nullableCode.pipe(
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

/** The reporter of a correction: enough to count distinct customers, without keeping the id. */
export function reporterDigest(tenant: string, customerId: string): string {
  return createHash('sha256').update(`${tenant}\u0000${customerId}`).digest('hex').slice(0, 32);
}

/**
 * What a correction says, as a digest: a redelivered record (same content) is a duplicate, the same
 * id with other content is a re-used id. reported_at is left out: a client that re-sends a report
 * with a fresh time stamp still sends the same correction.
 */
export function contentDigest(c: Correction): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        c.tenant,
        c.transaction_id,
        c.customer_id,
        c.brand_id,
        c.new_brand ? [c.new_brand.name, c.new_brand.name_ar, c.new_brand.website] : null,
        c.category_id,
        c.sub_category_id,
        c.scope,
      ]),
    )
    .digest('hex')
    .slice(0, 32);
}
