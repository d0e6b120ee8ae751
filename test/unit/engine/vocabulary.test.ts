import { describe, expect, it } from 'vitest';
import { UNKNOWN_WORD, Vocabulary, WORD, WordFilter, wordHash } from '../../../src/engine/vocabulary.js';

describe('Vocabulary', () => {
  it('finds numbers by value and never confuses them with words that start with digits', () => {
    const vocabulary = new Vocabulary();
    const words = ['365', '7', '7eleven', '007', '1234567890123', 'noon'];
    const ids = words.map((w) => vocabulary.add(w));
    vocabulary.seal();
    words.forEach((w, i) => expect(vocabulary.id(w), w).toBe(ids[i]));
    for (const unknown of [
      '3650',
      '36',
      '07',
      '0',
      '8',
      '1234567890124',
      '99999999999999',
      '7elevens',
      'no',
    ]) {
      expect(vocabulary.id(unknown), unknown).toBe(UNKNOWN_WORD);
    }
    expect(() => vocabulary.add('new')).toThrow(/sealed/);
  });

  it('keeps the flags of every role a word plays', () => {
    const vocabulary = new Vocabulary();
    vocabulary.add('dubai', WORD.city);
    vocabulary.add('dubai', WORD.whole);
    expect(vocabulary.flags(vocabulary.id('dubai'))).toBe(WORD.city | WORD.whole);
    expect(vocabulary.is('dubai', WORD.city)).toBe(true);
    expect(vocabulary.is('dubai', WORD.noise)).toBe(false);
    expect(vocabulary.flags(UNKNOWN_WORD)).toBe(0);
  });
});

describe('WordFilter', () => {
  const vocabulary = new Vocabulary();
  const names = Array.from({ length: 500 }, (_, i) => `brand${i.toString(36)}x`);
  for (const n of names) vocabulary.add(n, WORD.alias);
  for (let i = 0; i < 500; i++) vocabulary.add(`noise${i}`, WORD.noise);
  const filter = vocabulary.filterOf(WORD.alias);

  it('never rules out a word of its set', () => {
    for (const n of names) expect(filter.mayHold(wordHash(n))).toBe(true);
  });

  it('rules out most other strings, including words of the vocabulary without the flags', () => {
    let held = 0;
    for (let i = 0; i < 500; i++) if (filter.mayHold(wordHash(`noise${i}`))) held++;
    for (let i = 0; i < 5000; i++) if (filter.mayHold(wordHash(`other${i}`))) held++;
    // Sixteen bits per word: about one false yes in sixteen.
    expect(held / 5500).toBeLessThan(0.15);
  });

  it('of an empty set holds nothing', () => {
    const empty = new WordFilter([]);
    expect(empty.mayHold(wordHash('anything'))).toBe(false);
  });
});
