import { describe, expect, it } from 'vitest';
import { MAX_FEATURES, MAX_MODEL_TOKENS, extractFeatures } from '../../../src/engine/merchant-features.js';

function features(tokens: string[]): { hashes: number[]; names: string[] } {
  const out = new Uint32Array(MAX_FEATURES);
  const names: string[] = [];
  const n = extractFeatures(tokens, out, names);
  return { hashes: [...out.slice(0, n)], names };
}

describe('extractFeatures', () => {
  it('emits a word, its framed character 3- to 5-grams, and word pairs, named in the same order', () => {
    const { hashes, names } = features(['al', 'pharmacy']);
    expect(hashes).toHaveLength(names.length);
    expect(names).toEqual(
      expect.arrayContaining([
        'word:al',
        'word:pharmacy',
        'pair:al pharmacy',
        'gram:^ph',
        'gram:pha',
        'gram:^pha',
        'gram:macy$',
      ]),
    );
    expect(names.filter((n) => n.startsWith('gram:')).every((n) => n.length >= 'gram:'.length + 3)).toBe(
      true,
    );
  });

  it('is a pure function of the tokens: same hashes every time, different for different words', () => {
    expect(features(['saydaliya']).hashes).toEqual(features(['saydaliya']).hashes);
    expect(features(['saydaliya']).hashes).not.toEqual(features(['saydaliyat']).hashes);
  });

  it("a truncated or misspelled trade word keeps most of the whole word's n-grams", () => {
    const whole = new Set(features(['supermarket']).names);
    const shared = (tokens: string[]): number => {
      const names = features(tokens).names.filter((n) => n.startsWith('gram:'));
      return names.filter((n) => whole.has(n)).length / names.length;
    };
    expect(shared(['supermar'])).toBeGreaterThan(0.6);
    expect(shared(['supermrket'])).toBeGreaterThan(0.4);
    expect(shared(['alnoorsupermarket'])).toBeGreaterThan(0.4);
  });

  it('reads at most MAX_MODEL_TOKENS words and the first 28 characters of each, within the buffer', () => {
    const many = Array.from({ length: 30 }, () => 'x'.repeat(500));
    const out = new Uint32Array(MAX_FEATURES);
    const n = extractFeatures(many, out);
    expect(n).toBeLessThanOrEqual(MAX_FEATURES);
    const names: string[] = [];
    extractFeatures(many, new Uint32Array(MAX_FEATURES), names);
    expect(names.filter((x) => x.startsWith('word:'))).toHaveLength(MAX_MODEL_TOKENS);
    expect(names.find((x) => x.startsWith('word:'))).toBe(`word:${'x'.repeat(28)}`);
  });
});
