/**
 * Character-level folding shared by catalog aliases, rule phrases and transaction text, so that both
 * sides of every comparison go through exactly the same steps.
 */

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
 * `McDonald's` and `MCDONALDS` meet. Every other non-alphanumeric character later splits tokens.
 */
export function foldText(input: string, keepCase = false): string {
  // Most descriptors are plain ASCII: nothing to decompose or fold but case and apostrophes.
  if (ASCII_ONLY.test(input)) {
    const stripped = input.replace(APOSTROPHES, '');
    return keepCase ? stripped : stripped.toLowerCase();
  }
  // NFKD splits accented Latin letters and hamza-carrying alefs into base letter + combining mark.
  const folded = input.normalize('NFKD').replace(DROPPED, '').replace(FOLDED, foldChar);
  return keepCase ? folded : folded.toLowerCase();
}

const TOKEN_RE = /[a-z0-9\u0621-\u064a]+/g;
const CASED_TOKEN_RE = /[A-Za-z0-9\u0621-\u064a]+/g;

/** Splits folded text into alphanumeric tokens (Latin, digits, Arabic letters). */
export function tokenize(input: string): string[] {
  return foldText(input).match(TOKEN_RE) ?? [];
}

/**
 * Tokens in their original letter case (for display names) and lower-cased (for matching), from one
 * pass over the text.
 */
export function tokenizeBoth(input: string): { readonly tokens: string[]; readonly cased: string[] } {
  const cased = foldText(input, true).match(CASED_TOKEN_RE) ?? [];
  return { tokens: cased.map((t) => t.toLowerCase()), cased };
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
