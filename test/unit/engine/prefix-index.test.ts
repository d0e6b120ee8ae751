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

  it('tells whether a cut word begins a longer key, without collecting them', () => {
    const words = (keys: string[]) => new PrefixIndex(keys.map((key) => ({ key, value: key })));
    expect(words(['commerce', 'commercial', 'common']).beginsALonger('commerc')).toBe(true);
    expect(words(['commercial', 'commercials']).beginsALonger('commercial')).toBe(true);
    expect(words(['commerce', 'commercial']).beginsALonger('commercial')).toBe(false);
    expect(words(['commerce']).beginsALonger('zzz')).toBe(false);
    expect(index.beginsALonger('pharmac')).toBe(index.longerThan('pharmac').length > 0);
  });

  it('finds the values of a key itself apart', () => {
    expect(index.exactly('super')).toEqual(['super']);
    expect(index.exactly('pharmac')).toEqual([]);
    expect(index.exactly('zzz')).toEqual([]);
  });
});
