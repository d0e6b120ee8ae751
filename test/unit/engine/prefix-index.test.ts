import { describe, expect, it } from 'vitest';
import { PrefixIndex } from '../../../src/engine/prefix-index.js';

describe('PrefixIndex', () => {
  const index = new PrefixIndex(
    ['pharmacy', 'pharmacie', 'pharma', 'supermarket', 'super', 'trading'].map((key) => ({
      key,
      value: key,
    })),
  );

  it('finds every longer key a cut word begins', () => {
    expect(index.longerThan('pharmac').sort()).toEqual(['pharmacie', 'pharmacy']);
    expect(index.longerThan('tradin')).toEqual(['trading']);
  });

  it('never the word itself, nor keys it does not begin', () => {
    expect(index.longerThan('super')).toEqual(['supermarket']);
    expect(index.longerThan('trading')).toEqual([]);
    expect(index.longerThan('zzz')).toEqual([]);
    expect(index.longerThan('armacy')).toEqual([]);
  });

  it('finds the values of a key itself apart', () => {
    expect(index.exactly('super')).toEqual(['super']);
    expect(index.exactly('pharmac')).toEqual([]);
    expect(index.exactly('zzz')).toEqual([]);
  });
});
