import { describe, expect, it } from 'vitest';
import {
  cyrillicSpellings,
  foldText,
  hasDigit,
  isArabicToken,
  isCode,
  stripArabicArticle,
  toDisplayCase,
  tokenize,
  tokenizeText,
  type TokenizedText,
  foldArabic,
} from '../../../src/engine/text.js';
import { wordHash } from '../../../src/engine/vocabulary.js';

describe('foldText', () => {
  it('lower-cases ASCII text, and keeps case only when asked', () => {
    expect(foldText('Blue BOTTLE Coffee')).toBe('blue bottle coffee');
    expect(foldText('Blue BOTTLE Coffee', true)).toBe('Blue BOTTLE Coffee');
  });

  it('removes Latin accents', () => {
    expect(foldText('Caffè')).toBe('caffe');
    expect(foldText('Österreich')).toBe('osterreich');
    expect(foldText('Crème Brûlée Señor Ação')).toBe('creme brulee senor acao');
    expect(foldText('ÖSTERREICH', true)).toBe('OSTERREICH');
  });

  it('folds Latin letters that do not decompose', () => {
    expect(foldText('Straße')).toBe('strasse');
    expect(foldText('Łódź')).toBe('lodz');
    expect(foldText('Øresund')).toBe('oresund');
  });

  it('writes Russian, Ukrainian, Kazakh, Uzbek, Tajik and Serbian Cyrillic in Latin letters, as processors print it', () => {
    expect(foldText('Пятёрочка')).toBe('pyaterochka');
    expect(foldText('ПЯТЁРОЧКА', true)).toBe('PYATEROCHKA');
    expect(foldText('Аптека Здоровье')).toBe('apteka zdorove');
    expect(foldText('Дәріхана Қазақстан')).toBe('darikhana kazakstan');
    expect(foldText('Їжа і Ґанок')).toBe('yizha i ganok');
    expect(foldText('Меҳмонхона Хуҷанд Ӯрӣ')).toBe('mehmonkhona khujand uri');
    expect(tokenize('МЕҲМОНХОНА')).toEqual(['mehmonkhona']);
    expect(foldText('Ђорђе Љубав')).toBe('djordje ljubav');
    expect(tokenize('Покупка MAGNIT Москва')).toEqual(['pokupka', 'magnit', 'moskva']);
  });

  it('writes a word that mixes Latin and Cyrillic look-alike letters in the script most of it is in', () => {
    // A Latin C in a Cyrillic word (two keyboard layouts), Cyrillic С and А in a Latin one.
    expect(foldText('Cнятие наличных')).toBe(foldText('Снятие наличных'));
    expect(foldText('САSH')).toBe('cash');
    expect(foldText('aптека')).toBe('apteka');
    // Ж has no Latin look-alike, so the Latin K and X are read as Cyrillic К and Х.
    expect(foldText('ЖKX')).toBe(foldText('ЖКХ'));
    // A Belarusian or Ukrainian word typed with a Latin I is still Cyrillic.
    expect(foldText('СВIТАНАК')).toBe('svitanak');
    // Letters with no look-alike either way (f, н): the word stays as written.
    expect(foldText('MEGAfон')).toBe('megafon');
    // Words in one script, and two words in two scripts, are untouched.
    expect(foldText('CASH Снятие')).toBe('cash snyatie');
  });

  it('reads a short code of look-alike letters and digits typed in Cyrillic as Latin', () => {
    expect(foldText('Перевод Р2Р')).toBe('perevod p2p');
    expect(foldText('С2С')).toBe('c2c');
    // A letter with no Latin look-alike, or a longer word with a digit, is a Cyrillic name.
    expect(foldText('АЗС7')).toBe('azs7');
    expect(foldText('Касса1')).toBe('kassa1');
    // One letter before a number is a house or a flat, not a code.
    expect(foldText('дом В12')).toBe('dom v12');
  });

  it('drops apostrophes of every kind so that McDonald’s meets MCDONALDS', () => {
    expect(foldText("McDonald's")).toBe('mcdonalds');
    expect(foldText('McDonald’s')).toBe('mcdonalds');
    expect(foldText('McDonald‘s')).toBe('mcdonalds');
    expect(foldText('McDonald`s')).toBe('mcdonalds');
    expect(foldText('McDonaldʼs')).toBe('mcdonalds');
    expect(tokenize("MCDONALD'S")).toEqual(tokenize('McDonalds'));
  });

  it('removes Arabic diacritics (harakat, shadda, sukun, superscript alef)', () => {
    expect(foldText('مُحَمَّد')).toBe('محمد');
    expect(foldText('كِتَابٌ')).toBe('كتاب');
    expect(foldText('مَطْعَم')).toBe('مطعم');
    expect(foldText('هٰذا')).toBe('هذا');
  });

  it('removes tatweel (kashida)', () => {
    expect(foldText('كـــارفور')).toBe('كارفور');
    expect(foldText('مـطـعـم')).toBe('مطعم');
  });

  it('folds alef forms (أ إ آ ٱ) to bare alef', () => {
    expect(foldText('أ')).toBe('ا');
    expect(foldText('إ')).toBe('ا');
    expect(foldText('آ')).toBe('ا');
    expect(foldText('ٱ')).toBe('ا');
    expect(foldText('أمازون')).toBe('امازون');
    expect(foldText('إبراهيم')).toBe('ابراهيم');
    expect(foldText('آبل')).toBe('ابل');
  });

  it('folds teh marbuta to heh and alef maksura to yeh', () => {
    expect(foldText('مدرسة')).toBe('مدرسه');
    expect(foldText('مستشفى')).toBe('مستشفي');
    expect(foldText('لدى')).toBe('لدي');
  });

  it('folds hamza carriers and Persian letter variants', () => {
    expect(foldText('مؤسسة')).toBe('موسسه');
    expect(foldText('ائتمان')).toBe('ايتمان');
    expect(foldText('ی')).toBe('ي');
    expect(foldText('ک')).toBe('ك');
  });

  it('turns Arabic-Indic and extended Arabic-Indic digits into ASCII digits', () => {
    expect(foldText('٤٥')).toBe('45');
    expect(foldText('٠١٢٣٤٥٦٧٨٩')).toBe('0123456789');
    expect(foldText('۰۱۲۳۴۵۶۷۸۹')).toBe('0123456789');
    expect(tokenize('بمبلغ ٤٥ درهم')).toEqual(['بمبلغ', '45', 'درهم']);
  });

  it('folds both sides of a comparison the same way', () => {
    expect(tokenize('شَرِكَة أبو ظبي')).toEqual(tokenize('شركه ابو ظبي'));
    expect(tokenize('CAFÉ ÖSTERREICH')).toEqual(tokenize('cafe osterreich'));
  });
});

describe('tokenize', () => {
  it('splits on punctuation, symbols and whitespace', () => {
    expect(tokenize('SQ *BLUE-BOTTLE #123, SAN FRANCISCO')).toEqual([
      'sq',
      'blue',
      'bottle',
      '123',
      'san',
      'francisco',
    ]);
    expect(tokenize('APPLE.COM/BILL')).toEqual(['apple', 'com', 'bill']);
    expect(tokenize('AMZN Mktp US*2K3L45')).toEqual(['amzn', 'mktp', 'us', '2k3l45']);
    expect(tokenize('12/03/2024 14:22')).toEqual(['12', '03', '2024', '14', '22']);
  });

  it('keeps Arabic and Latin words side by side and splits on Arabic punctuation', () => {
    expect(tokenize('شراء من كارفور، DUBAI')).toEqual(['شراء', 'من', 'كارفور', 'dubai']);
    expect(tokenize('الرصيد ١٢٣٫٤٥')).toEqual(['الرصيد', '123', '45']);
  });

  it('returns no tokens for empty or punctuation-only text', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize(' *#/- ')).toEqual([]);
    expect(tokenize('ـــ')).toEqual([]);
  });

  it('tokenizeText keeps where each token is, for its original-case form', () => {
    const text = tokenizeText('SQ *Blue Bottle CAFÉ كـارفور');
    expect(text.tokens).toEqual(['sq', 'blue', 'bottle', 'cafe', 'كارفور']);
    expect(casedOf(text)).toEqual(['SQ', 'Blue', 'Bottle', 'CAFE', 'كارفور']);
    expect(text.tokens).toEqual(tokenize('SQ *Blue Bottle CAFÉ كـارفور'));
    // The ASCII fast path and the folding path agree on apostrophes and case.
    const ascii = tokenizeText("McDonald's DXB-12");
    expect(ascii.tokens).toEqual(['mcdonalds', 'dxb', '12']);
    expect(casedOf(ascii)).toEqual(['McDonalds', 'DXB', '12']);
    const plain = tokenizeText('  AMZN MKTP\tUS*2K3L45  ');
    expect(plain.tokens).toEqual(['amzn', 'mktp', 'us', '2k3l45']);
    expect(plain.starts).toEqual([2, 7, 12, 15]);
  });

  it('folds plain Arabic text without Unicode normalization exactly as the general path does', () => {
    const samples = [
      'سحب نقدي من الصراف الآلي',
      'أسواق العثيم - فرع ١٢',
      'إعمار مول، دبي',
      'مُؤَسَّسَة القاهرة للتجارة',
      'كـــارفور هايبر ماركت',
      'صيدلية النهدي ٤٥٦٧ RIYADH',
      'مطعم ٱلبيك؛ جدة؟',
      'شركة الاتصالات السعودية STC ۱۲۳',
      'ی ک گ ى ة ئ ؤ آ ٰ',
      "McDonald's مكدونالدز",
      'رسوم ١٫٥٪',
    ];
    for (const input of samples) {
      expect(foldArabic(input), input).toBe(foldText(input, true));
      expect(tokenize(input)).toEqual(foldText(input).match(/[a-z0-9\u0621-\u064a]+/g) ?? []);
    }
    // Anything else (accented Latin, presentation forms, other scripts) takes the general path.
    for (const input of ['CAFÉ', 'ﻛﺎﺭﻓﻮﺭ', 'Ελλάδα', 'NBSP\u00a0']) expect(foldArabic(input)).toBeNull();
  });

  it('hashes each token as it reads it, the same way the vocabulary does', () => {
    for (const input of ['AMZN MKTP US*2K3L45', "McDonald's", 'شراء من كارفور، DUBAI', 'ـــ']) {
      const text = tokenizeText(input);
      expect(text.hashes).toEqual(text.tokens.map((t) => wordHash(t)));
    }
  });
});

/** The original-case form of each token, from where the tokenizer says it sits. */
function casedOf(text: TokenizedText): string[] {
  return text.tokens.map((t, i) => text.source.slice(text.starts[i], (text.starts[i] as number) + t.length));
}

describe('cyrillicSpellings', () => {
  it('gives the other Latin spellings banks print, not the one foldText uses', () => {
    const forms = cyrillicSpellings('начисление процентов');
    expect(forms).toContain('nachislenie procentov');
    expect(forms).not.toContain('nachislenie protsentov');
    expect(cyrillicSpellings('снятие наличных')).toEqual(
      expect.arrayContaining(['snjatie nalichnykh', 'snyatie nalichnyh', 'snjatie nalichnyh']),
    );
  });

  it('is empty for a phrase whose letters have one spelling, or no Cyrillic at all', () => {
    expect(cyrillicSpellings('покупка')).toEqual([]);
    expect(cyrillicSpellings('cash withdrawal')).toEqual([]);
    expect(cyrillicSpellings('سحب نقدي')).toEqual([]);
  });

  it('stays small for a long phrase with many such letters', () => {
    expect(cyrillicSpellings('щщщщщщщщ').length).toBeLessThan(12);
  });
});

describe('toDisplayCase', () => {
  it('title-cases words', () => {
    expect(toDisplayCase(['BLUE', 'BOTTLE', 'COFFEE'])).toBe('Blue Bottle Coffee');
    expect(toDisplayCase(['joes', 'diner'])).toBe('Joes Diner');
    expect(toDisplayCase(['mCdOnAlDs'])).toBe('Mcdonalds');
  });

  it('keeps short vowel-less capitals as acronyms, but not short words', () => {
    expect(toDisplayCase(['KFC'])).toBe('KFC');
    expect(toDisplayCase(['DHL', 'EXPRESS'])).toBe('DHL Express');
    expect(toDisplayCase(['M&S'])).toBe('M&S');
    expect(toDisplayCase(['ABU', 'DHABI'])).toBe('Abu Dhabi');
    expect(toDisplayCase(['BAR'])).toBe('Bar');
    // Five letters is too long for an acronym.
    expect(toDisplayCase(['XQZWV'])).toBe('Xqzwv');
    // Lower-case input is never treated as an acronym.
    expect(toDisplayCase(['kfc'])).toBe('Kfc');
  });

  it('leaves Arabic words unchanged', () => {
    expect(toDisplayCase(['مطعم', 'الزيتون'])).toBe('مطعم الزيتون');
    expect(toDisplayCase(['كارفور', 'CITY'])).toBe('كارفور City');
  });

  it('returns an empty string for no words', () => {
    expect(toDisplayCase([])).toBe('');
  });
});

describe('Arabic token helpers', () => {
  it('isArabicToken tells Arabic from Latin and digits', () => {
    expect(isArabicToken('كارفور')).toBe(true);
    expect(isArabicToken('carrefour')).toBe(false);
    expect(isArabicToken('123')).toBe(false);
  });

  it('stripArabicArticle removes ال only when the rest is long enough', () => {
    expect(stripArabicArticle('الرياض')).toBe('رياض');
    expect(stripArabicArticle('السوق')).toBe('سوق');
    expect(stripArabicArticle('الام')).toBe('الام');
    expect(stripArabicArticle('كارفور')).toBe('كارفور');
  });
});

describe('hasDigit', () => {
  it('finds amounts, codes and store numbers among folded tokens', () => {
    expect(hasDigit('500r')).toBe(true);
    expect(hasDigit('a1')).toBe(true);
    expect(hasDigit('0')).toBe(true);
    expect(hasDigit('magnit')).toBe(false);
    expect(hasDigit('')).toBe(false);
    expect(hasDigit('مخبز')).toBe(false);
  });
});

describe('isCode', () => {
  it('a token with digits is a code: amounts, store numbers, references, times', () => {
    for (const t of ['500r', 'a1', 'f12345', '8pm', 'ps5', '2k4lm8', 'covid19', 'dubai2', '0'])
      expect(isCode(t), t).toBe(true);
  });

  it('an Arabic word in Latin letters with one digit for a sound is a word, not a code', () => {
    for (const t of ['mat3am', '7alawiyat', 'ka3k', 'sa3at', 'ma5baz']) expect(isCode(t), t).toBe(false);
    expect(isCode('magnit')).toBe(false);
  });
});
