/**
 * Character-level folding shared by catalog aliases, rule phrases and transaction text, so that both
 * sides of every comparison go through exactly the same steps.
 */

const ARABIC_INDIC_ZERO = 0x0660;
const EXTENDED_ARABIC_INDIC_ZERO = 0x06f0;

// Letter variants that banks, keyboards and SMS gateways use interchangeably.
const ARABIC_LETTER_FOLDS: Readonly<Record<string, string>> = {
  'ٱ': 'ا',
  'ى': 'ي',
  'ی': 'ي',
  'ئ': 'ي',
  'ؤ': 'و',
  'ة': 'ه',
  'ک': 'ك',
  'گ': 'ك',
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
 * Lower-cases, removes Latin accents and Arabic diacritics (harakat, hamza marks, tatweel), folds
 * Arabic letter variants, turns Arabic-Indic digits into ASCII and drops apostrophes so that
 * `McDonald's` and `MCDONALDS` meet. Every other non-alphanumeric character becomes a space.
 */
export function foldText(input: string, keepCase = false): string {
  // NFD splits accented Latin letters and hamza-carrying alefs into base letter + combining mark.
  const decomposed = input.normalize('NFKD');
  let out = '';
  for (const ch of decomposed) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= 0x0300 && code <= 0x036f) continue; // Latin combining marks
    if ((code >= 0x064b && code <= 0x065f) || code === 0x0670 || code === 0x0640) continue; // harakat, tatweel
    if (code >= ARABIC_INDIC_ZERO && code <= ARABIC_INDIC_ZERO + 9) {
      out += String(code - ARABIC_INDIC_ZERO);
      continue;
    }
    if (code >= EXTENDED_ARABIC_INDIC_ZERO && code <= EXTENDED_ARABIC_INDIC_ZERO + 9) {
      out += String(code - EXTENDED_ARABIC_INDIC_ZERO);
      continue;
    }
    if (ch === "'" || ch === '’' || ch === '‘' || ch === '`' || ch === 'ʼ') continue;
    const lower = ch.toLowerCase();
    const folded = ARABIC_LETTER_FOLDS[lower] ?? LETTER_FOLDS[lower];
    out += folded ?? (keepCase ? ch : lower);
  }
  return out;
}

const TOKEN_RE = /[a-z0-9\u0621-\u064a]+/g;
const CASED_TOKEN_RE = /[A-Za-z0-9\u0621-\u064a]+/g;

/** Splits folded text into alphanumeric tokens (Latin, digits, Arabic letters). */
export function tokenize(input: string): string[] {
  return foldText(input).match(TOKEN_RE) ?? [];
}

/**
 * The same tokens as `tokenize`, in their original letter case, for display names. Returns null in
 * the rare case where case folding changed token boundaries.
 */
export function tokenizeKeepingCase(input: string, expectedCount: number): string[] | null {
  const tokens = foldText(input, true).match(CASED_TOKEN_RE) ?? [];
  return tokens.length === expectedCount ? tokens : null;
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
