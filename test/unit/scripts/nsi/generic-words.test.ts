import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DATA_DIR } from '../../../../src/data/load.js';
import { tokenize } from '../../../../src/engine/text.js';
import { genericWords, tradeKeywords } from '../../../../scripts/nsi/generic-words.js';

interface RawBrand {
  name: string;
  aliases: string[];
  weak_aliases: string[];
  countries: string[];
}

describe('generic words for the index import', () => {
  const generic = genericWords();

  it('holds ordinary Russian words in the Latin letters statements print them in', () => {
    expect(generic.has(tokenize('магнит').join(' '))).toBe(true);
    expect(generic.has(tokenize('радуга').join(' '))).toBe(true);
  });

  it("holds the repository's own trade keywords, noise words and neutral shop-name words", () => {
    expect(generic.has('pharmacy')).toBe(true);
    expect(generic.has('llc')).toBe(true);
    expect(generic.has('balance')).toBe(true);
  });

  it('leaves out place names (capitalised dictionary entries)', () => {
    expect(generic.has(tokenize('Москва').join(' '))).toBe(false);
  });
});

describe('data/brands/nsi-mena.json', () => {
  const brands = (
    JSON.parse(readFileSync(join(DEFAULT_DATA_DIR, 'brands', 'nsi-mena.json'), 'utf8')) as {
      brands: RawBrand[];
    }
  ).brands;
  const generic = genericWords();

  it('imports CIS chains, those named only in Cyrillic under their Latin transliteration', () => {
    const cis = brands.filter((b) => b.countries.some((c) => ['RU', 'UA', 'BY', 'KZ'].includes(c)));
    expect(cis.length).toBeGreaterThan(500);
    expect(brands.every((b) => /^[\p{Script=Latin}\p{N}\p{P}\p{S}\p{Zs}]+$/u.test(b.name))).toBe(true);
  });

  it('keeps every alias made only of generic words weak', () => {
    const strong = brands.flatMap((b) =>
      b.aliases
        .filter((a) => !b.weak_aliases.includes(a))
        .filter((a) => {
          const key = tokenize(a).join(' ');
          return generic.has(key) || key.split(' ').every((t) => generic.has(t));
        })
        .map((a) => `${b.name}: ${a}`),
    );
    expect(strong).toEqual([]);
  });

  it('imports no brand named by a category keyword, and no such alias (`Market`, `Farmacia`)', () => {
    const trades = tradeKeywords();
    expect(trades.has('market')).toBe(true);
    const named = brands
      .flatMap((b) => [b.name, ...b.aliases].map((a) => [b.name, a] as const))
      .filter(([, a]) => trades.has(tokenize(a).join(' ')))
      .map(([n, a]) => `${n}: ${a}`);
    expect(named).toEqual([]);
  });
});
