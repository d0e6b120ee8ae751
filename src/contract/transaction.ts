/**
 * The transaction record we accept (the spec's v3 request item, plus the v2-only fields), validated
 * with zod. Shared by the offline CLI, the Kafka pipeline and the HTTP API, so all three reject the
 * same inputs with the same field paths.
 */
import { z } from 'zod';

const ISO_DATE_OR_DATETIME =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)?)?$/;

const requiredText = z.string().trim().min(1, 'must be a non-empty string');
// The spec marks these required, but many banks have no value: an empty string is accepted.
const requiredMaybeEmpty = z.string();
const optionalText = z.string().nullish();

export const locationSchema = z.object({
  iso_country_cd: z.string().regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code'),
  city: optionalText,
  address: optionalText,
  region: optionalText,
  postal_code: optionalText,
});

export const transactionSchema = z.object({
  raw_description: requiredText,
  // Direction is authoritative; a negative amount is accepted and read as its absolute value.
  amount: z.number().finite(),
  transaction_id: requiredText,
  customer_id: requiredText,
  account_id: requiredMaybeEmpty,
  card_id: requiredMaybeEmpty,
  card_name: optionalText,
  merchant_name: requiredMaybeEmpty,
  merchant_id: requiredMaybeEmpty,
  mcc: z.string().regex(/^(\d{4})?$/, 'must be a four-digit merchant category code or empty'),
  direction: z.enum(['DEBIT', 'CREDIT'], 'must be DEBIT or CREDIT'),
  is_self_transaction: z.boolean().nullish(),
  is_transfer: z.boolean(),
  iso_currency_cd: z.string().regex(/^[A-Za-z]{3}$/, 'must be an ISO 4217 three-letter currency code'),
  occurred_at: z.string().superRefine((value, ctx) => {
    // One message per problem: a malformed value is not also reported as an impossible date.
    if (!ISO_DATE_OR_DATETIME.test(value)) {
      ctx.addIssue({ code: 'custom', message: 'must be an ISO 8601 date or date-time' });
    } else if (!isRealCalendarDate(value)) {
      ctx.addIssue({ code: 'custom', message: 'must be a real calendar date' });
    }
  }),
  location: locationSchema,
  // v2-only fields, accepted so v2 clients can send their records unchanged.
  ref_id: optionalText,
  pos_id: optionalText,
  pos_entry_mode: optionalText,
});

/** `2024-02-30` matches the pattern and `Date.parse` rolls it over to March; reject it. */
function isRealCalendarDate(value: string): boolean {
  const [y, m, d] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export type TransactionInput = z.input<typeof transactionSchema>;
export type Transaction = z.output<typeof transactionSchema>;

export interface FieldError {
  /** Dotted path of the offending field, e.g. `location.iso_country_cd`; empty for the record itself. */
  readonly field: string;
  readonly message: string;
}

export type ValidationResult =
  | { readonly ok: true; readonly value: Transaction }
  | { readonly ok: false; readonly errors: readonly FieldError[] };

/** Validates one record; never throws. Every problem is reported with its field path. */
export function validateTransaction(input: unknown): ValidationResult {
  const parsed = transactionSchema.safeParse(input, { reportInput: true });
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, errors: parsed.error.issues.map(toFieldError) };
}

function toFieldError(issue: z.core.$ZodIssue): FieldError {
  const field = issue.path.map(String).join('.');
  if (issue.code === 'invalid_type' && issue.input === undefined) {
    return { field, message: 'is required' };
  }
  if (issue.code === 'invalid_type') {
    return { field, message: `must be a ${issue.expected}, got ${describe(issue.input)}` };
  }
  return { field, message: issue.message };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
