// Guarantee: validateTransaction's fast path (acceptFast) accepts only what the zod schema accepts,
// and returns exactly what zod returns (same keys, same order, same values); every rejection, and
// so every error message, still comes from zod. Checked on realistic and deliberately broken
// records, plain objects and Avro-decoded ones.
import avro from 'avsc';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  FAST_PATH_FIELDS,
  acceptFast,
  isRealCalendarDate,
  locationSchema,
  transactionSchema,
  validateTransaction,
} from '../../../src/contract/transaction.js';
import { loadReferenceData } from '../../../src/data/load.js';
import { generateSamples } from '../../../src/samples/generate.js';

/** Keys in order and values, recursively: two values with the same form are interchangeable. */
function form(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return Object.is(value, -0) ? '-0' : value;
  if (Array.isArray(value)) return ['array', ...value.map(form)];
  return Object.keys(value).map((k) => [k, form((value as Record<string, unknown>)[k])]);
}

/** Checks one input; returns whether the fast path accepted it. */
function check(input: unknown): boolean {
  const fast = acceptFast(input);
  const zod = transactionSchema.safeParse(input, { reportInput: true });
  if (fast !== undefined) {
    expect(zod.success, JSON.stringify(input)).toBe(true);
    if (zod.success) expect(form(fast), JSON.stringify(input)).toEqual(form(zod.data));
  }
  // Whatever the path, the public result is zod's.
  const result = validateTransaction(input);
  expect(result.ok).toBe(zod.success);
  if (result.ok && zod.success) expect(form(result.value)).toEqual(form(zod.data));
  return fast !== undefined;
}

const data = loadReferenceData();
const samples = [...generateSamples(data, 3_000, { seed: 21, customers: 300, badShare: 0.3 })];
const valid = samples.filter((s) => s.valid).map((s) => s.value as Record<string, unknown>);

/** Values tried in every field: right and wrong types, edge cases of each rule. */
const PROBES: unknown[] = [
  undefined,
  null,
  '',
  ' ',
  '  x  ',
  'x',
  0,
  -0,
  12.5,
  -3,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  false,
  [],
  ['a'],
  {},
  'DEBIT',
  'CREDIT',
  'debit',
  '5812',
  ' 5812',
  '581',
  'AED',
  'aed',
  'AEDX',
  'AE',
  'a1',
  '2024-03-12',
  '2024-02-29T00:00:00Z',
  '2023-02-29',
  '2024-04-31',
  '0050-01-01',
  '2024-03-12T14:22:05.123+04:00',
  '2024-03-12T25:00:00Z',
  '2024-03-12 14:22',
  '2024-03-12\n',
  new String('x'),
  { iso_country_cd: 'AE' },
  { iso_country_cd: 'AE', city: null, address: undefined, extra: 1 },
  { iso_country_cd: 'ae', city: 3 },
  { city: 'Dubai' },
  // Lengths at and over every limit, and the characters no text may hold.
  ...[32, 33, 128, 129, 256, 257, 2048, 2049].map((n) => 'x'.repeat(n)),
  ` ${'x'.repeat(128)} `,
  'a\u0000b',
  '\u0000',
  'tab\there',
  'line\nbreak\r\n',
  'bell\u0007',
  'esc\u001b[0m',
  'del\u007f',
  'bad\ufffdbyte',
  'lone\ud800surrogate',
  'lone\udc00low',
  'pair\ud83d\ude00ok',
  'ends with high\ud83d',
];

describe('the fast path of validateTransaction', () => {
  it('knows every field of the zod schema, in its order', () => {
    expect([...FAST_PATH_FIELDS.transaction]).toEqual(Object.keys(transactionSchema.shape));
    expect([...FAST_PATH_FIELDS.location]).toEqual(Object.keys(locationSchema.shape));
  });

  it('accepts every valid sample record, as zod returns it', () => {
    expect(valid.length).toBeGreaterThan(1_500);
    for (const v of valid) expect(check(v)).toBe(true);
  });

  it('agrees with zod on the sample generator’s broken records', () => {
    for (const s of samples.filter((x) => !x.valid)) check(s.value);
  });

  it('accepts Avro-decoded records (class instances, nulls for absent optionals) as zod does', () => {
    const type = avro.Type.forSchema(JSON.parse(readFileSync('schemas/raw-transaction.avsc', 'utf8')));
    for (const v of valid.slice(0, 300)) expect(check(type.fromBuffer(type.toBuffer(v)))).toBe(true);
  });

  it('agrees with zod when any one field takes any probe value, or is left out', () => {
    const bases = [valid[0]!, { ...valid[1]!, ref_id: 'r', pos_id: null, pos_entry_mode: '07' }];
    for (const base of bases) {
      for (const field of [...FAST_PATH_FIELDS.transaction, 'unknown_field']) {
        for (const probe of PROBES) check({ ...base, [field]: probe });
        const without = { ...base };
        delete without[field];
        check(without);
      }
      for (const field of FAST_PATH_FIELDS.location) {
        for (const probe of PROBES) check({ ...base, location: { iso_country_cd: 'SA', [field]: probe } });
      }
    }
  });

  it('agrees with zod on inherited fields, extra keys and non-objects', () => {
    const base = valid[2]!;
    check(Object.assign(Object.create({ amount: 4 }) as object, { ...base, amount: undefined }));
    const inherited = Object.create({ card_name: 'inherited' }) as Record<string, unknown>;
    Object.assign(inherited, base);
    delete inherited.card_name;
    check(inherited);
    check({ ...base, __proto__: { is_self_transaction: true } });
    for (const input of [null, undefined, 'text', 42, [], [base], new Date(0)])
      expect(check(input)).toBe(false);
  });
});

describe('isRealCalendarDate', () => {
  /** The rule it implements: the date survives a round trip through Date.UTC. */
  function roundTrips(value: string): boolean {
    const [y, m, d] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
    const date = new Date(Date.UTC(y, m - 1, d));
    return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  }

  it('is the Date.UTC round trip for every month and day of early, leap-rule and late years', () => {
    const years = [
      ...Array.from({ length: 130 }, (_, i) => i),
      ...Array.from({ length: 40 }, (_, i) => 1580 + i),
      ...Array.from({ length: 120 }, (_, i) => 1890 + i),
      ...Array.from({ length: 120 }, (_, i) => 1995 + i),
      ...Array.from({ length: 12 }, (_, i) => 2395 + i),
      ...Array.from({ length: 10 }, (_, i) => 9990 + i),
    ];
    for (const y of years) {
      for (let m = 1; m <= 12; m++) {
        for (let d = 1; d <= 31; d++) {
          const value = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}T08:00Z`;
          if (isRealCalendarDate(value) !== roundTrips(value)) expect(value).toBe('the same verdict');
        }
      }
    }
  });
});
