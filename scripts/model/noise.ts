/**
 * Dresses a seed up as what a bank prints: a shop name built around a trade word, in upper case,
 * cut at the descriptor's 18-25 characters, with store numbers, city and country, glued words,
 * processor prefixes, misspellings, Arabic letter variants, Arabic and Cyrillic in Latin letters
 * with regional spellings, or inside a card-alert sentence. General knowledge of statement formats,
 * never evaluation rows or parser fixtures.
 */
import type { CorpusWords, ReferenceData } from '../../src/data/schemas.js';
import { foldText } from '../../src/engine/text.js';
import type { Seed } from './corpus.js';
import type { Random } from './random.js';

export interface Rendered {
  readonly description: string;
  readonly merchant_name: string;
}

export interface NoiseContext {
  readonly latinNames: readonly string[];
  readonly arabicNames: readonly string[];
  readonly cities: readonly string[];
  readonly countries: readonly string[];
  readonly prefixes: readonly string[];
  readonly templates: CorpusWords['alert_templates'];
}

const ARABIC = /[\u0600-\u06ff]/;

export function noiseContext(data: ReferenceData, words: CorpusWords): NoiseContext {
  return {
    latinNames: words.neutral_names.filter((n) => !ARABIC.test(n)),
    arabicNames: words.neutral_names.filter((n) => ARABIC.test(n)),
    cities: data.locations.cities,
    countries: data.locations.countries.filter((c) => c.length <= 3),
    // Processor and gateway prefixes only: a wallet is named anywhere, and an operator's name is
    // rare on statements (the brand it runs is printed).
    prefixes: data.intermediaries.intermediaries
      .filter((i) => i.kind !== 'wallet' && i.kind !== 'operator')
      .flatMap((i) => i.prefixes),
    templates: words.alert_templates,
  };
}

/** How Gulf, Levantine and Egyptian spellings of the same Arabic sounds differ in Latin letters. */
const ARABIZI_VARIANTS: readonly [RegExp, readonly string[]][] = [
  [/q/g, ['k', 'g', '2', 'q']],
  [/kh/g, ['5', 'kh', 'x', 'kh']],
  [/gh/g, ["3'", 'gh', 'g']],
  [/j/g, ['g', 'j', 'dj']],
  [/th/g, ['s', 't', 'th']],
  [/dh/g, ['z', 'd', 'dh']],
  [/sh/g, ['ch', 'sh', 'sch']],
  [/aa/g, ['a', 'aa', 'a2a']],
  [/ee/g, ['i', 'ee', 'ei']],
  [/oo/g, ['u', 'ou', 'oo']],
  [/ou/g, ['u', 'oo', 'o']],
  // A feminine noun before the name it belongs to is read with its t (`baqalat al noor`, the
  // construct state), so shop names print the trade word both ways.
  [/iya\b/g, ['ia', 'iyah', 'eya', 'ieh', 'iyya', 'iyat']],
  [/a\b/g, ['ah', 'eh', 'e', 'a', 'at']],
  [/\bal /g, ['el ', 'al-', 'al', 'il ']],
  [/h/g, ['7', 'h']],
  [/'/g, ['2', '3', '']],
];

/** How card processors transliterate the same Cyrillic letters differently. */
const CYRILLIC_LATIN_VARIANTS: readonly [RegExp, readonly string[]][] = [
  [/kh/g, ['h', 'x', 'kh']],
  [/ts/g, ['c', 'tc', 'ts']],
  [/ya/g, ['ia', 'ja', 'ya']],
  [/yu/g, ['iu', 'ju', 'yu']],
  [/zh/g, ['j', 'zh']],
  [/shch/g, ['sch', 'sh', 'shch']],
  [/y\b/g, ['i', 'iy', 'yy', 'y']],
  [/ye/g, ['e', 'ie', 'ye']],
];

/**
 * Cyrillic in Latin letters the way banks and card processors print it: each romanization in use
 * (ICAO 9303 as on passports and cards, GOST 7.79 system B, BGN/PCGS, the Ukrainian and Kazakh
 * national ones, and the informal spellings of SMS and terminals) writes a few letters its own way
 * (`щ` shch/sch/shh, `ж` zh/j, `х` kh/h/x, `я` ya/ia/ja, `ё` yo/e, `ы` y/i, `й` i/y/j). Letters a
 * romanization does not list are written as the engine writes them (text.ts), which knows every
 * letter; a letter with several spellings in one romanization gets one of them per text.
 */
const ROMANIZATION_BASE: Readonly<Record<string, readonly string[]>> = {
  ж: ['zh'],
  й: ['y'],
  х: ['kh'],
  ц: ['ts'],
  щ: ['shch'],
  ы: ['y'],
  ъ: [''],
  ь: [''],
  ю: ['yu'],
  я: ['ya'],
  ё: ['e'],
  э: ['e'],
  є: ['ye'],
  ї: ['yi'],
};

export const ROMANIZATIONS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  icao: { й: ['i'], ъ: ['ie'], ю: ['iu'], я: ['ia'], є: ['ie'], ї: ['i'] },
  gost: { й: ['j'], х: ['x'], ц: ['c', 'cz'], щ: ['shh'], ы: ['y'], ё: ['yo'], ю: ['yu'], я: ['ya'] },
  bgn: { ё: ['yo', 'e'], ы: ['y'], й: ['y'] },
  informal: {
    ж: ['zh', 'j'],
    й: ['i', 'y', 'j'],
    х: ['h', 'kh', 'x'],
    ц: ['c', 'ts', 'tc'],
    щ: ['sch', 'sh', 'shch'],
    ы: ['y', 'i'],
    ю: ['yu', 'ju', 'iu'],
    я: ['ya', 'ja', 'ia'],
    ё: ['e', 'yo', 'jo'],
    ь: ['', 'i'],
  },
  // Ukrainian national romanization (2010): и is y, г is h.
  uk: {
    г: ['h'],
    и: ['y'],
    й: ['i', 'y'],
    є: ['ie', 'ye'],
    ї: ['i', 'yi'],
    ю: ['iu', 'yu'],
    я: ['ia', 'ya'],
  },
  // Belarusian: г is h, ў u or w.
  be: {
    г: ['h'],
    ў: ['u', 'w'],
    х: ['kh', 'ch', 'h'],
    й: ['i', 'j', 'y'],
    ю: ['iu', 'yu', 'ju'],
    я: ['ia', 'ya', 'ja'],
  },
  // Kazakh Latin (2021) and its ASCII fallbacks: қ q, ғ gh, ң ng.
  kk: {
    қ: ['q', 'k'],
    ғ: ['gh', 'g'],
    ң: ['ng', 'n'],
    ә: ['a', 'ae'],
    ө: ['o', 'oe'],
    ү: ['u', 'ue'],
    ұ: ['u'],
    і: ['i'],
  },
};

/** Which romanizations each language's texts are printed in. */
const ROMANIZATIONS_BY_LANG: Readonly<Record<string, readonly string[]>> = {
  uk: ['uk', 'icao', 'informal'],
  be: ['be', 'icao', 'informal'],
  kk: ['kk', 'icao', 'informal'],
  ru: ['icao', 'gost', 'bgn', 'informal'],
};

const CYRILLIC_TEXT = /[\u0400-\u04ff]/;

/**
 * Writes the Cyrillic letters of `text` in Latin letters with one of the romanizations its language
 * is printed in (lower case; other characters unchanged). `lang` is a seed's language (`uk`, `kk`,
 * `ru`, or `cyrl` for names of unknown language, read as Russian).
 */
export function romanize(text: string, lang: string, rng: Random): string {
  const scheme =
    ROMANIZATIONS[rng.pick(ROMANIZATIONS_BY_LANG[lang] ?? (ROMANIZATIONS_BY_LANG.ru as string[]))];
  const chosen = new Map<string, string>();
  let out = '';
  for (const ch of text.toLowerCase()) {
    if (!CYRILLIC_TEXT.test(ch)) {
      out += ch;
      continue;
    }
    let latin = chosen.get(ch);
    if (latin === undefined) {
      const options = scheme?.[ch] ?? ROMANIZATION_BASE[ch];
      latin = options ? rng.pick(options) : foldCyrillic(ch);
      chosen.set(ch, latin);
    }
    out += latin;
  }
  return out;
}

/** A letter no romanization lists: as the engine writes it (text.ts folds Cyrillic to Latin). */
function foldCyrillic(ch: string): string {
  return foldText(ch);
}

function varySpelling(text: string, variants: readonly [RegExp, readonly string[]][], rng: Random): string {
  let out = text.toLowerCase();
  for (const [re, options] of variants) {
    if (rng.chance(0.5)) out = out.replace(re, () => rng.pick(options));
  }
  return out;
}

const ARABIC_LETTER_VARIANTS: readonly [RegExp, readonly string[]][] = [
  [/ة/g, ['ه', 'ة']],
  [/ى/g, ['ي', 'ى']],
  [/ي(?=\s|$)/g, ['ى', 'ي']],
  [/[أإآ]/g, ['ا', 'أ', 'إ']],
];

function varyArabic(text: string, rng: Random): string {
  let out = text;
  for (const [re, options] of ARABIC_LETTER_VARIANTS) {
    if (rng.chance(0.4)) out = out.replace(re, () => rng.pick(options));
  }
  if (rng.chance(0.15)) {
    // Tatweel stretches a word in signs and some bank fonts.
    const at = 1 + rng.int(Math.max(1, out.length - 2));
    if (ARABIC.test(out.charAt(at - 1)) && ARABIC.test(out.charAt(at)))
      out = `${out.slice(0, at)}ـ${out.slice(at)}`;
  }
  return out;
}

function misspell(text: string, rng: Random): string {
  const words = text.split(' ');
  const candidates = words.map((w, i) => (w.length >= 5 ? i : -1)).filter((i) => i >= 0);
  if (candidates.length === 0) return text;
  const i = rng.pick(candidates);
  const w = words[i] as string;
  const at = 1 + rng.int(w.length - 2);
  const kind = rng.int(3);
  words[i] =
    kind === 0
      ? w.slice(0, at) + w.slice(at + 1)
      : kind === 1
        ? w.slice(0, at) + w.charAt(at) + w.slice(at)
        : w.slice(0, at - 1) + w.charAt(at) + w.charAt(at - 1) + w.slice(at + 1);
  return words.join(' ');
}

const VOWEL_LETTERS = /[aeiouy]/g;

/**
 * A word cut or contracted as 20-25-character fields and shop signs shorten it: its first 3-6
 * letters (`PHARMACY` as `PHARM`, `RESTAURANT` as `REST`), or its consonants after the first letter
 * (`SUPERMARKET` as `SPRMRKT`). Only Latin words of 7 letters or more, one per text.
 */
export function abbreviate(text: string, rng: Random): string {
  const words = text.split(' ');
  const candidates = words.map((w, i) => (/^[a-z]{7,}$/i.test(w) ? i : -1)).filter((i) => i >= 0);
  if (candidates.length === 0) return text;
  const i = rng.pick(candidates);
  const w = words[i] as string;
  words[i] = rng.chance(0.7)
    ? w.slice(0, 3 + rng.int(4))
    : w.charAt(0) +
      w
        .slice(1)
        .replace(VOWEL_LETTERS, '')
        .replace(/[AEIOUY]/g, '');
  return words.join(' ');
}

function neutralName(rng: Random, ctx: NoiseContext, arabic: boolean): string {
  const pool = arabic ? ctx.arabicNames : ctx.latinNames;
  const n = rng.chance(0.6) ? 1 : 2;
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(rng.chance(0.1) ? pseudoWord(rng) : rng.pick(pool));
  return parts.join(' ');
}

const CONSONANTS = 'bdfghjklmnprstvzkh';
const VOWELS = 'aeiouy';

/** A made-up word: brand names are often words the model has never seen. */
export function pseudoWord(rng: Random): string {
  let w = '';
  const syllables = 2 + rng.int(2);
  for (let i = 0; i < syllables; i++) w += rng.pick([...CONSONANTS]) + rng.pick([...VOWELS]);
  return rng.chance(0.5) ? w + rng.pick([...CONSONANTS]) : w;
}

/** A shop name around a trade word: `AL NOOR PHARMACY`, `صيدلية النور`, `PHARMACY AL NOOR`. */
function composeTerm(term: string, rng: Random, ctx: NoiseContext): string {
  const arabic = ARABIC.test(term);
  const roll = rng.next();
  if (roll < 0.25) return term;
  const name = neutralName(rng, ctx, arabic && rng.chance(0.85));
  if (roll < 0.6) return arabic ? `${term} ${name}` : `${name} ${term}`;
  if (roll < 0.9) return arabic ? `${name} ${term}` : `${term} ${name}`;
  return `${name} ${term} ${neutralName(rng, ctx, arabic)}`;
}

function storeNumber(rng: Random): string {
  const n = String(1 + rng.int(rng.chance(0.5) ? 99 : 99999));
  return rng.pick([`#${n}`, n.padStart(4, '0'), `STORE ${n}`, `NO ${n}`, `${n}`, `BR ${n}`]);
}

function place(rng: Random, ctx: NoiseContext): string {
  const city = rng.pick(ctx.cities).toUpperCase();
  if (rng.chance(0.5)) return `${city} ${rng.pick(ctx.countries).toUpperCase()}`;
  return city;
}

function glue(text: string, rng: Random): string {
  const spaces: number[] = [];
  for (let i = 0; i < text.length; i++) if (text.charAt(i) === ' ') spaces.push(i);
  if (spaces.length === 0) return text;
  const at = rng.pick(spaces);
  return text.slice(0, at) + text.slice(at + 1);
}

function amount(rng: Random): string {
  return `${1 + rng.int(900)}.${String(rng.int(100)).padStart(2, '0')}`;
}

const CURRENCIES = ['AED', 'SAR', 'QAR', 'KWD', 'BHD', 'OMR', 'EGP', 'JOD', 'USD', 'EUR'];
const CURRENCIES_AR = ['درهم', 'ريال', 'دينار', 'جنيه'];
const CURRENCIES_RU = ['RUB', 'руб', 'р', 'KZT', 'тг', 'BYN'];

function alert(merchant: string, rng: Random, ctx: NoiseContext): string {
  const t = rng.pick(ctx.templates);
  const day = 1 + rng.int(28);
  const month = 1 + rng.int(12);
  const date = rng.pick([
    `${String(day).padStart(2, '0')}/${String(month).padStart(2, '0')}/2025`,
    `2025-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
    `${String(day).padStart(2, '0')}-${String(month).padStart(2, '0')}-25 ${10 + rng.int(12)}:${10 + rng.int(49)}`,
  ]);
  return t.template
    .replace('{m}', merchant)
    .replaceAll('{a}', amount(rng))
    .replaceAll('{b}', amount(rng))
    .replaceAll('{c_ar}', rng.pick(CURRENCIES_AR))
    .replaceAll('{c_ru}', rng.pick(CURRENCIES_RU))
    .replaceAll('{c}', rng.pick(CURRENCIES))
    .replaceAll('{card}', `${rng.chance(0.5) ? '**' : 'XXXX'}${1000 + rng.int(9000)}`)
    .replaceAll('{d}', date)
    .replaceAll('{city}', rng.pick(ctx.cities).toUpperCase());
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** A card number as statements mask it: `XXXX1234`, `xx1234`, `4***1234`, `CARD 1234`. */
function cardMask(rng: Random): string {
  const last = String(1000 + rng.int(9000));
  return rng.pick([
    `XXXX${last}`,
    `xx${last}`,
    `4***${last}`,
    `CARD ${last}`,
    `*${last}`,
    `XXXXXXXXXXXX${last}`,
  ]);
}

const STATEMENT_CURRENCIES = [
  'USD',
  'GBP',
  'AUD',
  'EUR',
  'RUB',
  'KZT',
  'BYN',
  'UAH',
  'AED',
  'SAR',
  'OMR',
  'EGP',
];

/**
 * A statement line around the merchant field, as US, UK, Australian, French and CIS statements
 * print card purchases: the channel, a date, the card's mask, a terminal or reference number, the
 * city and country, an amount with its currency. Only the layout is general knowledge; the words
 * around the merchant name no trade.
 */
export function statementLine(merchant: string, rng: Random, ctx: NoiseContext): string {
  const day = 1 + rng.int(28);
  const month = 1 + rng.int(12);
  const mmdd = `${pad2(month)}/${pad2(day)}`;
  const ddmm = `${pad2(day)}/${pad2(month)}`;
  const city = rng.pick(ctx.cities).toUpperCase();
  const country = rng.pick(ctx.countries).toUpperCase();
  const money = `${amount(rng)} ${rng.pick(STATEMENT_CURRENCIES)}`;
  const ref = String(10_000_000 + rng.int(89_999_999));
  return rng
    .pick([
      `POS DEBIT ${mmdd} ${merchant} ${city} ${country}`,
      `CHECKCARD ${pad2(month)}${pad2(day)} ${merchant} ${city} ${country} ${ref}`,
      `DEBIT CARD PURCHASE ${cardMask(rng)} ${merchant} ${city}`,
      `PURCHASE AUTHORIZED ON ${mmdd} ${merchant} ${city} S${ref} CARD ${cardMask(rng).slice(-4)}`,
      `CARD PAYMENT TO ${merchant} ON ${ddmm}/2025`,
      `CONTACTLESS ${merchant} ${city} ${country}`,
      `${merchant} ${city} ${country} ${money}`,
      `VISA PURCHASE ${merchant} ${city} ${country} CARD ${cardMask(rng)}`,
      `EFTPOS ${merchant} ${city} ${country} ${ddmm}`,
      `${merchant} ${city} ${country} Card ${cardMask(rng)} Value Date: ${ddmm}/2025`,
      `CB ${merchant} FACT ${pad2(day)}${pad2(month)}25`,
      `PAIEMENT CB ${pad2(day)}${pad2(month)} ${city} ${merchant} CARTE ${cardMask(rng)}`,
      `ACHAT CB ${merchant} ${pad2(day)}.${pad2(month)}.25 CARTE ${cardMask(rng)}`,
      `${ddmm} ${merchant} ${city} ${country} ${money}`,
      `RETAIL ${country} ${city} ${merchant}`,
      `${merchant} TID ${ref} ${ddmm}`,
      `${cardMask(rng)} ${ddmm} ${merchant} ${money}`,
    ])
    .replace(/\s+/g, ' ')
    .trim();
}

const FIELD_WORDS = ['POS PURCHASE', 'PURCHASE', 'CARD PURCHASE', 'POS', 'ECOM PURCHASE', 'شراء'];

export function render(seed: Seed, rng: Random, ctx: NoiseContext): Rendered {
  let text = seed.kind === 'term' ? composeTerm(seed.text, rng, ctx) : seed.text;
  const arabic = ARABIC.test(text);
  if (arabic) text = varyArabic(text, rng);
  else if (seed.lang === 'ar-Latn' && rng.chance(0.6)) text = varySpelling(text, ARABIZI_VARIANTS, rng);
  else if (CYRILLIC_TEXT.test(text)) {
    // Cyrillic arrives in Latin letters from most processors, each with its romanization; the rest
    // stays Cyrillic (the engine writes it in Latin letters its own way).
    if (rng.chance(0.55)) text = romanize(text, seed.lang, rng);
  } else if (['ru-Latn', 'uk-Latn', 'kk-Latn'].includes(seed.lang) && rng.chance(0.5)) {
    text = varySpelling(text, CYRILLIC_LATIN_VARIANTS, rng);
  }
  if (rng.chance(0.1)) text = misspell(text, rng);
  if (rng.chance(0.08)) text = abbreviate(text, rng);
  if (!arabic && rng.chance(0.75)) text = text.toUpperCase();
  if (rng.chance(0.12)) text = glue(text, rng);
  if (rng.chance(0.25))
    text = rng.chance(0.8) ? `${text} ${storeNumber(rng)}` : `${storeNumber(rng)} ${text}`;
  if (rng.chance(0.4)) text = `${text} ${place(rng, ctx)}`;
  if (rng.chance(0.3)) {
    // The bank's descriptor field: 18-25 characters, cut wherever it falls.
    const cut = 18 + rng.int(8);
    if (text.length > cut) text = text.slice(0, cut);
  }
  if (rng.chance(0.08)) text = `${rng.pick(ctx.prefixes).toUpperCase()}${rng.chance(0.5) ? '' : ' '}${text}`;
  if (rng.chance(0.1)) return { description: rng.pick(FIELD_WORDS), merchant_name: text };
  if (rng.chance(0.12)) return { description: alert(text, rng, ctx), merchant_name: '' };
  if (rng.chance(0.12)) return { description: statementLine(text, rng, ctx), merchant_name: '' };
  return { description: text, merchant_name: '' };
}
