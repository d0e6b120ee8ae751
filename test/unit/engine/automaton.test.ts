import { describe, expect, it } from 'vitest';
import { TokenAutomaton, type TokenMatch } from '../../../src/engine/automaton.js';
import { UNKNOWN_WORD, Vocabulary } from '../../../src/engine/vocabulary.js';
import { seededRandom } from './fixtures.js';

type Pattern<T> = { readonly tokens: readonly string[]; readonly value: T };

function sorted<T>(matches: readonly TokenMatch<T>[]): { start: number; end: number; value: T }[] {
  return matches
    .map((m) => ({ start: m.start, end: m.end, value: m.value }))
    .sort((a, b) => a.start - b.start || a.end - b.end || String(a.value).localeCompare(String(b.value)));
}

/** Every (start, end, value) where a pattern's tokens equal the text's tokens, by direct comparison. */
function bruteForce<T>(patterns: readonly Pattern<T>[], text: readonly string[]): TokenMatch<T>[] {
  const out: TokenMatch<T>[] = [];
  for (const p of patterns) {
    if (p.tokens.length === 0) continue;
    for (let s = 0; s + p.tokens.length <= text.length; s++) {
      if (p.tokens.every((t, k) => text[s + k] === t)) {
        out.push({ start: s, end: s + p.tokens.length, value: p.value });
      }
    }
  }
  return out;
}

function search<T>(patterns: readonly Pattern<T>[], text: readonly string[]) {
  return sorted(new TokenAutomaton(patterns).search(text));
}

describe('TokenAutomaton', () => {
  it('finds single- and multi-token patterns with their token positions', () => {
    const result = search(
      [
        { tokens: ['blue', 'bottle'], value: 'bb' },
        { tokens: ['coffee'], value: 'c' },
      ],
      ['sq', 'blue', 'bottle', 'coffee', 'sf'],
    );
    expect(result).toEqual([
      { start: 1, end: 3, value: 'bb' },
      { start: 3, end: 4, value: 'c' },
    ]);
  });

  it('finds overlapping patterns', () => {
    const result = search(
      [
        { tokens: ['a', 'b'], value: 'ab' },
        { tokens: ['b', 'c'], value: 'bc' },
      ],
      ['a', 'b', 'c'],
    );
    expect(result).toEqual([
      { start: 0, end: 2, value: 'ab' },
      { start: 1, end: 3, value: 'bc' },
    ]);
  });

  it('finds nested patterns that end at the same token (dictionary suffix links)', () => {
    const result = search(
      [
        { tokens: ['amazon', 'prime', 'video'], value: 'apv' },
        { tokens: ['prime', 'video'], value: 'pv' },
        { tokens: ['video'], value: 'v' },
        { tokens: ['amazon'], value: 'a' },
      ],
      ['amazon', 'prime', 'video'],
    );
    expect(result).toEqual([
      { start: 0, end: 1, value: 'a' },
      { start: 0, end: 3, value: 'apv' },
      { start: 1, end: 3, value: 'pv' },
      { start: 2, end: 3, value: 'v' },
    ]);
  });

  it('follows failure links after a partial match', () => {
    // `a b c` fails at `d`; the automaton must fall back to the `b c` state and complete `b c d`.
    const result = search(
      [
        { tokens: ['a', 'b', 'c', 'e'], value: 'abce' },
        { tokens: ['b', 'c', 'd'], value: 'bcd' },
      ],
      ['a', 'b', 'c', 'd'],
    );
    expect(result).toEqual([{ start: 1, end: 4, value: 'bcd' }]);
  });

  it('finds repeated and self-overlapping occurrences', () => {
    const result = search([{ tokens: ['a', 'a'], value: 'aa' }], ['a', 'a', 'a']);
    expect(result).toEqual([
      { start: 0, end: 2, value: 'aa' },
      { start: 1, end: 3, value: 'aa' },
    ]);
  });

  it('matches whole tokens only, never inside a longer token or across glued tokens', () => {
    const patterns = [
      { tokens: ['car'], value: 'car' },
      { tokens: ['blue', 'bottle'], value: 'bb' },
    ];
    expect(search(patterns, ['carrefour', 'scar', 'cars'])).toEqual([]);
    expect(search(patterns, ['bluebottle'])).toEqual([]);
    expect(search(patterns, ['blue', 'bottles'])).toEqual([]);
    expect(search(patterns, ['car'])).toEqual([{ start: 0, end: 1, value: 'car' }]);
  });

  it('restarts after an unknown token', () => {
    expect(search([{ tokens: ['a', 'b'], value: 'ab' }], ['a', 'x', 'b'])).toEqual([]);
    expect(search([{ tokens: ['a', 'b'], value: 'ab' }], ['a', 'x', 'a', 'b'])).toEqual([
      { start: 2, end: 4, value: 'ab' },
    ]);
  });

  it('reports every value registered for the same pattern', () => {
    const result = search(
      [
        { tokens: ['noon'], value: 'noon-ae' },
        { tokens: ['noon'], value: 'noon-academy' },
        { tokens: ['noon', 'food'], value: 'noon-food' },
      ],
      ['noon', 'food'],
    );
    expect(result).toEqual([
      { start: 0, end: 1, value: 'noon-academy' },
      { start: 0, end: 1, value: 'noon-ae' },
      { start: 0, end: 2, value: 'noon-food' },
    ]);
  });

  it('returns nothing for empty input and ignores empty patterns', () => {
    const automaton = new TokenAutomaton([
      { tokens: [], value: 'empty' },
      { tokens: ['a'], value: 'a' },
    ]);
    expect(automaton.search([])).toEqual([]);
    expect(automaton.patternCount).toBe(1);
    expect(new TokenAutomaton<string>([]).search(['a', 'b'])).toEqual([]);
  });

  it('searches word ids of a shared vocabulary, within bounds, with absolute positions', () => {
    const vocabulary = new Vocabulary();
    const cities = new TokenAutomaton([{ tokens: ['abu', 'dhabi'], value: 'abu dhabi' }], vocabulary);
    const brands = new TokenAutomaton([{ tokens: ['carrefour'], value: 'carrefour' }], vocabulary);
    const ids = ['carrefour', 'abu', 'dhabi', 'mall'].map((t) => vocabulary.id(t));
    expect(ids[3]).toBe(UNKNOWN_WORD);
    expect(cities.searchIds(ids)).toEqual([{ start: 1, end: 3, value: 'abu dhabi' }]);
    expect(brands.searchIds(ids)).toEqual([{ start: 0, end: 1, value: 'carrefour' }]);
    // A bound that cuts the pattern finds nothing; positions stay those of the whole text.
    expect(cities.searchIds(ids, 0, 2)).toEqual([]);
    expect(cities.searchIds(ids, 1, 3)).toEqual([{ start: 1, end: 3, value: 'abu dhabi' }]);
    expect(brands.searchIds(ids, 1)).toEqual([]);
  });

  it('ignores words another automaton added to the shared vocabulary later', () => {
    const vocabulary = new Vocabulary();
    const first = new TokenAutomaton([{ tokens: ['a'], value: 1 }], vocabulary);
    new TokenAutomaton([{ tokens: ['b'], value: 2 }], vocabulary);
    expect(first.searchIds([vocabulary.id('b'), vocabulary.id('a')])).toEqual([
      { start: 1, end: 2, value: 1 },
    ]);
  });

  it('agrees with a brute-force matcher on random patterns and texts (seeded)', () => {
    const random = seededRandom(0x5eed_2024);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const alphabet = ['a', 'b', 'c', 'd'];
    const textAlphabet = [...alphabet, 'x'];
    let compared = 0;
    for (let round = 0; round < 400; round++) {
      const patternCount = 1 + Math.floor(random() * 12);
      const patterns: Pattern<number>[] = [];
      for (let p = 0; p < patternCount; p++) {
        const length = Math.floor(random() * 5); // 0 (ignored) .. 4 tokens
        patterns.push({ tokens: Array.from({ length }, () => pick(alphabet)), value: p });
      }
      // Some patterns twice under another value: every value must be reported.
      if (random() < 0.3 && patterns[0]) patterns.push({ tokens: patterns[0].tokens, value: patternCount });
      const automaton = new TokenAutomaton(patterns);
      for (let t = 0; t < 5; t++) {
        const text = Array.from({ length: Math.floor(random() * 30) }, () => pick(textAlphabet));
        const expected = sorted(bruteForce(patterns, text));
        const actual = sorted(automaton.search(text));
        expect(actual, `patterns ${JSON.stringify(patterns)} text ${text.join(' ')}`).toEqual(expected);
        compared += expected.length;
      }
    }
    // The generator must actually produce matches, or the comparison proves nothing.
    expect(compared).toBeGreaterThan(1000);
  });
});
