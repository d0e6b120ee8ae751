import { describe, expect, it } from 'vitest';
import {
  ROMANIZATIONS,
  abbreviate,
  romanize,
  statementLine,
  type NoiseContext,
} from '../../../../scripts/model/noise.js';
import { Random } from '../../../../scripts/model/random.js';

const spellings = (text: string, lang: string, times = 200): Set<string> => {
  const rng = new Random(7);
  const out = new Set<string>();
  for (let i = 0; i < times; i++) out.add(romanize(text, lang, rng));
  return out;
};

describe('romanize: Cyrillic as banks print it in Latin letters', () => {
  it('writes щ, ж, х, я, ё, й the ways the common romanizations do', () => {
    const seen = [...spellings('щжхяёй', 'ru')];
    for (const shch of ['shch', 'sch', 'shh']) expect(seen.some((s) => s.startsWith(shch))).toBe(true);
    for (const ya of ['ya', 'ia', 'ja']) expect(seen.some((s) => s.includes(ya))).toBe(true);
    expect(spellings('ж', 'ru')).toEqual(new Set(['zh', 'j']));
    expect(spellings('х', 'ru')).toEqual(new Set(['kh', 'h', 'x']));
    expect(spellings('ё', 'ru')).toEqual(new Set(['e', 'yo', 'jo']));
    expect(spellings('й', 'ru')).toEqual(new Set(['y', 'i', 'j']));
  });

  it('writes Ukrainian г as h and и as y in the national romanization, and keeps other characters', () => {
    expect(spellings('магазин 24', 'uk')).toContain('mahazyn 24');
    expect(spellings('магазин 24', 'uk')).toContain('magazin 24');
  });

  it('writes Kazakh қ as q or k, and ы as y or i for Russian', () => {
    const kk = spellings('дәріхана қайнар', 'kk');
    expect([...kk].some((s) => s.includes('qaynar') || s.includes('qainar'))).toBe(true);
    expect([...kk].some((s) => s.includes('kaynar') || s.includes('kainar'))).toBe(true);
    expect(spellings('продукты', 'ru')).toEqual(new Set(['produkty', 'produkti']));
  });

  it('spells a letter one way within a text', () => {
    for (const s of spellings('яя щщ', 'ru')) {
      const [a, b] = s.split(' ') as [string, string];
      expect(a.slice(0, a.length / 2)).toBe(a.slice(a.length / 2));
      expect(b.slice(0, b.length / 2)).toBe(b.slice(b.length / 2));
    }
  });

  it('lists only Cyrillic letters', () => {
    for (const scheme of Object.values(ROMANIZATIONS))
      for (const letter of Object.keys(scheme)) expect(letter).toMatch(/^[\u0400-\u04ff]$/);
  });
});

describe('abbreviate: trade words cut as narrow fields and signs cut them', () => {
  it('keeps the first 3-6 letters or the consonants of one long word', () => {
    const rng = new Random(3);
    const seen = new Set<string>();
    for (let i = 0; i < 100; i++) seen.add(abbreviate('AL NOOR SUPERMARKET', rng));
    expect(seen).toContain('AL NOOR SUP');
    expect(seen).toContain('AL NOOR SUPERM');
    expect(seen).toContain('AL NOOR SPRMRKT');
    for (const s of seen) expect(s.startsWith('AL NOOR S')).toBe(true);
    expect(abbreviate('AL NOOR CAFE', rng)).toBe('AL NOOR CAFE');
  });
});

describe('statementLine: a statement layout around the merchant field', () => {
  it('keeps the merchant field whole inside the line', () => {
    const ctx: NoiseContext = {
      latinNames: ['noor'],
      arabicNames: ['نور'],
      cities: ['Perth'],
      countries: ['AU'],
      prefixes: [],
      templates: [],
    };
    const rng = new Random(11);
    const lines = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const line = statementLine('GOLDEN BAKERY', rng, ctx);
      expect(line).toContain('GOLDEN BAKERY');
      lines.add(line.replace(/\d/g, '0'));
    }
    expect(lines.size).toBeGreaterThan(10);
  });
});
