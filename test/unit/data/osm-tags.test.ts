import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataFileError, loadOsmTagMap, loadReferenceData } from '../../../src/data/load.js';

const NON_MERCHANT_CATEGORIES = new Set(['2', '8', '9', '14', '20']);

describe('data/osm-tags.json', () => {
  const map = loadOsmTagMap();
  const taxonomy = loadReferenceData().taxonomy;
  const subCategories = new Set(taxonomy.categories.flatMap((c) => c.sub_categories.map((s) => s.id)));
  const entries = Object.entries(map.tags);

  it('validates against its schema and maps a few hundred tags', () => {
    expect(entries.length).toBeGreaterThanOrEqual(300);
  });

  it('maps every merchant tag to a sub-category that exists', () => {
    const unknown = entries.filter(([, id]) => id !== null && !subCategories.has(id));
    expect(unknown).toEqual([]);
  });

  it('maps no tag to a sub-category only non-merchant rows have (ATM, income, loans, transfers in)', () => {
    const wrong = entries.filter(([, id]) => id !== null && NON_MERCHANT_CATEGORIES.has(id.split('-')[0]!));
    expect(wrong).toEqual([]);
  });

  it('has tags that are not merchants, mapped to nothing', () => {
    expect(map.tags['amenity=bench']).toBeNull();
    expect(map.tags['amenity=atm']).toBeNull();
    expect(entries.filter(([, id]) => id === null).length).toBeGreaterThanOrEqual(50);
  });

  it('maps the everyday trades where a reviewer expects them', () => {
    expect(map.tags['amenity=pharmacy']).toBe('10-2');
    expect(map.tags['shop=supermarket']).toBe('6-1');
    expect(map.tags['amenity=fast_food']).toBe('4-4');
    expect(map.tags['amenity=cafe']).toBe('4-3');
    expect(map.tags['amenity=fuel']).toBe('16-6');
  });

  it('gives malls the one mall sub-category the catalog uses (Other Shopping, not Department Stores)', () => {
    // The catalog's mall venues and the model's shopping-centre words must agree (docs/engine.md).
    expect(map.tags['shop=mall']).toBe('13-14');
    expect(map.tags['shop=department_store']).toBe('13-10');
  });

  it('refines a tag only by a sub-category of its own category, for a tag the map has', () => {
    // A refinement names another trade of the same kind of place (a coffee chain filed as fast
    // food); a secondary tag is never allowed to move a place to another category.
    const refinements = Object.entries(map.refinements).flatMap(([tag, byKey]) =>
      Object.values(byKey).flatMap((byValue) => Object.values(byValue).map((id) => ({ tag, id }))),
    );
    expect(refinements.length).toBeGreaterThan(0);
    for (const { tag, id } of refinements) {
      const base = map.tags[tag];
      expect(base, tag).toBeTypeOf('string');
      expect(subCategories.has(id), `${tag} → ${id}`).toBe(true);
      expect(id.split('-')[0], `${tag} → ${id}`).toBe(base!.split('-')[0]);
    }
  });

  it('rejects a malformed tag and an unknown-shaped sub-category id, naming the field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'osm-tags-'));
    writeFileSync(
      join(dir, 'osm-tags.json'),
      JSON.stringify({ version: '1', tags: { 'Shop Bakery': '4-7' } }),
    );
    expect(() => loadOsmTagMap(dir)).toThrow(DataFileError);
    expect(() => loadOsmTagMap(dir)).toThrow(/tags\.Shop Bakery: Invalid key/);
    writeFileSync(
      join(dir, 'osm-tags.json'),
      JSON.stringify({ version: '1', tags: { 'shop=bakery': 'bakery' } }),
    );
    expect(() => loadOsmTagMap(dir)).toThrow(/tags\.shop=bakery: sub-category id/);
  });
});
