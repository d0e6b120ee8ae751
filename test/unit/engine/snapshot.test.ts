/**
 * The snapshot indexes the reference data for the engine: every brand by id and slug, every
 * sub-category with its category in both languages, the MCC map, and learned mappings keyed by
 * tenant, so one tenant's mapping is never found under another tenant.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../../src/data/load.js';
import type { ReferenceData } from '../../../src/data/schemas.js';
import { buildSnapshot, learnedKey } from '../../../src/engine/snapshot.js';

let data: ReferenceData;
beforeAll(() => {
  data = loadReferenceData();
});

describe('buildSnapshot', () => {
  it('indexes every catalog brand and product line by id and by slug', () => {
    const s = buildSnapshot(data);
    const brands = data.brands;
    const lines = brands.reduce((n, b) => n + (b.product_lines?.length ?? 0), 0);
    expect(s.brandsById.size).toBe(brands.length + lines);
    expect(s.brandsBySlug.size).toBe(brands.length + lines);
    for (const b of brands.slice(0, 200)) {
      expect(s.brandsById.get(b.id)?.slug).toBe(b.slug);
      expect(s.brandsBySlug.get(b.slug)?.id).toBe(b.id);
    }
  });

  it('knows every sub-category of the taxonomy with its category, in English and Arabic', () => {
    const s = buildSnapshot(data);
    const count = data.taxonomy.categories.reduce((n, c) => n + c.sub_categories.length, 0);
    expect(s.taxonomy.size).toBe(count);
    for (const info of s.taxonomy.values()) {
      expect(info.category.name).not.toBe('');
      expect(info.category.name_ar).toMatch(/[\u0600-\u06ff]/);
      expect(info.sub_category.name_ar).toMatch(/[\u0600-\u06ff]/);
    }
  });

  it('keys learned mappings by tenant: a tenant finds its own and the global ones only', () => {
    const brand = data.brands[0]!;
    const s = buildSnapshot(data, [
      { tenant: 'acme', merchant_id: 'M-1', brand_id: brand.id, sub_category_id: null },
      { tenant: '*', merchant_key: 'corner shop', brand_id: null, sub_category_id: '01-01' },
    ]);
    expect(s.learnedByMerchantId.get(learnedKey('acme', 'M-1'))?.brand_id).toBe(brand.id);
    expect(s.learnedByMerchantId.get(learnedKey('other', 'M-1'))).toBeUndefined();
    expect(s.learnedByMerchantKey.get(learnedKey('*', 'corner shop'))?.sub_category_id).toBe('01-01');
  });

  it('is built again from the same data to the same indexes (no hidden state between builds)', () => {
    const a = buildSnapshot(data);
    const b = buildSnapshot(data);
    expect(b.catalogVersion).toBe(a.catalogVersion);
    expect(b.aliasPatternCount).toBe(a.aliasPatternCount);
    expect([...b.mcc]).toEqual([...a.mcc]);
  });
});
