/**
 * The transaction record we accept (the spec's v3 request item, plus the v2-only fields), validated
 * with zod. Shared by the offline CLI, the Kafka pipeline and the HTTP API, so all three reject the
 * same inputs with the same field paths.
 *
 * The zod schema is the source of truth. `validateTransaction` first tries a hand-written check of
 * the same rules (`acceptFast`) that only ever *accepts*: on any doubt it returns nothing and zod
 * parses the record, so every rejection and its messages come from zod. A unit test runs both on
 * valid and mutated records and requires the fast path to accept only what zod accepts, with an
 * identical output (same keys, same order, same values).
 */
import { z } from 'zod';

const ISO_DATE_OR_DATETIME =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)?)?$/;
const COUNTRY_CODE = /^[A-Za-z]{2}$/;
const MCC = /^(\d{4})?$/;
const CURRENCY_CODE = /^[A-Za-z]{3}$/;

/**
 * Longest accepted text per field, in characters (UTF-16 code units). The spec gives no limits
 * ("Limits: not shown"); these are ours (docs/decisions.md, "Field limits"): far above any real
 * statement descriptor, bank alert, identifier or address, and low enough that one record cannot
 * cost the engine, the index or the dead-letter topic more than a few kilobytes.
 */
export const TEXT_LIMITS = {
  raw_description: 2048,
  merchant_name: 256,
  identifier: 128,
  card_name: 128,
  location: 256,
  pos_entry_mode: 32,
} as const;

/**
 * Characters no field may hold: NUL (PostgreSQL cannot store it) and the other C0 controls but tab,
 * line feed and carriage return (bank alerts have line breaks); U+FFFD, which is what a lenient
 * decoder puts where the producer's bytes were not UTF-8; and lone UTF-16 surrogates, which JSON can
 * spell (`\ud800`) but UTF-8 cannot hold (they would be stored as U+FFFD: a changed id).
 */
function unsafeAt(value: string): number {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20) {
      if (c !== 0x09 && c !== 0x0a && c !== 0x0d) return i;
    } else if (c === 0xfffd) {
      return i;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const next = value.charCodeAt(i + 1);
      if (c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return i;
      i++;
    }
  }
  return -1;
}

/** What is wrong with a text's characters, or undefined when nothing is. */
export function textProblem(value: string): string | undefined {
  const index = unsafeAt(value);
  if (index < 0) return undefined;
  const code = value.charCodeAt(index);
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const at = `at position ${index}`;
  if (code === 0) return `must not contain NUL (U+0000) ${at}`;
  if (code < 0x20) return `must not contain the control character ${hex} ${at}`;
  if (code === 0xfffd) return `contains U+FFFD ${at}: the producer's bytes were not valid UTF-8`;
  return `contains a lone UTF-16 surrogate (${hex}) ${at}`;
}

function cleanText(max: number) {
  return z
    .string()
    .max(max, `must be at most ${max} characters`)
    .superRefine((value, ctx) => {
      const problem = textProblem(value);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
    });
}

const requiredText = (max: number) =>
  z.string().trim().min(1, 'must be a non-empty string').pipe(cleanText(max));
// The spec marks these required, but many banks have no value: an empty string is accepted.
const requiredMaybeEmpty = (max: number) => cleanText(max);
const optionalText = (max: number) => cleanText(max).nullish();

export const locationSchema = z.object({
  iso_country_cd: z.string().regex(COUNTRY_CODE, 'must be an ISO 3166-1 alpha-2 country code'),
  city: optionalText(TEXT_LIMITS.location),
  address: optionalText(TEXT_LIMITS.location),
  region: optionalText(TEXT_LIMITS.location),
  postal_code: optionalText(TEXT_LIMITS.location),
});

export const transactionSchema = z.object({
  raw_description: requiredText(TEXT_LIMITS.raw_description),
  // Direction is authoritative; a negative amount is accepted and read as its absolute value.
  amount: z.number().finite(),
  transaction_id: requiredText(TEXT_LIMITS.identifier),
  customer_id: requiredText(TEXT_LIMITS.identifier),
  account_id: requiredMaybeEmpty(TEXT_LIMITS.identifier),
  card_id: requiredMaybeEmpty(TEXT_LIMITS.identifier),
  card_name: optionalText(TEXT_LIMITS.card_name),
  merchant_name: requiredMaybeEmpty(TEXT_LIMITS.merchant_name),
  merchant_id: requiredMaybeEmpty(TEXT_LIMITS.identifier),
  mcc: z.string().regex(MCC, 'must be a four-digit merchant category code or empty'),
  direction: z.enum(['DEBIT', 'CREDIT'], 'must be DEBIT or CREDIT'),
  is_self_transaction: z.boolean().nullish(),
  is_transfer: z.boolean(),
  iso_currency_cd: z.string().regex(CURRENCY_CODE, 'must be an ISO 4217 three-letter currency code'),
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
  ref_id: optionalText(TEXT_LIMITS.identifier),
  pos_id: optionalText(TEXT_LIMITS.identifier),
  pos_entry_mode: optionalText(TEXT_LIMITS.pos_entry_mode),
});

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * `2024-02-30` matches the pattern and `Date.parse` rolls it over to March; reject it. For a value
 * that matched ISO_DATE_OR_DATETIME (month 01-12, day 01-31). The rule is the round trip through
 * `Date.UTC(y, m - 1, d)`, worked out without a Date (this runs for every record): the day must
 * exist in that month of the proleptic Gregorian calendar, and years 0000-0099 never round-trip
 * (`Date.UTC` reads them as 1900-1999). A unit test compares it with the round trip.
 */
export function isRealCalendarDate(value: string): boolean {
  const y = digitsAt(value, 0, 4);
  const m = digitsAt(value, 5, 2);
  const d = digitsAt(value, 8, 2);
  if (y < 100) return false;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return d <= (m === 2 && leap ? 29 : (DAYS_IN_MONTH[m - 1] as number));
}

function digitsAt(value: string, start: number, count: number): number {
  let n = 0;
  for (let i = start; i < start + count; i++) n = n * 10 + value.charCodeAt(i) - 48;
  return n;
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
  const fast = acceptFast(input);
  if (fast !== undefined) return { ok: true, value: fast };
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

/**
 * The fields `acceptFast` knows, in the schema's order; a unit test checks them against
 * `transactionSchema.shape` and `locationSchema.shape`, so a field added to the schema but not here
 * fails the build instead of being skipped.
 */
export const FAST_PATH_FIELDS = {
  transaction: [
    'raw_description',
    'amount',
    'transaction_id',
    'customer_id',
    'account_id',
    'card_id',
    'card_name',
    'merchant_name',
    'merchant_id',
    'mcc',
    'direction',
    'is_self_transaction',
    'is_transfer',
    'iso_currency_cd',
    'occurred_at',
    'location',
    'ref_id',
    'pos_id',
    'pos_entry_mode',
  ],
  location: ['iso_country_cd', 'city', 'address', 'region', 'postal_code'],
} as const;

type Fields = Record<string, unknown>;

/**
 * The schema's rules for a record that passes them all, without zod's per-field machinery (about
 * seven microseconds a record on the Kafka path): the parsed value exactly as zod returns it, or
 * undefined for anything else (zod then parses it and reports every problem). Like zod it reads
 * fields with `input[key]` and keeps an optional key, even one set to undefined, only when
 * `key in input`; it trims the required texts and drops unknown keys.
 */
export function acceptFast(input: unknown): Transaction | undefined {
  if (!isRecord(input)) return undefined;
  const r = input;
  const raw_description = trimmedNonEmpty(r.raw_description, TEXT_LIMITS.raw_description);
  const amount = r.amount;
  const transaction_id = trimmedNonEmpty(r.transaction_id, TEXT_LIMITS.identifier);
  const customer_id = trimmedNonEmpty(r.customer_id, TEXT_LIMITS.identifier);
  const account_id = r.account_id;
  const card_id = r.card_id;
  const card_name = r.card_name;
  const merchant_name = r.merchant_name;
  const merchant_id = r.merchant_id;
  const mcc = r.mcc;
  const direction = r.direction;
  const is_self_transaction = r.is_self_transaction;
  const is_transfer = r.is_transfer;
  const iso_currency_cd = r.iso_currency_cd;
  const occurred_at = r.occurred_at;
  if (
    raw_description === undefined ||
    typeof amount !== 'number' ||
    !Number.isFinite(amount) ||
    transaction_id === undefined ||
    customer_id === undefined ||
    !isText(account_id, TEXT_LIMITS.identifier) ||
    !isText(card_id, TEXT_LIMITS.identifier) ||
    !isNullishText(card_name, TEXT_LIMITS.card_name) ||
    !isText(merchant_name, TEXT_LIMITS.merchant_name) ||
    !isText(merchant_id, TEXT_LIMITS.identifier) ||
    typeof mcc !== 'string' ||
    !MCC.test(mcc) ||
    (direction !== 'DEBIT' && direction !== 'CREDIT') ||
    (is_self_transaction !== undefined &&
      is_self_transaction !== null &&
      typeof is_self_transaction !== 'boolean') ||
    typeof is_transfer !== 'boolean' ||
    typeof iso_currency_cd !== 'string' ||
    !CURRENCY_CODE.test(iso_currency_cd) ||
    typeof occurred_at !== 'string' ||
    !ISO_DATE_OR_DATETIME.test(occurred_at) ||
    !isRealCalendarDate(occurred_at)
  ) {
    return undefined;
  }
  const location = acceptLocation(r.location);
  if (location === undefined) return undefined;
  const ref_id = r.ref_id;
  const pos_id = r.pos_id;
  const pos_entry_mode = r.pos_entry_mode;
  if (
    !isNullishText(ref_id, TEXT_LIMITS.identifier) ||
    !isNullishText(pos_id, TEXT_LIMITS.identifier) ||
    !isNullishText(pos_entry_mode, TEXT_LIMITS.pos_entry_mode)
  ) {
    return undefined;
  }

  const out: Fields = { raw_description, amount, transaction_id, customer_id, account_id, card_id };
  if (card_name !== undefined || 'card_name' in r) out.card_name = card_name;
  out.merchant_name = merchant_name;
  out.merchant_id = merchant_id;
  out.mcc = mcc;
  out.direction = direction;
  if (is_self_transaction !== undefined || 'is_self_transaction' in r)
    out.is_self_transaction = is_self_transaction;
  out.is_transfer = is_transfer;
  out.iso_currency_cd = iso_currency_cd;
  out.occurred_at = occurred_at;
  out.location = location;
  if (ref_id !== undefined || 'ref_id' in r) out.ref_id = ref_id;
  if (pos_id !== undefined || 'pos_id' in r) out.pos_id = pos_id;
  if (pos_entry_mode !== undefined || 'pos_entry_mode' in r) out.pos_entry_mode = pos_entry_mode;
  return out as Transaction;
}

function acceptLocation(input: unknown): Fields | undefined {
  if (!isRecord(input)) return undefined;
  const iso_country_cd = input.iso_country_cd;
  const city = input.city;
  const address = input.address;
  const region = input.region;
  const postal_code = input.postal_code;
  if (
    typeof iso_country_cd !== 'string' ||
    !COUNTRY_CODE.test(iso_country_cd) ||
    !isNullishText(city, TEXT_LIMITS.location) ||
    !isNullishText(address, TEXT_LIMITS.location) ||
    !isNullishText(region, TEXT_LIMITS.location) ||
    !isNullishText(postal_code, TEXT_LIMITS.location)
  ) {
    return undefined;
  }
  const out: Fields = { iso_country_cd };
  if (city !== undefined || 'city' in input) out.city = city;
  if (address !== undefined || 'address' in input) out.address = address;
  if (region !== undefined || 'region' in input) out.region = region;
  if (postal_code !== undefined || 'postal_code' in input) out.postal_code = postal_code;
  return out;
}

/** zod's object check: any non-null object that is not an array. */
function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `cleanText(max)`: a string within the limit and without unsafe characters. */
function isText(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length <= max && unsafeAt(value) < 0;
}

function isNullishText(value: unknown, max: number): boolean {
  return value === undefined || value === null || isText(value, max);
}

/** `requiredText(max)`: the trimmed string when it is clean and not empty, else undefined. */
function trimmedNonEmpty(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed.length > 0 && isText(trimmed, max) ? trimmed : undefined;
}
