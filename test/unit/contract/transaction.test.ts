import { describe, expect, it } from 'vitest';
import {
  TEXT_LIMITS,
  textProblem,
  validateTransaction,
  type FieldError,
} from '../../../src/contract/transaction.js';

/** A complete v3 request item. */
function v3Item(): Record<string, unknown> {
  return {
    raw_description: 'SQ *BLUE BOTTLE COFFEE #123 SAN FRANCISCO CA',
    amount: 12.5,
    transaction_id: 'tx-0001',
    customer_id: 'cust-42',
    account_id: 'acc-7',
    card_id: 'card-3',
    card_name: 'Platinum Visa',
    merchant_name: 'BLUE BOTTLE COFFEE',
    merchant_id: 'M-998877',
    mcc: '5814',
    direction: 'DEBIT',
    is_self_transaction: false,
    is_transfer: false,
    iso_currency_cd: 'USD',
    occurred_at: '2024-03-12T14:22:05Z',
    location: {
      iso_country_cd: 'US',
      city: 'San Francisco',
      address: '66 Mint St',
      region: 'CA',
      postal_code: '94103',
    },
  };
}

/** Validates and returns the errors (fails the test if the record was accepted). */
function errorsOf(input: unknown): readonly FieldError[] {
  const result = validateTransaction(input);
  if (result.ok) throw new Error(`accepted ${JSON.stringify(input)}`);
  return result.errors;
}

function fieldsOf(input: unknown): string[] {
  return errorsOf(input).map((e) => e.field);
}

function withField(field: string, value: unknown): Record<string, unknown> {
  return { ...v3Item(), [field]: value };
}

function without(field: string): Record<string, unknown> {
  const item = v3Item();
  delete item[field];
  return item;
}

describe('validateTransaction accepts', () => {
  it('a full v3 item, returning the parsed value', () => {
    const result = validateTransaction(v3Item());
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value).toMatchObject(v3Item());
  });

  it('a v2 item with ref_id, pos_id and pos_entry_mode, keeping them', () => {
    const item = { ...v3Item(), ref_id: 'ref-77', pos_id: 'POS-1', pos_entry_mode: '07' };
    const result = validateTransaction(item);
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.value.ref_id).toBe('ref-77');
      expect(result.value.pos_id).toBe('POS-1');
      expect(result.value.pos_entry_mode).toBe('07');
    }
  });

  it('null for the v2 nullable location fields and optional fields', () => {
    const item = {
      ...v3Item(),
      card_name: null,
      is_self_transaction: null,
      ref_id: null,
      location: { iso_country_cd: 'AE', city: null, address: null, region: null, postal_code: null },
    };
    expect(validateTransaction(item).ok).toBe(true);
  });

  it('only the required fields (optional ones left out)', () => {
    const item = v3Item();
    delete item.card_name;
    delete item.is_self_transaction;
    item.location = { iso_country_cd: 'AE' };
    expect(validateTransaction(item).ok).toBe(true);
  });

  it('empty merchant_name, merchant_id, mcc, card_id and account_id', () => {
    const item = { ...v3Item(), merchant_name: '', merchant_id: '', mcc: '', card_id: '', account_id: '' };
    expect(validateTransaction(item).ok).toBe(true);
  });

  it('a negative amount', () => {
    const result = validateTransaction(withField('amount', -45.75));
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value.amount).toBe(-45.75);
  });

  it('a date without a time, and date-times with offsets and fractions', () => {
    for (const occurred_at of [
      '2024-03-12',
      '2024-03-12T14:22',
      '2024-03-12T14:22:05+04:00',
      '2024-03-12T14:22:05.123Z',
      '2024-02-29T00:00:00Z',
    ]) {
      expect(validateTransaction(withField('occurred_at', occurred_at)).ok, occurred_at).toBe(true);
    }
  });

  it('lower-case country and currency codes and both directions', () => {
    expect(
      validateTransaction({ ...v3Item(), iso_currency_cd: 'aed', location: { iso_country_cd: 'ae' } }).ok,
    ).toBe(true);
    expect(validateTransaction(withField('direction', 'CREDIT')).ok).toBe(true);
  });
});

describe('validateTransaction rejects, naming the field', () => {
  it.each([
    'raw_description',
    'amount',
    'transaction_id',
    'customer_id',
    'account_id',
    'card_id',
    'merchant_name',
    'merchant_id',
    'mcc',
    'is_transfer',
    'iso_currency_cd',
    'occurred_at',
    'location',
  ])('a missing %s', (field) => {
    const errors = errorsOf(without(field));
    expect(errors).toContainEqual({ field, message: 'is required' });
    expect(errors).toHaveLength(1);
  });

  it('a missing direction', () => {
    expect(fieldsOf(without('direction'))).toEqual(['direction']);
  });

  it('a missing nested location.iso_country_cd', () => {
    const errors = errorsOf({ ...v3Item(), location: { city: 'Dubai' } });
    expect(errors).toEqual([{ field: 'location.iso_country_cd', message: 'is required' }]);
  });

  it('an empty or blank required text', () => {
    expect(fieldsOf(withField('raw_description', ''))).toEqual(['raw_description']);
    expect(fieldsOf(withField('transaction_id', '   '))).toEqual(['transaction_id']);
    expect(fieldsOf(withField('customer_id', ''))).toEqual(['customer_id']);
  });

  it.each([
    ['amount', '12.50', 'string'],
    ['amount', null, 'null'],
    ['is_transfer', 'false', 'string'],
    ['merchant_name', 42, 'number'],
    ['location', 'Dubai', 'string'],
    ['raw_description', ['a'], 'array'],
  ])('a wrong type: %s = %j', (field, value, got) => {
    const errors = errorsOf(withField(field, value));
    expect(errors).toHaveLength(1);
    expect(errors[0]?.field).toBe(field);
    expect(errors[0]?.message).toMatch(new RegExp(`^must be a \\w+, got ${got}$`));
  });

  it('a non-finite amount', () => {
    expect(fieldsOf(withField('amount', Number.POSITIVE_INFINITY))).toEqual(['amount']);
    expect(fieldsOf(withField('amount', Number.NaN))).toEqual(['amount']);
  });

  it('a direction outside the enum', () => {
    for (const direction of ['debit', 'OUT', '']) {
      expect(errorsOf(withField('direction', direction)), direction).toEqual([
        { field: 'direction', message: 'must be DEBIT or CREDIT' },
      ]);
    }
  });

  it('a bad currency code', () => {
    for (const code of ['AEDX', 'AE', '784', 'A3D']) {
      const errors = errorsOf(withField('iso_currency_cd', code));
      expect(
        errors.map((e) => e.field),
        code,
      ).toEqual(['iso_currency_cd']);
      expect(errors[0]?.message).toMatch(/ISO 4217/);
    }
  });

  it('a bad country code', () => {
    for (const code of ['ARE', 'U', '12', '']) {
      const errors = errorsOf({ ...v3Item(), location: { iso_country_cd: code } });
      expect(
        errors.map((e) => e.field),
        code,
      ).toEqual(['location.iso_country_cd']);
      expect(errors[0]?.message).toMatch(/ISO 3166-1/);
    }
  });

  it('a malformed date', () => {
    for (const date of [
      '12/03/2024',
      '2024-3-12',
      '2024-13-01',
      '2024-03-32',
      '2024-03-12T25:00:00Z',
      'yesterday',
    ]) {
      const errors = errorsOf(withField('occurred_at', date));
      expect(new Set(errors.map((e) => e.field)), date).toEqual(new Set(['occurred_at']));
      expect(errors[0]?.message).toMatch(/ISO 8601/);
    }
  });

  it('an impossible calendar date (2024-02-30, 2023-02-29, 2024-04-31)', () => {
    for (const date of ['2024-02-30', '2023-02-29T10:00:00Z', '2024-04-31']) {
      expect(errorsOf(withField('occurred_at', date)), date).toEqual([
        { field: 'occurred_at', message: 'must be a real calendar date' },
      ]);
    }
  });

  it('a bad MCC', () => {
    for (const mcc of ['581', '58120', 'ABCD', ' 5812']) {
      const errors = errorsOf(withField('mcc', mcc));
      expect(
        errors.map((e) => e.field),
        mcc,
      ).toEqual(['mcc']);
      expect(errors[0]?.message).toMatch(/merchant category code/);
    }
    expect(fieldsOf(withField('mcc', 5812))).toEqual(['mcc']);
  });

  it('a record that is not an object, with an empty field path', () => {
    for (const input of [null, 'text', 42, []]) {
      const errors = errorsOf(input);
      expect(errors.length).toBeGreaterThan(0);
      expect(errors[0]?.field).toBe('');
    }
  });

  it('reports every problem, not only the first', () => {
    const item = { ...v3Item(), amount: 'x', direction: 'UP', mcc: '1' };
    expect(fieldsOf(item).sort()).toEqual(['amount', 'direction', 'mcc']);
  });
});

describe('field limits and unsafe characters', () => {
  const base = {
    raw_description: 'CARREFOUR DUBAI',
    amount: 10,
    transaction_id: 't-1',
    customer_id: 'c-1',
    account_id: '',
    card_id: '',
    merchant_name: '',
    merchant_id: '',
    mcc: '',
    direction: 'DEBIT',
    is_transfer: false,
    iso_currency_cd: 'AED',
    occurred_at: '2024-03-12',
    location: { iso_country_cd: 'AE' },
  };
  const firstError = (overrides: Record<string, unknown>) => {
    const result = validateTransaction({ ...base, ...overrides });
    return result.ok ? undefined : result.errors[0];
  };

  it.each([
    ['raw_description', TEXT_LIMITS.raw_description],
    ['transaction_id', TEXT_LIMITS.identifier],
    ['customer_id', TEXT_LIMITS.identifier],
    ['merchant_name', TEXT_LIMITS.merchant_name],
    ['card_id', TEXT_LIMITS.identifier],
    ['pos_entry_mode', TEXT_LIMITS.pos_entry_mode],
  ])('%s: %i characters pass, one more is refused naming the field and the limit', (field, max) => {
    expect(firstError({ [field]: 'x'.repeat(max) })).toBeUndefined();
    expect(firstError({ [field]: 'x'.repeat(max + 1) })).toEqual({
      field,
      message: `must be at most ${max} characters`,
    });
  });

  it('a 10 KB transaction id is refused', () => {
    expect(firstError({ transaction_id: 'x'.repeat(10_000) })?.field).toBe('transaction_id');
  });

  it.each([
    ['raw_description', 'CAREEM\u0000', 'must not contain NUL (U+0000) at position 6'],
    ['merchant_name', 'A\u0007B', 'must not contain the control character U+0007 at position 1'],
    [
      'transaction_id',
      'id-\ufffd',
      "contains U+FFFD at position 3: the producer's bytes were not valid UTF-8",
    ],
    ['customer_id', 'c\ud800', 'contains a lone UTF-16 surrogate (U+D800) at position 1'],
  ])('%s with %j is refused: %s', (field, value, message) => {
    expect(firstError({ [field]: value })).toEqual({ field, message });
  });

  it('a NUL in a location field names the nested field', () => {
    expect(firstError({ location: { iso_country_cd: 'AE', city: 'Dub\u0000ai' } })?.field).toBe(
      'location.city',
    );
  });

  it('tabs, line breaks and emoji (surrogate pairs) are fine', () => {
    expect(firstError({ raw_description: 'Purchase\tAED 10\r\nat CARREFOUR 😀' })).toBeUndefined();
  });

  it('textProblem reports nothing for clean text', () => {
    expect(textProblem('كارفور دبي')).toBeUndefined();
  });
});
