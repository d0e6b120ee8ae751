/**
 * Character-level folding shared by catalog aliases, rule phrases and transaction text, so that both
 * sides of every comparison go through exactly the same steps.
 */

import { OTHER_SCRIPT, otherScriptsToLatin } from './other-scripts.js';
import { WORD_HASH_SEED, wordHashStep } from './vocabulary.js';

const ARABIC_INDIC_ZERO = 0x0660;
const EXTENDED_ARABIC_INDIC_ZERO = 0x06f0;

// Letter variants that banks, keyboards and SMS gateways use interchangeably.
const ARABIC_LETTER_FOLDS: Readonly<Record<string, string>> = {
  ٱ: 'ا',
  ى: 'ي',
  ی: 'ي',
  ئ: 'ي',
  ؤ: 'و',
  ة: 'ه',
  ک: 'ك',
  گ: 'ك',
};

const LETTER_FOLDS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  ø: 'o',
  œ: 'oe',
  đ: 'd',
  ł: 'l',
  ı: 'i',
};

/**
 * Cyrillic (Russian, Ukrainian, Belarusian, Kazakh, Kyrgyz, Uzbek, Tajik, Tatar, Serbian) written the way card processors print
 * it in Latin letters (`ПЯТЁРОЧКА` = `PYATEROCHKA`, `ДӘРІХАНА` = `DARIKHANA`), so both spellings
 * meet. Applied before accents are removed: `й` would otherwise lose its breve and become `и`.
 */
const CYRILLIC_TO_LATIN: Readonly<Record<string, string>> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
  є: 'ye',
  і: 'i',
  ї: 'yi',
  ґ: 'g',
  ў: 'u',
  ә: 'a',
  ғ: 'g',
  қ: 'k',
  ң: 'n',
  ө: 'o',
  ұ: 'u',
  ү: 'u',
  һ: 'h',
  // Uzbek and Tajik (`МЕҲМОНХОНА`, `ДОРУХОНА`), Tatar and Bashkir.
  ҳ: 'h',
  ӯ: 'u',
  ӣ: 'i',
  ҷ: 'j',
  җ: 'zh',
  ҡ: 'k',
  ҙ: 'z',
  ҫ: 's',
  ђ: 'dj',
  ј: 'j',
  љ: 'lj',
  њ: 'nj',
  ћ: 'c',
  џ: 'dz',
  ѓ: 'g',
  ќ: 'k',
  ѕ: 'dz',
};
const CYRILLIC = /[\u0400-\u04ff]/g;
const CYRILLIC_ANY = /[\u0400-\u04ff]/;

/**
 * Latin and Cyrillic letters that look alike. Text typed on two keyboard layouts or copied through
 * an OCR step mixes them inside one word (`Cнятие` with a Latin C, `САSH` with two Cyrillic
 * letters), and the word then matches neither script's spelling: such a word is written whole in
 * the script most of its letters are in.
 */
const LATIN_LOOKALIKES = 'AaBCcEeHIiJjKkMOoPpTXxYy';
const CYRILLIC_LOOKALIKES = 'АаВСсЕеНІіЈјКкМОоРрТХхУу';
const TO_CYRILLIC = new Map([...LATIN_LOOKALIKES].map((ch, i) => [ch, CYRILLIC_LOOKALIKES[i] as string]));
const TO_LATIN = new Map([...CYRILLIC_LOOKALIKES].map((ch, i) => [ch, LATIN_LOOKALIKES[i] as string]));
const isLatinLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isCyrillicLetter = (c: number): boolean => c >= 0x0400 && c <= 0x04ff;

/** Payment codes are short (`P2P`, `B2C`); a longer word with a digit is a name. */
const MIN_CODE_LETTERS = 2;
const MAX_CODE_LETTERS = 3;

/** `input` with each word that mixes Latin and Cyrillic letters written in one script. */
function oneScriptWords(input: string): string {
  let out = '';
  let i = 0;
  while (i < input.length) {
    const c = input.charCodeAt(i);
    if (!isLatinLetter(c) && !isCyrillicLetter(c)) {
      out += input[i];
      i++;
      continue;
    }
    let end = i;
    let latin = 0;
    let digits = 0;
    while (end < input.length) {
      const d = input.charCodeAt(end);
      if (isLatinLetter(d)) latin++;
      else if (d >= 48 && d <= 57) digits++;
      else if (!isCyrillicLetter(d)) break;
      end++;
    }
    const word = input.slice(i, end);
    const letters = word.length - digits;
    if (latin === 0 && digits > 0 && letters >= MIN_CODE_LETTERS && letters <= MAX_CODE_LETTERS) {
      // A short code of letters and digits (`Р2Р`, `С2С` typed on a Cyrillic layout) is Latin when
      // every letter has a Latin look-alike: P2P, C2C; `АЗС7` and longer words (`Касса1`) stay, and
      // so does one letter before a number (`В12`, a house or a flat), which is no code.
      out += convert(word, false) ?? word;
    } else {
      out += latin === 0 || latin === letters ? word : oneScript(word, latin, letters);
    }
    i = end;
  }
  return out;
}

/**
 * The word in the script most of its letters are in. A mostly Latin word whose Cyrillic letter has
 * no Latin look-alike (`ЖKX`) is Cyrillic typed on a Latin layout; a mostly Cyrillic word with
 * a Latin letter that has no Cyrillic look-alike stays as written, as does any other word.
 */
function oneScript(word: string, latin: number, letters: number): string {
  if (latin * 2 < letters) return convert(word, true) ?? word;
  return convert(word, false) ?? convert(word, true) ?? word;
}

function convert(word: string, toCyrillic: boolean): string | null {
  const map = toCyrillic ? TO_CYRILLIC : TO_LATIN;
  let out = '';
  for (const ch of word) {
    const c = ch.charCodeAt(0);
    // Only the letters of the script being replaced change; digits and signs pass through.
    if (!(toCyrillic ? isLatinLetter(c) : isCyrillicLetter(c))) {
      out += ch;
      continue;
    }
    const other = map.get(ch);
    if (other === undefined) return null;
    out += other;
  }
  return out;
}

/**
 * Other ways banks print the Cyrillic letters whose Latin spelling varies: Russian SMS in Latin
 * letters write `PROCENTOV` as well as `PROTSENTOV`, `NALICHNYH` as well as `NALICHNYKH`,
 * `MOBILNOJ` as well as `MOBILNOY`. The first spelling of each is the one `foldText` uses.
 */
const CYRILLIC_SPELLINGS: Readonly<Record<string, readonly string[]>> = {
  ц: ['ts', 'c', 'tz'],
  х: ['kh', 'h'],
  й: ['y', 'j', 'i'],
  щ: ['shch', 'sch', 'sh'],
  я: ['ya', 'ja', 'ia'],
  ю: ['yu', 'ju', 'iu'],
  ы: ['y', 'i'],
  ё: ['e', 'yo'],
  є: ['ye', 'je', 'e'],
  ї: ['yi', 'ji', 'i'],
  ж: ['zh', 'j'],
};
/** Enough for a phrase with two or three such letters; a longer phrase keeps its first spellings. */
const MAX_SPELLINGS = 12;

/**
 * A phrase written in Cyrillic, in the Latin spellings banks use other than `foldText`'s (for the
 * rule phrases and keywords: brand names come with their own Latin aliases). Empty when the phrase
 * has no Cyrillic letter whose spelling varies.
 */
export function cyrillicSpellings(phrase: string): string[] {
  let forms = [''];
  let varies = false;
  for (const ch of phrase.toLowerCase()) {
    const options = CYRILLIC_SPELLINGS[ch];
    if (options) varies = true;
    const parts = options ?? [CYRILLIC_TO_LATIN[ch] ?? ch];
    const next: string[] = [];
    for (const f of forms) for (const o of parts) if (next.length < MAX_SPELLINGS) next.push(f + o);
    forms = next;
  }
  // The first form is foldText's own spelling.
  return varies ? forms.slice(1) : [];
}

function transliterateCyrillic(ch: string): string {
  const lower = ch.toLowerCase();
  const latin = CYRILLIC_TO_LATIN[lower];
  if (latin === undefined) return ch;
  return lower === ch ? latin : latin.toUpperCase();
}

const ASCII_ONLY = /^[ -~\t\n\r]*$/;
const APOSTROPHES = /['`]/g;
// Latin combining marks, Arabic harakat and hamza marks, superscript alef, tatweel, apostrophes.
const DROPPED = /[\u0300-\u036f\u064b-\u065f\u0670\u0640'`\u2018\u2019\u02bc]/g;
const FOLDED = /[\u0660-\u0669\u06f0-\u06f9\u0671\u0649\u06cc\u0626\u0624\u0629\u06a9\u06afßæøœđłıÆØŒĐŁ]/g;

function foldChar(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code >= ARABIC_INDIC_ZERO && code <= ARABIC_INDIC_ZERO + 9) return String(code - ARABIC_INDIC_ZERO);
  if (code >= EXTENDED_ARABIC_INDIC_ZERO && code <= EXTENDED_ARABIC_INDIC_ZERO + 9) {
    return String(code - EXTENDED_ARABIC_INDIC_ZERO);
  }
  const lower = ch.toLowerCase();
  return ARABIC_LETTER_FOLDS[lower] ?? LETTER_FOLDS[lower] ?? lower;
}

/**
 * Lower-cases, removes Latin accents and Arabic diacritics (harakat, hamza marks, tatweel), folds
 * Arabic letter variants, turns Arabic-Indic digits into ASCII and drops apostrophes so that
 * `McDonald's` and `MCDONALDS` meet, and writes Cyrillic, Greek, Georgian and Armenian in Latin
 * letters. Every other non-alphanumeric character later splits tokens.
 */
export function foldText(input: string, keepCase = false): string {
  // Most descriptors are plain ASCII: nothing to decompose or fold but case and apostrophes.
  if (ASCII_ONLY.test(input)) {
    const stripped = input.replace(APOSTROPHES, '');
    return keepCase ? stripped : stripped.toLowerCase();
  }
  // NFKD splits accented Latin letters and hamza-carrying alefs into base letter + combining mark.
  const unaccented = (CYRILLIC_ANY.test(input) ? oneScriptWords(input) : input)
    .replace(CYRILLIC, transliterateCyrillic)
    .normalize('NFKD')
    .replace(DROPPED, '');
  const folded = (OTHER_SCRIPT.test(unaccented) ? otherScriptsToLatin(unaccented) : unaccented).replace(
    FOLDED,
    foldChar,
  );
  return keepCase ? folded : folded.toLowerCase();
}

const ALEF = 0x0627;
const WAW = 0x0648;
const YEH = 0x064a;
const HEH = 0x0647;
const KAF = 0x0643;

/**
 * `foldText(input, true)` for text made of ASCII and plain Arabic letters, marks and digits (how
 * Gulf banks print Arabic), one character at a time instead of Unicode normalization and three
 * regular-expression passes; null when the text holds anything else. A unit test holds the two equal.
 */
export function foldArabic(input: string): string | null {
  if (input.length > 512) return null;
  const codes: number[] = [];
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c < 128) {
      if (c !== APOSTROPHE && c !== BACKTICK) codes.push(c);
    } else if (c >= 0x0621 && c <= 0x064a) {
      if (c === 0x0622 || c === 0x0623 || c === 0x0625) codes.push(ALEF);
      else if (c === 0x0624) codes.push(WAW);
      else if (c === 0x0626 || c === 0x0649) codes.push(YEH);
      else if (c === 0x0629) codes.push(HEH);
      else if (c !== 0x0640) codes.push(c); // tatweel is dropped
    } else if ((c >= 0x064b && c <= 0x065f) || c === 0x0670) {
      // harakat, hamza marks, superscript alef: dropped
    } else if (c >= 0x0660 && c <= 0x0669) {
      codes.push(c - 0x0660 + 48);
    } else if (c >= 0x06f0 && c <= 0x06f9) {
      codes.push(c - 0x06f0 + 48);
    } else if (c === 0x0671) {
      codes.push(ALEF);
    } else if (c === 0x06cc) {
      codes.push(YEH);
    } else if (c === 0x06a9 || c === 0x06af) {
      codes.push(KAF);
    } else if (c === 0x060c || c === 0x061b || c === 0x061f || (c >= 0x066a && c <= 0x066d)) {
      codes.push(c); // Arabic punctuation: separates tokens, unchanged by folding
    } else {
      return null;
    }
  }
  return String.fromCharCode(...codes);
}

/** A text split into tokens, with where each token sits in the folded text. */
export interface TokenizedText {
  /** Lower-case tokens, for matching. */
  readonly tokens: string[];
  /** Start of each token in `source`; a token's original-case form is `source.slice(start, start + length)`. */
  readonly starts: number[];
  /** `wordHash` of each token, computed while reading it (for vocabulary lookups). */
  readonly hashes: number[];
  /** The folded text in its original letter case, for display names. */
  readonly source: string;
}

const APOSTROPHE = 39;
const BACKTICK = 96;

/**
 * Splits text into alphanumeric tokens (Latin letters, digits, Arabic letters) after `foldText`.
 * Written as one pass over character codes rather than regular expressions: this runs for every
 * transaction, and plain ASCII text (most of it) needs no folding beyond lower-casing.
 */
export function tokenizeText(input: string): TokenizedText {
  return tokenizeAscii(input) ?? tokenizeFolded(input);
}

/** The ASCII fast path; null when the text needs folding (non-ASCII letters, apostrophes). */
function tokenizeAscii(input: string): TokenizedText | null {
  const lower = input.toLowerCase();
  const tokens: string[] = [];
  const starts: number[] = [];
  const hashes: number[] = [];
  let start = -1;
  let hash = WORD_HASH_SEED;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if (c > 127 || c === APOSTROPHE || c === BACKTICK) return null;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (start < 0) {
        start = i;
        hash = WORD_HASH_SEED;
      }
      hash = wordHashStep(hash, c);
    } else if (start >= 0) {
      tokens.push(lower.slice(start, i));
      starts.push(start);
      hashes.push(hash);
      start = -1;
    }
  }
  if (start >= 0) {
    tokens.push(lower.slice(start));
    starts.push(start);
    hashes.push(hash);
  }
  return { tokens, starts, hashes, source: input };
}

function tokenizeFolded(input: string): TokenizedText {
  let source = foldArabic(input) ?? foldText(input, true);
  const lower = source.toLowerCase();
  // Lower-casing can change the length of a few exotic letters; then display falls back to lower case.
  if (lower.length !== source.length) source = lower;
  const tokens: string[] = [];
  const starts: number[] = [];
  const hashes: number[] = [];
  let start = -1;
  let hash = WORD_HASH_SEED;
  for (let i = 0; i <= lower.length; i++) {
    const c = i < lower.length ? lower.charCodeAt(i) : 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 0x0621 && c <= 0x064a)) {
      if (start < 0) {
        start = i;
        hash = WORD_HASH_SEED;
      }
      hash = wordHashStep(hash, c);
    } else if (start >= 0) {
      tokens.push(lower.slice(start, i));
      starts.push(start);
      hashes.push(hash);
      start = -1;
    }
  }
  return { tokens, starts, hashes, source };
}

/** The token holds an ASCII digit: an amount, a code, a store number (tokens are folded). */
export function hasDigit(token: string): boolean {
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c >= 48 && c <= 57) return true;
  }
  return false;
}

/**
 * Arabic written in Latin letters uses digits for the sounds Latin lacks (`3` ع, `7` ح, `2` ء, `5`
 * خ, `6` ط, `8` غ, `9` ق): `MAT3AM`, `7ALAWIYAT`, `KA3K` are words. One such digit, not last, with
 * three letters or more; `A1`, `F12345`, `8PM`, `PS5`, `2K4LM8` stay codes.
 */
const ARABIZI = /^[a-z]*[2356789][a-z]+$/;

/** A token with digits that is a code (store number, reference, time), not an Arabizi word. */
export function isCode(token: string): boolean {
  return hasDigit(token) && !(token.length >= 4 && ARABIZI.test(token));
}

/** Splits folded text into alphanumeric tokens (Latin, digits, Arabic letters). */
export function tokenize(input: string): string[] {
  // A copy: the snapshot keeps these arrays, and V8 would learn from that to allocate every token
  // array of the tokenizer (one per transaction, short-lived) straight in the old generation.
  return tokenizeText(input).tokens.slice();
}

const ARABIC_LETTER_RE = /[\u0621-\u064a]/;

export function isArabicToken(token: string): boolean {
  return ARABIC_LETTER_RE.test(token);
}

/** Splits Arabic definite article `ال` off a token when the rest is long enough to be a word. */
export function stripArabicArticle(token: string): string {
  return token.length > 4 && token.startsWith('ال') ? token.slice(2) : token;
}

/** Title-cases a display name made from raw tokens, keeping short all-caps acronyms as they are. */
export function toDisplayCase(words: readonly string[]): string {
  return words
    .map((w) => {
      if (isArabicToken(w)) return w;
      // Short vowel-less capitals are acronyms (KFC, DHL); ABU or BAR are words.
      if (w.length <= 4 && /^[A-Z0-9&]+$/.test(w) && !/[AEIOU]/.test(w)) return w;
      const lower = w.toLowerCase();
      return lower.charAt(0).toUpperCase() + lower.slice(1);
    })
    .join(' ');
}
