import { describe, expect, it } from 'vitest';
import { osmLabel } from '../../../../scripts/nsi/osm-label.js';

const MAP = {
  tags: { 'amenity=fast_food': '4-4', 'amenity=cafe': '4-3', 'amenity=atm': null },
  refinements: { 'amenity=fast_food': { cuisine: { coffee_shop: '4-3', donut: '4-7' } } },
};

describe('osmLabel', () => {
  it("gives a fast-food chain whose cuisine is coffee the coffee shops' sub-category", () => {
    expect(osmLabel(MAP, 'amenity=fast_food', { cuisine: 'coffee_shop' })).toBe('4-3');
  });

  it('reads the first of several cuisines, the main one', () => {
    expect(osmLabel(MAP, 'amenity=fast_food', { cuisine: 'donut;coffee_shop' })).toBe('4-7');
    expect(osmLabel(MAP, 'amenity=fast_food', { cuisine: 'burger;coffee_shop' })).toBe('4-4');
  });

  it("keeps the tag's own sub-category without the secondary tag or with a value the map lacks", () => {
    expect(osmLabel(MAP, 'amenity=fast_food', {})).toBe('4-4');
    expect(osmLabel(MAP, 'amenity=fast_food', { cuisine: 'pizza' })).toBe('4-4');
    // A refinement belongs to its tag: a cafe with a doughnut cuisine stays a cafe.
    expect(osmLabel(MAP, 'amenity=cafe', { cuisine: 'donut' })).toBe('4-3');
  });

  it('says null for a tag that is no merchant and undefined for one the map does not know', () => {
    expect(osmLabel(MAP, 'amenity=atm', { cuisine: 'coffee_shop' })).toBeNull();
    expect(osmLabel(MAP, 'shop=unknown', {})).toBeUndefined();
  });
});
