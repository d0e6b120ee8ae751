/**
 * Finds the merchant inside a bank alert sentence ("Purchase of AED 45.00 with Card ending 1234 at
 * CARREFOUR, DUBAI on 12/03", "شراء ... لدى: نعناع في: ...", "Покупка 500 р MAGNIT Баланс: ...") by
 * general wording rules from data/alerts.json: before a closer (Turkish `MIGROS isyerinde`), back to
 * the clause before it; else after the last introducer (a weak one only when no strong one is
 * present), else right after the amount that follows a purchase word (or right after a
 * purchase word that follows the amount: `150.00UAH Оплата. ATB. Бал.`); up to the first
 * clause about the date, card, amount or balance, or a word for the day or time before a number.
 */
import type { Alerts } from '../data/schemas.js';
import { tokenize } from './text.js';

/** The alert words, folded as the tokenizer folds text. */
export interface AlertWords {
  readonly introducers: ReadonlySet<string>;
  readonly weakIntroducers: ReadonlySet<string>;
  readonly closers: ReadonlySet<string>;
  readonly terminators: ReadonlySet<string>;
  readonly timeWords: ReadonlySet<string>;
  readonly purchaseWords: ReadonlySet<string>;
  readonly currencies: ReadonlySet<string>;
  readonly cardWords: ReadonlySet<string>;
}

function folded(words: readonly string[]): Set<string> {
  const set = new Set<string>();
  for (const w of words) for (const t of tokenize(w)) set.add(t);
  return set;
}

export function alertWords(alerts: Alerts): AlertWords {
  return {
    introducers: folded(alerts.introducers),
    weakIntroducers: folded(alerts.weak_introducers),
    closers: folded(alerts.closers),
    terminators: folded(alerts.terminators),
    timeWords: folded(alerts.time_words),
    purchaseWords: folded(alerts.purchase_words),
    currencies: folded(alerts.currencies),
    cardWords: folded(alerts.card_words),
  };
}

/** Shorter texts are descriptors, not sentences: an "at" there belongs to the name (`EAT AT JOES`). */
const MIN_ALERT_TOKENS = 6;
/** An amount, perhaps with its currency glued on (`500р`, `45.00` splits into `45` `00`). */
const AMOUNT = /^\d+[a-z\u0621-\u064a]{0,3}$/;

/** The last digits of a card, perhaps behind a mask (`1234`, `xx1234`, `xxxx`). */
const CARD_NUMBER = /^(?:x*\d+|x+)$/;

/** A time or date after an introducer (`... on 12/03/24 at 14:22`) says when, not where. */
const STARTS_WITH_DIGIT = /^\d/;

/** [start, end) of the merchant's tokens in an alert sentence, or null when the text reads as no alert. */
export function alertSegment(tokens: readonly string[], words: AlertWords): [number, number] | null {
  let start = -1;
  if (tokens.length >= MIN_ALERT_TOKENS) {
    // A descriptor with an "at" in its name (`BURJ KHALIFA AT THE TOP DUBAI`) is no sentence: an
    // alert also names an amount's currency, a purchase, the card or the balance.
    if (tokens.some((t) => alertWord(t, words))) {
      const closed = beforeCloser(tokens, words);
      if (closed) return closed;
      start = afterIntroducer(tokens, words.introducers);
      if (start < 0) start = afterIntroducer(tokens, words.weakIntroducers);
    }
    if (start < 0) {
      const before = beforeAmount(tokens, words);
      if (before) return before;
      start = afterAmount(tokens, words, false);
    }
  } else {
    // A short SMS (`Оплата 120 грн КАВ'ЯРНЯ`) is still a sentence when a purchase word, an amount
    // and a currency open it; without the currency `POS 7 ELEVEN` would lose the 7.
    const before = beforeAmount(tokens, words);
    if (before) return before;
    start = afterAmount(tokens, words, true);
  }
  // A clause about the card may stand between the amount and the merchant: `Pokupka 560.00 RUR.
  // Karta *1234. HIMCHISTKA`, `Achat 120,00 MAD CARTE 1234 PHARMACIE DU CENTRE`.
  while (
    start >= 0 &&
    start + 1 < tokens.length &&
    words.cardWords.has(tokens[start] as string) &&
    CARD_NUMBER.test(tokens[start + 1] as string)
  )
    start += 2;
  if (start < 0 || start >= tokens.length) return null;
  let end = tokens.length;
  for (let j = start + 1; j < tokens.length; j++) {
    const token = tokens[j] as string;
    const next = tokens[j + 1];
    if (
      words.terminators.has(token) ||
      (words.timeWords.has(token) && next !== undefined && STARTS_WITH_DIGIT.test(next))
    ) {
      end = j;
      break;
    }
  }
  return [start, end];
}

function alertWord(token: string, words: AlertWords): boolean {
  return (
    words.currencies.has(token) ||
    words.purchaseWords.has(token) ||
    words.terminators.has(token) ||
    gluedCurrency(token, words)
  );
}

/** Names longer than this before a closer are a clause the closer does not end. */
const MAX_CLOSED_TOKENS = 6;

/**
 * The words before the first closer, back to the clause before them: the nearest amount, date,
 * currency, introducer, purchase word or terminator (`kartinizla 12.03.2025 tarihinde MIGROS
 * KADIKOY isyerinde 150,00 TL harcama`).
 */
function beforeCloser(tokens: readonly string[], words: AlertWords): [number, number] | null {
  const closer = tokens.findIndex((t, i) => i > 0 && words.closers.has(t));
  if (closer < 0) return null;
  // `MIGROS uye isyerinde`, at the member workplace: a word of the clause may sit before the closer.
  let end = closer;
  while (end > 0 && words.terminators.has(tokens[end - 1] as string)) end--;
  let start = end;
  while (start > 0) {
    const token = tokens[start - 1] as string;
    if (STARTS_WITH_DIGIT.test(token) || alertWord(token, words) || words.introducers.has(token)) break;
    start--;
  }
  return start < end && end - start <= MAX_CLOSED_TOKENS ? [start, end] : null;
}

/** The token after the last introducer that has a name after it, or -1. */
function afterIntroducer(tokens: readonly string[], introducers: ReadonlySet<string>): number {
  for (let i = tokens.length - 2; i >= 1; i--) {
    if (introducers.has(tokens[i] as string) && !STARTS_WITH_DIGIT.test(tokens[i + 1] as string))
      return i + 1;
  }
  return -1;
}

/**
 * Between a purchase word and its amount, when a clause about the card or balance (or nothing)
 * follows the amount: `Оплата услуг ЖКХ 3500р Карта*1234`, `Purchase CARREFOUR AED 45 on card`.
 */
function beforeAmount(tokens: readonly string[], words: AlertWords): [number, number] | null {
  for (let p = 0; p < tokens.length - 2; p++) {
    if (!words.purchaseWords.has(tokens[p] as string)) continue;
    for (let a = p + 2; a <= p + 4 && a < tokens.length; a++) {
      if (!AMOUNT.test(tokens[a] as string)) continue;
      // `Pokupka 560.00 RUR`: the amount follows the word, and this number is its decimals.
      if (a === p + 2 && AMOUNT.test(tokens[p + 1] as string)) return null;
      const { next, currency } = amountEnd(tokens, a, words);
      const closes = next >= tokens.length || words.terminators.has(tokens[next] as string);
      if (!closes || !(currency || words.currencies.has(tokens[a - 1] as string))) return null;
      const end = words.currencies.has(tokens[a - 1] as string) ? a - 1 : a;
      // `Покупка карта 1234 500 RUB`, `Покупка ATB Баланс 100 RUB`: the words before this amount
      // hold a clause about the card or balance, so the merchant is not there alone.
      for (let i = p + 1; i < end; i++) if (words.terminators.has(tokens[i] as string)) return null;
      // `Achat TPE 120,00 MAD`: a second purchase word is no merchant.
      let first = p + 1;
      while (first < end && words.purchaseWords.has(tokens[first] as string)) first++;
      return first < end ? [first, end] : null;
    }
    return null;
  }
  return null;
}

/** After "purchase 500 RUB": the token past the amount (and its currency) that follows a purchase word. */
function afterAmount(tokens: readonly string[], words: AlertWords, needsCurrency: boolean): number {
  for (let p = 0; p < tokens.length - 2; p++) {
    if (!words.purchaseWords.has(tokens[p] as string)) continue;
    // The amount may come first: `150.00UAH Оплата. ATB. Бал. ...` (the merchant follows the word).
    if (!needsCurrency && p > 0 && amountEndsAt(tokens, p, words) && !AMOUNT.test(tokens[p + 1] as string))
      return p + 1;
    for (let a = p + 1; a <= p + 3 && a < tokens.length - 1; a++) {
      if (!AMOUNT.test(tokens[a] as string)) continue;
      const { next, currency } = amountEnd(tokens, a, words);
      if (needsCurrency && !currency) return -1;
      return next < tokens.length ? next : -1;
    }
  }
  return -1;
}

/**
 * Where the amount that starts at `a` ends, and whether it names its currency (a token after it, or
 * glued onto its last number). Decimals arrive as a second number: `45.00` is `45` `00`, `12.50р` is
 * `12` `50r`.
 */
function amountEnd(
  tokens: readonly string[],
  a: number,
  words: AlertWords,
): { next: number; currency: boolean } {
  let next = a + 1;
  if (next < tokens.length && AMOUNT.test(tokens[next] as string)) next++;
  if (gluedCurrency(tokens[next - 1] as string, words)) return { next, currency: true };
  const currency = next < tokens.length && words.currencies.has(tokens[next] as string);
  return { next: currency ? next + 1 : next, currency };
}

/** The amount carries its currency glued on (`560р`, `12.50r` as `12` `50r`). */
function gluedCurrency(amount: string, words: AlertWords): boolean {
  let i = 0;
  while (i < amount.length && amount.charCodeAt(i) >= 48 && amount.charCodeAt(i) <= 57) i++;
  return i > 0 && i < amount.length && words.currencies.has(amount.slice(i));
}

/** An amount, perhaps with its currency, stands right before `index`. */
function amountEndsAt(tokens: readonly string[], index: number, words: AlertWords): boolean {
  let i = index - 1;
  if (words.currencies.has(tokens[i] as string)) i--;
  return i >= 0 && AMOUNT.test(tokens[i] as string);
}
