/**
 * Dresses a seed up as what a bank prints: a shop name built around a trade word, in upper case,
 * cut at the descriptor's 18-25 characters, with store numbers, city and country, glued words,
 * processor prefixes, misspellings, Arabic letter variants, Arabic and Cyrillic in Latin letters
 * with regional spellings, or inside a card-alert sentence. General knowledge of statement formats,
 * never evaluation rows or parser fixtures.
 */
import type { CorpusWords, ReferenceData } from '../../src/data/schemas.js';
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
    prefixes: data.intermediaries.intermediaries
      .filter((i) => i.kind !== 'wallet')
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
  [/iya\b/g, ['ia', 'iyah', 'eya', 'ieh', 'iyya']],
  [/a\b/g, ['ah', 'eh', 'e', 'a']],
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

const FIELD_WORDS = ['POS PURCHASE', 'PURCHASE', 'CARD PURCHASE', 'POS', 'ECOM PURCHASE', 'شراء'];

export function render(seed: Seed, rng: Random, ctx: NoiseContext): Rendered {
  let text = seed.kind === 'term' ? composeTerm(seed.text, rng, ctx) : seed.text;
  const arabic = ARABIC.test(text);
  if (arabic) text = varyArabic(text, rng);
  else if (seed.lang === 'ar-Latn' && rng.chance(0.6)) text = varySpelling(text, ARABIZI_VARIANTS, rng);
  else if (
    ['ru-Latn', 'uk-Latn', 'kk-Latn', 'cyrl', 'ru', 'kk', 'uk', 'be'].includes(seed.lang) &&
    rng.chance(0.5)
  ) {
    // Cyrillic arrives in Latin letters from most processors: write it so, with their variants.
    text = varySpelling(text, CYRILLIC_LATIN_VARIANTS, rng);
  }
  if (rng.chance(0.1)) text = misspell(text, rng);
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
  return { description: text, merchant_name: '' };
}
