import { describe, expect, it } from 'vitest';
import {
  contentDigest,
  LIMITS,
  reporterDigest,
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
    ['an empty tenant', { ...base, tenant: ' ', brand_id: 3 }, 'tenant', /1-64 of/],
    ['the global marker as tenant', { ...base, tenant: '*', brand_id: 3 }, 'tenant', /1-64 of/],
    ['a tenant with a NUL byte', { ...base, tenant: 'bank\u0000a', brand_id: 3 }, 'tenant', /1-64 of/],
    ['a 65-character tenant', { ...base, tenant: 'b'.repeat(65), brand_id: 3 }, 'tenant', /1-64 of/],
    [
      'a NUL byte in an id',
      { ...base, transaction_id: 'tx\u0000', brand_id: 3 },
      'transaction_id',
      /control/,
    ],
    [
      'a 10 KB transaction id',
      { ...base, transaction_id: 'x'.repeat(10_000), brand_id: 3 },
      'transaction_id',
      /at most 200/,
    ],
    ['a brand id beyond 32 bits', { ...base, brand_id: 2 ** 31 }, 'brand_id', /too large/],
    [
      'a NUL byte in a new brand name',
      { ...base, new_brand: { name: 'Corner\u0000Bakery' } },
      'new_brand.name',
      /control/,
    ],
    [
      'a bidirectional override in a new brand name',
      { ...base, new_brand: { name: 'Corner \u202eyrekab' } },
      'new_brand.name',
      /bidirectional/,
    ],
    [
      'a 300,000-character Arabic name',
      { ...base, new_brand: { name: 'Corner Bakery', name_ar: 'م'.repeat(300_000) } },
      'new_brand.name_ar',
      /at most 120/,
    ],
    [
      'a 200 KB website',
      {
        ...base,
        new_brand: { name: 'Corner Bakery', website: `https://corner.example/${'a'.repeat(200_000)}` },
      },
      'new_brand.website',
      /at most 512/,
    ],
    [
      'a website with a tab (URL parsing would drop it)',
      { ...base, new_brand: { name: 'Corner Bakery', website: 'https://corner.exa\tmple' } },
      'new_brand.website',
      /control/,
    ],
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

describe('limits', () => {
  it('accepts new brand texts right at their limits', () => {
    const c = ok({
      ...base,
      new_brand: {
        name: 'N'.repeat(LIMITS.brandName),
        name_ar: 'م'.repeat(LIMITS.brandNameAr),
        website: `https://e.example/${'a'.repeat(LIMITS.website - 'https://e.example/'.length)}`,
      },
    });
    expect(c.new_brand?.name).toHaveLength(LIMITS.brandName);
  });
});

describe('digests', () => {
  it('tells the same correction from one with other content, whatever its time stamp', () => {
    const c = ok({ ...base, brand_id: 17 });
    expect(contentDigest({ ...c, reported_at: 1 })).toBe(contentDigest(c));
    expect(contentDigest({ ...c, brand_id: 18 })).not.toBe(contentDigest(c));
    expect(contentDigest({ ...c, tenant: 'bank-b' })).not.toBe(contentDigest(c));
  });

  it('counts a customer per tenant: the same id in two tenants is two people', () => {
    expect(reporterDigest('bank-a', 'c-1')).not.toBe(reporterDigest('bank-b', 'c-1'));
    expect(reporterDigest('bank-a', 'c-1')).toBe(reporterDigest('bank-a', 'c-1'));
  });
});
