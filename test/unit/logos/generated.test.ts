import { describe, expect, it } from 'vitest';
import { colourOf, generatedLogo, initials } from '../../../src/logos/generated.js';

describe('generated logos', () => {
  it('takes up to two initials, skipping articles', () => {
    expect(initials('Careem Food')).toBe('CF');
    expect(initials('The Dubai Mall')).toBe('DM');
    expect(initials('Starbucks')).toBe('S');
    expect(initials("McDonald's Express Drive")).toBe('ME');
    expect(initials('طلبات مارت')).toBe('ط\u200cم');
  });

  it('derives a stable colour from the id, different for different ids', () => {
    expect(colourOf(100001)).toBe(colourOf(100001));
    expect(new Set([100001, 100002, 100003, 500827].map(colourOf)).size).toBe(4);
    expect(colourOf(42)).toMatch(/^hsl\(\d{1,3}, 55%, 36%\)$/);
  });

  it('is an SVG with the initials on the colour, in Arabic when asked and known', () => {
    const brand = { id: 100003, name: 'Careem', name_ar: 'كريم' };
    const latin = generatedLogo(brand, false);
    expect(latin).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(latin).toContain(`fill="${colourOf(100003)}"`);
    expect(latin).toContain('>C</text>');
    expect(generatedLogo(brand, true)).toContain('>ك</text>');
    expect(generatedLogo({ ...brand, name_ar: '' }, true)).toContain('>C</text>');
  });

  it('escapes names that look like markup', () => {
    const svg = generatedLogo({ id: 1, name: '<b> & "x"', name_ar: '' }, false);
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('aria-label="&#60;b&#62; &#38; &#34;x&#34;"');
  });
});
