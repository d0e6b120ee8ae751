/**
 * Turns a raw description and merchant name into tokens the matchers can use, and finds the part of
 * the text that names the merchant (after processor prefixes, inside bank SMS sentences, before
 * store numbers and trailing city and country words).
 */
import type { TokenMatch } from './automaton.js';
import type { AliasRef, IntermediaryRef, LexiconEntry, PatternRef, Snapshot } from './snapshot.js';
import { tokenizeBoth, toDisplayCase } from './text.js';

export interface NormalizedText {
  /** All tokens of the description, with glued words split. */
  readonly tokens: readonly string[];
  /** Tokens of the bank-supplied merchant name (may be empty). */
  readonly merchantTokens: readonly string[];
  /** [start, end) of the tokens that name the merchant. */
  readonly segment: readonly [number, number];
  readonly intermediary: IntermediaryRef | null;
  /** Alias and rule-phrase matches in the description and in the merchant name. */
  readonly hits: LexiconHits;
  readonly merchantHits: LexiconHits;
  /** Tokens an alias match must not touch: the intermediary's prefix and wallet names. */
  readonly masked: readonly boolean[];
  /**
   * The cleaned merchant words. Computed on first use: a matched brand makes them unnecessary, and
   * most transactions match one.
   */
  merchant(): MerchantWords;
}

export interface LexiconHits {
  readonly aliases: TokenMatch<AliasRef>[];
  readonly patterns: TokenMatch<PatternRef>[];
  readonly intermediaries: TokenMatch<IntermediaryRef>[];
}

const NO_MASK: boolean[] = [];
const NO_HITS: LexiconHits = Object.freeze({ aliases: [], patterns: [], intermediaries: [] });

function scan(tokens: readonly string[], snapshot: Snapshot): LexiconHits {
  if (tokens.length === 0) return NO_HITS;
  const hits: LexiconHits = { aliases: [], patterns: [], intermediaries: [] };
  for (const m of snapshot.lexicon.search(tokens)) addHit(hits, m);
  return hits;
}

function addHit(hits: LexiconHits, m: TokenMatch<LexiconEntry>): void {
  // The match already carries the typed value: file it without copying.
  if (m.value.type === 'alias') hits.aliases.push(m as TokenMatch<AliasRef>);
  else if (m.value.type === 'pattern') hits.patterns.push(m as TokenMatch<PatternRef>);
  else hits.intermediaries.push(m as TokenMatch<IntermediaryRef>);
}

export interface MerchantWords {
  /** Cleaned merchant words for display (`Blue Bottle Coffee`), empty when only noise remained. */
  readonly displayName: string;
  /** Lower-case key of the cleaned merchant words, for learned mappings and history. */
  readonly merchantKey: string;
  /** True when the merchant part consists of place names only (ATM SMS texts print the location). */
  readonly locationOnly: boolean;
}

const HAS_DIGIT = /\d/;
const MIN_SPLIT_PART = 3;
// Words before which a sentence-style SMS names the merchant: "... at CARREFOUR, DUBAI on 12/03".
const MERCHANT_INTRODUCERS = new Set(['at', 'لدي', 'bei']);
// Weaker: `من` is also "from your card"; used only when no stronger introducer is present.
const WEAK_INTRODUCERS = new Set(['من', 'from']);
const SEGMENT_TERMINATORS = new Set([
  'on',
  'dated',
  'avail',
  'available',
  'balance',
  'bal',
  'ref',
  'في',
  'بتاريخ',
]);

export function normalizeText(description: string, merchantName: string, snapshot: Snapshot): NormalizedText {
  const { tokens, display } = splitGlued(description, snapshot);
  const merchant = merchantName ? splitGlued(merchantName, snapshot) : null;
  const merchantTokens = merchant?.tokens ?? [];

  let [start, end] = findSegment(tokens, snapshot);
  let intermediary: IntermediaryRef | null = null;
  // Most texts have no intermediary: share one empty mask instead of allocating one each time.
  let masked: boolean[] = NO_MASK;
  const hits = scan(tokens, snapshot);
  const merchantHits = scan(merchantTokens, snapshot);
  for (const m of hits.intermediaries) {
    const leads =
      m.start === start ||
      (m.start < start + 2 && tokens.slice(start, m.start).every((t) => snapshot.noise.has(t)));
    if (!leads && !m.value.anywhere) continue;
    if (masked === NO_MASK) masked = new Array<boolean>(tokens.length).fill(false);
    for (let i = m.start; i < m.end; i++) masked[i] = true;
    if (leads && m.end > start) {
      intermediary = m.value;
      start = Math.min(m.end, end);
    } else {
      intermediary ??= m.value;
    }
  }
  if (!intermediary && merchantTokens.length > 0) {
    const m = merchantHits.intermediaries.find((x) => x.start === 0);
    if (m) intermediary = m.value;
  }
  end = Math.max(start, end);
  let words: MerchantWords | null = null;
  const segment: [number, number] = [start, end];
  return {
    tokens,
    merchantTokens,
    segment,
    intermediary,
    hits,
    merchantHits,
    masked,
    merchant(): MerchantWords {
      words ??= describeMerchant(tokens, display, segment, merchant, snapshot);
      return words;
    },
  };
}

function describeMerchant(
  tokens: readonly string[],
  display: readonly string[],
  [start, end]: readonly [number, number],
  merchant: { tokens: string[]; display: string[] } | null,
  snapshot: Snapshot,
): MerchantWords {
  // Trailing places and codes are cut from the display name; place names inside stay.
  const words = cleanWords(tokens, display, start, end, snapshot);
  const merchantWords =
    merchant && merchant.tokens.length > 0
      ? cleanWords(merchant.tokens, merchant.display, 0, merchant.tokens.length, snapshot)
      : null;
  const chosen = merchantWords && merchantWords.kept.length > 0 ? merchantWords : words;
  return {
    displayName: toDisplayCase(chosen.display.slice(0, 6)),
    merchantKey: chosen.kept.slice(0, 6).join(' '),
    locationOnly: words.kept.length === 0 && words.places > 0 && !merchant?.tokens.length,
  };
}

/** Splits `CAREEMDUBAI` into `careem dubai` when both halves are words we know. */
function splitGlued(text: string, snapshot: Snapshot): { tokens: string[]; display: string[] } {
  const raw = tokenizeBoth(text);
  let tokens: string[] | null = null;
  let display: string[] | null = null;
  for (let i = 0; i < raw.tokens.length; i++) {
    const token = raw.tokens[i] as string;
    const split = token.length >= 5 && !snapshot.wholeWords.has(token) ? splitOf(token, snapshot) : null;
    if (split && !tokens) {
      // Copy only when something splits; most texts keep their tokens as they are.
      tokens = raw.tokens.slice(0, i);
      display = raw.cased.slice(0, i);
    }
    if (!tokens || !display) continue;
    const casedToken = raw.cased[i] as string;
    if (split) {
      tokens.push(split[0], split[1]);
      display.push(casedToken.slice(0, split[0].length), casedToken.slice(split[0].length));
    } else {
      tokens.push(token);
      display.push(casedToken);
    }
  }
  return { tokens: tokens ?? raw.tokens, display: display ?? raw.cased };
}

function splitOf(token: string, snapshot: Snapshot): [string, string] | null {
  return (
    splitDigits(token) ?? (snapshot.splitHeads.has(token.slice(0, 3)) ? splitToken(token, snapshot) : null)
  );
}

const LETTERS_THEN_DIGITS = /^([a-z]{3,})(\d{3,}[a-z0-9]*)$/;
const DIGITS_THEN_LETTERS = /^(\d{3,})([a-z]{3,})$/;

/** `IMPARK00740010A` → `impark` + `00740010a`; `2100KORNEUBURG` → `2100` + `korneuburg`. */
function splitDigits(token: string): [string, string] | null {
  const m = LETTERS_THEN_DIGITS.exec(token) ?? DIGITS_THEN_LETTERS.exec(token);
  return m ? [m[1] as string, m[2] as string] : null;
}

function isPlace(token: string, snapshot: Snapshot): boolean {
  return snapshot.countries.has(token) || snapshot.cities.hasToken(token);
}

function splitToken(token: string, snapshot: Snapshot): [string, string] | null {
  // Prefer the longest known left part: `talabatuae` → `talabat` + `uae`.
  // Both halves need some length: `payroll` is not `pay` + `roll`.
  for (let i = token.length - 2; i >= MIN_SPLIT_PART; i--) {
    const left = token.slice(0, i);
    const leftBrand = snapshot.knownTokens.has(left);
    if (!leftBrand && !isPlace(left, snapshot)) continue;
    const right = token.slice(i);
    if (isPlace(right, snapshot)) return [left, right];
    if (leftBrand && right.length >= MIN_SPLIT_PART && snapshot.knownTokens.has(right)) return [left, right];
  }
  return null;
}

/** Where the merchant's name is: after the last "at" of an SMS sentence, else the whole text. */
function findSegment(tokens: readonly string[], snapshot: Snapshot): [number, number] {
  let start = 0;
  let end = tokens.length;
  if (tokens.length >= 6) {
    const at = lastIndexIn(tokens, MERCHANT_INTRODUCERS);
    const introducer = at >= 1 ? at : lastIndexIn(tokens, WEAK_INTRODUCERS);
    if (introducer >= 1 && introducer < tokens.length - 1) {
      start = introducer + 1;
      for (let j = start + 1; j < tokens.length; j++) {
        if (SEGMENT_TERMINATORS.has(tokens[j] as string)) {
          end = j;
          break;
        }
      }
    }
  }
  while (start < end && isNoiseToken(tokens[start] as string, snapshot)) start++;
  return [start, end];
}

function lastIndexIn(tokens: readonly string[], words: ReadonlySet<string>): number {
  for (let i = tokens.length - 2; i >= 1; i--) if (words.has(tokens[i] as string)) return i;
  return -1;
}

function isNoiseToken(token: string, snapshot: Snapshot): boolean {
  return snapshot.noise.has(token) || HAS_DIGIT.test(token);
}

interface CleanedWords {
  readonly kept: string[];
  readonly display: string[];
  /** How many place tokens were dropped. */
  readonly places: number;
}

function cleanWords(
  tokens: readonly string[],
  display: readonly string[],
  start: number,
  end: number,
  snapshot: Snapshot,
): CleanedWords {
  const placeAt = new Array<boolean>(tokens.length).fill(false);
  for (const m of snapshot.cities.search(tokens)) for (let i = m.start; i < m.end; i++) placeAt[i] = true;
  for (let i = 0; i < tokens.length; i++) {
    if (snapshot.countries.has(tokens[i] as string)) placeAt[i] = true;
    const t = tokens[i] as string;
    // `CAUS`, `NYUS`: a US state code glued to the country code.
    if (t.length === 4 && t.endsWith('us') && snapshot.regions.has(t.slice(0, 2))) placeAt[i] = true;
    if (snapshot.regions.has(t) && i > 0 && placeAt[i - 1]) placeAt[i] = true;
  }
  // Trailing place words go; so do noise words, codes with digits and one-letter leftovers anywhere.
  let last = end;
  let places = 0;
  while (last > start) {
    const t = tokens[last - 1] as string;
    if (placeAt[last - 1]) places++;
    else if (!(isNoiseToken(t, snapshot) || t.length === 1)) break;
    last--;
  }
  const kept: string[] = [];
  const shown: string[] = [];
  for (let i = start; i < last; i++) {
    const t = tokens[i] as string;
    if (isNoiseToken(t, snapshot) || (t.length === 1 && !/[\u0621-\u064a]/.test(t))) continue;
    kept.push(t);
    shown.push(display[i] ?? t);
  }
  return { kept, display: shown, places };
}
