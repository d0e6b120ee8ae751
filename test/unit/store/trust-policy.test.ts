import { describe, expect, it } from 'vitest';
import { decideTrust, proposalKey } from '../../../src/feedback/correction.js';

describe('trust policy', () => {
  it('applies transaction and merchant (tenant) corrections at once, for customers and operators', () => {
    for (const actor of ['customer', 'operator'] as const) {
      expect(decideTrust('transaction', actor, 0, 3)).toEqual({ action: 'transaction' });
      expect(decideTrust('merchant', actor, 0, 3)).toEqual({ action: 'tenant-mapping' });
    }
  });

  it('never lets a single customer report change a global mapping', () => {
    expect(decideTrust('global', 'customer', 1, 3)).toEqual({ action: 'propose', agreeing: 1, needed: 3 });
    expect(decideTrust('global', 'customer', 2, 3)).toEqual({ action: 'propose', agreeing: 2, needed: 3 });
  });

  it('changes the global mapping once the quorum of distinct customers agrees', () => {
    expect(decideTrust('global', 'customer', 3, 3)).toEqual({ action: 'global-mapping' });
    expect(decideTrust('global', 'customer', 5, 3)).toEqual({ action: 'global-mapping' });
  });

  it('lets an operator change the global mapping alone', () => {
    expect(decideTrust('global', 'operator', 0, 3)).toEqual({ action: 'global-mapping' });
  });

  it('honours a configured quorum (GLOBAL_CORRECTION_QUORUM)', () => {
    expect(decideTrust('global', 'customer', 4, 5)).toMatchObject({ action: 'propose', needed: 5 });
    expect(decideTrust('global', 'customer', 1, 1)).toEqual({ action: 'global-mapping' });
  });

  it('counts proposals together only when they agree on merchant, brand and sub-category', () => {
    const key = (over: object) =>
      proposalKey('blue bottle coffee', { brand_id: null, new_brand: null, sub_category_id: null, ...over });
    expect(key({ brand_id: 7 })).toBe(key({ brand_id: 7 }));
    expect(key({ brand_id: 7 })).not.toBe(key({ brand_id: 8 }));
    expect(key({ brand_id: 7 })).not.toBe(key({ brand_id: 7, sub_category_id: '4-3' }));
    expect(proposalKey('other shop', { brand_id: 7, new_brand: null, sub_category_id: null })).not.toBe(
      key({ brand_id: 7 }),
    );
    // New brands agree by name, whatever the case, accents or punctuation.
    expect(key({ new_brand: { name: 'Café Nero', name_ar: null, website: null } })).toBe(
      key({ new_brand: { name: 'CAFE NERO!', name_ar: null, website: null } }),
    );
  });
});
