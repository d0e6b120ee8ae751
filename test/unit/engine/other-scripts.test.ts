import { describe, expect, it } from 'vitest';
import { OTHER_SCRIPT, otherScriptsToLatin } from '../../../src/engine/other-scripts.js';
import { foldText, tokenize } from '../../../src/engine/text.js';

describe('otherScriptsToLatin', () => {
  it('writes Greek in ELOT 743 Latin, with its two-letter vowels', () => {
    expect(otherScriptsToLatin('σκλαβενιτησ')).toBe('sklavenitis');
    expect(otherScriptsToLatin('ΒΑΣΙΛΟΠΟΥΛΟΣ')).toBe('VASILOPOULOS');
    expect(otherScriptsToLatin('ευρωπη')).toBe('evropi');
    expect(otherScriptsToLatin('αγγελος')).toBe('angelos');
    expect(otherScriptsToLatin('ΘΕΣΣΑΛΟΝΙΚΗ')).toBe('THESSALONIKI');
  });

  it('writes Georgian in the national romanization, Mtavruli capitals as capitals', () => {
    expect(otherScriptsToLatin('ნიკორა თბილისი')).toBe('nikora tbilisi');
    expect(otherScriptsToLatin('აფთიაქი')).toBe('aptiaki');
    expect(otherScriptsToLatin('ᲜᲘᲙᲝᲠᲐ')).toBe('NIKORA');
  });

  it('writes Armenian with ու as u and a word-initial ե and ո as ye and vo', () => {
    expect(otherScriptsToLatin('ԵՐԵՎԱՆ')).toBe('YEREVAN');
    expect(otherScriptsToLatin('Երեվան')).toBe('Yerevan');
    expect(otherScriptsToLatin('ոսկե')).toBe('voske');
    expect(otherScriptsToLatin('ավտոբուս')).toBe('avtobus');
    expect(otherScriptsToLatin('սուպերմարկետ')).toBe('supermarket');
  });

  it('leaves every other character as it is', () => {
    expect(otherScriptsToLatin('CAFÉ 12 кафе مقهى')).toBe('CAFÉ 12 кафе مقهى');
    expect(OTHER_SCRIPT.test('NIKORA TBILISI')).toBe(false);
    expect(OTHER_SCRIPT.test('ნიკორა')).toBe(true);
  });
});

describe('folding text in these scripts', () => {
  it('gives the Latin tokens the catalog and the city list use, accents and final sigma included', () => {
    expect(tokenize('ΣΚΛΑΒΕΝΙΤΗΣ ΑΘΗΝΑ')).toEqual(['sklavenitis', 'athina']);
    expect(tokenize('Φαρμακείο Ευρώπη')).toEqual(['farmakeio', 'evropi']);
    expect(tokenize('ნიკორა #12 თბილისი')).toEqual(['nikora', '12', 'tbilisi']);
    expect(tokenize('Երևան Սիթի')).toEqual(['yerevan', 'siti']);
  });

  it('keeps letter case for display names', () => {
    expect(foldText('Θεσσαλονίκη', true)).toBe('Thessaloniki');
  });
});
