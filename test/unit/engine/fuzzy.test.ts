import { describe, expect, it } from 'vitest';
import { FuzzyIndex, editDistanceAtMostOne } from '../../../src/engine/fuzzy.js';
import { seededRandom } from './fixtures.js';

/** Optimal string alignment (restricted Damerau–Levenshtein) distance, by dynamic programming. */
function osaDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => (d[i] as number[])[j] as number;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

describe('editDistanceAtMostOne', () => {
  it('accepts identical strings', () => {
    expect(editDistanceAtMostOne('carrefour', 'carrefour')).toBe(true);
    expect(editDistanceAtMostOne('', '')).toBe(true);
  });

  it.each([
    ['insertion', 'carrefour', 'carrefoure'],
    ['insertion at the start', 'carrefour', 'xcarrefour'],
    ['deletion', 'carrefour', 'carefour'],
    ['deletion of the last letter', 'carrefour', 'carrefou'],
    ['substitution', 'carrefour', 'carrefoor'],
    ['substitution of the first letter', 'carrefour', 'darrefour'],
    ['transposition', 'carrefour', 'carrefuor'],
    ['transposition at the start', 'carrefour', 'acrrefour'],
    ['transposition at the end', 'carrefour', 'carreforu'],
    ['one letter from nothing', '', 'a'],
  ])('accepts one %s', (_name, a, b) => {
    expect(editDistanceAtMostOne(a, b)).toBe(true);
    expect(editDistanceAtMostOne(b, a)).toBe(true);
  });

  it.each([
    ['two substitutions', 'carrefour', 'carrxfoux'],
    ['two insertions', 'carrefour', 'carrefourxx'],
    ['two deletions', 'carrefour', 'carefou'],
    ['a substitution and an insertion', 'netflix', 'netfliks'],
    ['two transpositions', 'carrefour', 'acrreforu'],
    ['a rotation (not a transposition)', 'abc', 'bca'],
    ['two letters from nothing', '', 'ab'],
  ])('rejects %s', (_name, a, b) => {
    expect(editDistanceAtMostOne(a, b)).toBe(false);
    expect(editDistanceAtMostOne(b, a)).toBe(false);
  });

  it('agrees with a dynamic-programming OSA distance on random strings (seeded)', () => {
    const random = seededRandom(42);
    const alphabet = 'abc';
    const randomString = (max: number): string =>
      Array.from({ length: Math.floor(random() * (max + 1)) }, () =>
        alphabet.charAt(Math.floor(random() * alphabet.length)),
      ).join('');
    const mutate = (s: string): string => {
      // Apply one or two random edits so that near pairs are common.
      let out = s;
      const edits = 1 + Math.floor(random() * 2);
      for (let e = 0; e < edits; e++) {
        const i = Math.floor(random() * (out.length + 1));
        const ch = alphabet.charAt(Math.floor(random() * alphabet.length));
        const kind = Math.floor(random() * 4);
        if (kind === 0) out = out.slice(0, i) + ch + out.slice(i);
        else if (kind === 1) out = out.slice(0, i) + out.slice(i + 1);
        else if (kind === 2) out = out.slice(0, i) + ch + out.slice(i + 1);
        else if (i + 1 < out.length) out = out.slice(0, i) + out[i + 1] + out[i] + out.slice(i + 2);
      }
      return out;
    };
    let near = 0;
    let far = 0;
    for (let round = 0; round < 3000; round++) {
      const a = randomString(7);
      const b = random() < 0.7 ? mutate(a) : randomString(7);
      const expected = osaDistance(a, b) <= 1;
      expect(editDistanceAtMostOne(a, b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(expected);
      if (expected) near++;
      else far++;
    }
    expect(near).toBeGreaterThan(500);
    expect(far).toBeGreaterThan(500);
  });
});

describe('FuzzyIndex', () => {
  const index = new FuzzyIndex([
    { key: 'carrefour', value: 'carrefour' },
    { key: 'starbucks', value: 'starbucks' },
    { key: 'talabat', value: 'talabat' },
    { key: 'adnoc', value: 'adnoc' },
    { key: 'adnic', value: 'adnic' },
  ]);

  it('finds keys one edit away', () => {
    expect(index.lookup('carrefoure')).toEqual(['carrefour']);
    expect(index.lookup('carefour')).toEqual(['carrefour']);
    expect(index.lookup('carrefoor')).toEqual(['carrefour']);
    expect(index.lookup('carrefuor')).toEqual(['carrefour']);
    expect(index.lookup('starbuks')).toEqual(['starbucks']);
    expect(index.lookup('talbat')).toEqual(['talabat']);
  });

  it('never returns an exact match', () => {
    expect(index.lookup('carrefour')).toEqual([]);
    expect(index.lookup('talabat')).toEqual([]);
  });

  it('rejects keys two edits away', () => {
    expect(index.lookup('carrxfoux')).toEqual([]);
    expect(index.lookup('strabuks')).toEqual([]);
    expect(index.lookup('tlbat')).toEqual([]);
  });

  it('returns every key one edit away when several are', () => {
    expect(index.lookup('adnxc').sort()).toEqual(['adnic', 'adnoc']);
    // `adnoc` is itself a key: only the other one, `adnic`, is returned.
    expect(index.lookup('adnoc')).toEqual(['adnic']);
  });

  it('returns nothing for unrelated or empty tokens, and on an empty index', () => {
    expect(index.lookup('zzzzzz')).toEqual([]);
    expect(index.lookup('')).toEqual([]);
    expect(new FuzzyIndex<string>([]).lookup('carrefour')).toEqual([]);
  });

  // Two brands may share a one-word alias in different countries; both must come back.
  it('returns every value stored under a key one edit away', () => {
    const shared = new FuzzyIndex([
      { key: 'wasabi', value: 'wasabi-restaurant' },
      { key: 'wasabi', value: 'wasabi-cloud' },
    ]);
    expect(shared.lookup('wasabl').sort()).toEqual(['wasabi-cloud', 'wasabi-restaurant']);
  });

  // The index hashes variants and compares them character by character: whatever it does, it must
  // find what a scan of every key finds. Small alphabets make hash buckets and repeated letters
  // (`aab` loses an `a` two ways) common.
  it('finds exactly the keys a scan of all keys finds, on random keys and tokens (seeded)', () => {
    const random = seededRandom(7);
    const word = (): string =>
      Array.from({ length: 1 + Math.floor(random() * 7) }, () =>
        'abcd'.charAt(Math.floor(random() * 4)),
      ).join('');
    const keys = [...new Set(Array.from({ length: 400 }, word))];
    const scanned = new FuzzyIndex(keys.map((key) => ({ key, value: key })));
    let hits = 0;
    for (let round = 0; round < 2000; round++) {
      const token = word();
      const expected = keys.filter((k) => k !== token && osaDistance(k, token) === 1).sort();
      expect(scanned.lookup(token).sort(), token).toEqual(expected);
      hits += expected.length;
    }
    expect(hits).toBeGreaterThan(1000);
  });

  describe('prefixLookup', () => {
    const prefixes = new FuzzyIndex([
      { key: 'starbucks', value: 'starbucks' },
      { key: 'star', value: 'star' },
      { key: 'carrefour', value: 'carrefour' },
      { key: 'carrefourcity', value: 'carrefour-city' },
      { key: 'careem', value: 'careem' },
    ]);

    it('returns keys that start with the prefix and are longer than it', () => {
      expect(prefixes.lookup('starbuc')).toEqual([]); // two edits from starbucks: not a typo
      expect(prefixes.prefixLookup('starbuc')).toEqual(['starbucks']);
      expect(prefixes.prefixLookup('carref')).toEqual(['carrefour', 'carrefour-city']);
      expect(prefixes.prefixLookup('car')).toEqual(['careem', 'carrefour', 'carrefour-city']);
    });

    it('excludes the key equal to the prefix', () => {
      expect(prefixes.prefixLookup('star')).toEqual(['starbucks']);
      expect(prefixes.prefixLookup('carrefour')).toEqual(['carrefour-city']);
      expect(prefixes.prefixLookup('starbucks')).toEqual([]);
    });

    it('returns nothing when no key starts with the prefix', () => {
      expect(prefixes.prefixLookup('zara')).toEqual([]);
      expect(prefixes.prefixLookup('carrefourx')).toEqual([]);
      expect(prefixes.prefixLookup('aaa')).toEqual([]);
    });
  });
});
