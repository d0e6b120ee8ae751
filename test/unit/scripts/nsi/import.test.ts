import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DATA_DIR } from '../../../../src/data/load.js';
import { slugify, statementSpellings } from '../../../../scripts/nsi/import.js';
import { domainOf } from '../../../../scripts/nsi/link.js';
import { runImport } from '../../../../scripts/import-nsi.js';

const OSM_TAGS = join(DEFAULT_DATA_DIR, 'osm-tags.json');

describe('import helpers', () => {
  it('spells a name as statements print it', () => {
    expect(statementSpellings('Ocean Basket', [])).toEqual(['OCEAN BASKET', 'OCEANBASKET']);
    expect(statementSpellings('Marks & Spencer', ['M&S'])).toEqual([
      'MARKS & SPENCER',
      'MARKS AND SPENCER',
      'MARKSSPENCER',
      'M&S',
    ]);
    expect(statementSpellings('Maroc Telecom', ['اتصالات المغرب'])).toContain('اتصالات المغرب');
  });

  it('makes slugs and domains', () => {
    expect(slugify('Kahve Dünyası')).toBe('kahve-dunyasi');
    expect(domainOf('https://www.careem.com/en-ae/')).toBe('careem.com');
    expect(domainOf('not a url')).toBeNull();
  });
});

describe('data/brands/nsi-mena.json and the Wikidata links', () => {
  it('are what `npm run data:import-nsi` makes from the pinned index', (ctx) => {
    if (!existsSync(OSM_TAGS)) {
      ctx.skip(`${OSM_TAGS} is absent (it comes with issue 13): cannot regenerate the import`);
      return;
    }
    const { files } = runImport(DEFAULT_DATA_DIR, OSM_TAGS, false);
    const stale = [...files].filter(([path, text]) => readFileSync(path, 'utf8') !== text).map(([p]) => p);
    expect(stale, 'stale: run npm run data:import-nsi').toEqual([]);
  }, 120_000);

  it('fails clearly without the OSM tag map', () => {
    expect(() => runImport(DEFAULT_DATA_DIR, '/nonexistent/osm-tags.json', false)).toThrow(
      /osm-tags\.json not found/,
    );
  });
});
