import { describe, expect, it } from 'vitest';
import { UNKNOWN_WORD, Vocabulary, WORD } from '../../../src/engine/vocabulary.js';

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
