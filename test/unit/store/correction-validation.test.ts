import { describe, expect, it } from 'vitest';
import {
  checkAgainstCatalog,
  validateCorrection,
  type Correction,
} from '../../../src/feedback/correction.js';

const base = {
  correction_id: 'c-1',
  tenant: 'bank-a',
  transaction_id: 'tx-1',
  customer_id: 'cust-1',
  scope: 'merchant',
  reported_at: 1_760_000_000_000,
};

function ok(input: Record<string, unknown>): Correction {
  const result = validateCorrection(input);
  if (!result.ok) throw new Error(`expected valid, got ${JSON.stringify(result.error)}`);
  return result.value;
}

function error(input: unknown) {
  const result = validateCorrection(input);
  if (result.ok) throw new Error('expected invalid');
  return result.error;
}

describe('validateCorrection', () => {
  it('accepts a brand correction as decoded from Avro (nulls everywhere else)', () => {
    expect(ok({ ...base, brand_id: 17, new_brand: null, category_id: null, sub_category_id: null })).toEqual({
      ...base,
      brand_id: 17,
      new_brand: null,
      category_id: null,
      sub_category_id: null,
    });
  });

  it('accepts JSON with fields left out and reported_at as an ISO date-time', () => {
    const c = ok({ ...base, sub_category_id: '4-2', reported_at: '2026-10-01T10:00:00Z' });
    expect(c).toMatchObject({ brand_id: null, new_brand: null, category_id: null, sub_category_id: '4-2' });
    expect(c.reported_at).toBe(Date.parse('2026-10-01T10:00:00Z'));
  });

  it('accepts a new brand, wrapped the Avro way or not, with optional Arabic name and website', () => {
    const plain = ok({ ...base, new_brand: { name: 'Corner Bakery' } });
    expect(plain.new_brand).toEqual({ name: 'Corner Bakery', name_ar: null, website: null });
    const wrapped = ok({
      ...base,
      new_brand: {
        'com.txenrich.NewBrand': {
          name: 'Corner Bakery',
          name_ar: 'مخبز',
          website: 'https://corner.example',
        },
      },
    });
    expect(wrapped.new_brand).toEqual({
      name: 'Corner Bakery',
      name_ar: 'مخبز',
      website: 'https://corner.example',
    });
  });

  it('accepts a category with its sub-category', () => {
    expect(ok({ ...base, category_id: '4', sub_category_id: '4-2' })).toMatchObject({
      category_id: '4',
      sub_category_id: '4-2',
    });
  });

  it.each([
    ['neither brand nor category', { ...base }, '', /corrects nothing/],
    [
      'a category without its sub-category',
      { ...base, category_id: '4' },
      'sub_category_id',
      /needs the sub-category/,
    ],
    [
      'both brand_id and new_brand',
      { ...base, brand_id: 3, new_brand: { name: 'X' } },
      'new_brand',
      /not both/,
    ],
    ['an unknown scope', { ...base, brand_id: 3, scope: 'planet' }, 'scope', /transaction, merchant, global/],
    [
      'a missing correction_id',
      { ...base, correction_id: undefined, brand_id: 3 },
      'correction_id',
      /required/,
    ],
    ['an empty tenant', { ...base, tenant: ' ', brand_id: 3 }, 'tenant', /non-empty/],
    ['a non-integer brand id', { ...base, brand_id: 1.5 }, 'brand_id', /.+/],
    ['a malformed sub-category', { ...base, sub_category_id: 'food' }, 'sub_category_id', /like "4-2"/],
    ['a new brand without a name', { ...base, new_brand: { name: '' } }, 'new_brand.name', /non-empty/],
    [
      'a new brand with a bad website',
      { ...base, new_brand: { name: 'X', website: 'not a url' } },
      'new_brand.website',
      /URL/,
    ],
    ['a bad reported_at', { ...base, brand_id: 3, reported_at: 'yesterday' }, 'reported_at', /.+/],
  ])('rejects %s', (_, input, field, message) => {
    const e = error(input);
    expect(e.code).toBe('INVALID_CORRECTION');
    expect(e.field).toBe(field);
    expect(e.message).toMatch(message);
  });

  it('rejects what is not an object', () => {
    for (const input of [null, 'text', 42, [base]]) expect(error(input).code).toBe('INVALID_CORRECTION');
  });
});

describe('checkAgainstCatalog', () => {
  const catalog = {
    hasBrand: (id: number) => id === 17,
    categoryOf: (sub: string) => ({ '4-2': '4', '6-1': '6' })[sub],
  };

  it('passes known brands and sub-categories', () => {
    expect(
      checkAgainstCatalog(ok({ ...base, brand_id: 17, sub_category_id: '4-2', category_id: '4' }), catalog),
    ).toBeNull();
  });

  it('names an unknown brand id', () => {
    expect(checkAgainstCatalog(ok({ ...base, brand_id: 18 }), catalog)).toMatchObject({
      code: 'UNKNOWN_BRAND',
      field: 'brand_id',
    });
  });

  it('names an unknown sub-category, and one that is not in the given category', () => {
    expect(checkAgainstCatalog(ok({ ...base, sub_category_id: '99-1' }), catalog)).toMatchObject({
      code: 'UNKNOWN_SUB_CATEGORY',
      field: 'sub_category_id',
    });
    expect(
      checkAgainstCatalog(ok({ ...base, category_id: '4', sub_category_id: '6-1' }), catalog),
    ).toMatchObject({
      code: 'UNKNOWN_SUB_CATEGORY',
      field: 'category_id',
    });
  });
});
