import { describe, expect, it } from 'vitest';
import { commonsFile, loadNsi } from '../../../../scripts/nsi/index-data.js';

describe('name-suggestion-index reader', () => {
  it('takes the Commons file name from either form of Wikidata logo URL', () => {
    expect(commonsFile('https://commons.wikimedia.org/wiki/Special:FilePath/Gyomei kokuji.svg')).toBe(
      'Gyomei kokuji.svg',
    );
    expect(
      commonsFile(
        'https://commons.wikimedia.org/w/index.php?title=Special%3ARedirect%2Ffile%2FGreat%20Seal%20of%20Canada.png&width=150',
      ),
    ).toBe('Great Seal of Canada.png');
    expect(commonsFile('https://graph.facebook.com/x/picture')).toBeNull();
    // A document in the logo property is no logo.
    expect(
      commonsFile('https://commons.wikimedia.org/wiki/Special:FilePath/Annual report 2019.pdf'),
    ).toBeNull();
    expect(commonsFile(undefined)).toBeNull();
  });

  it('reads items with their tag, countries (regions expanded) and Wikidata facts', () => {
    const index = loadNsi();
    expect(index.version).toMatch(/^\d+\.\d+\.\d+$/);
    const marjane = index.items.find((i) => i.id === 'marjane-dc016e');
    expect(marjane).toMatchObject({
      tag: 'shop=supermarket',
      kind: 'brands',
      countries: ['MA'],
      worldwide: false,
    });
    const carrefour = index.items.find((i) => i.id === 'carrefour-c622af');
    expect(carrefour?.worldwide).toBe(true);
    expect(carrefour?.wikidata).toBe('Q217599');
    expect(index.wikidata('Q217599')?.website).toMatch(/carrefour/);
  }, 60_000);
});
