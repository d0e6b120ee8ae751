/**
 * Turns a raw description and merchant name into tokens the matchers can use, and finds the part of
 * the text that names the merchant (after processor prefixes, inside bank SMS sentences, before
 * store numbers and trailing city and country words).
 */
import { alertSegment } from './alerts.js';
import type { TokenMatch } from './automaton.js';
import type { AliasRef, IntermediaryRef, LexiconEntry, PatternRef, Snapshot } from './snapshot.js';
import { isCode, tokenizeText, toDisplayCase } from './text.js';
import { WORD, WORD_HASH_SEED, wordHashStep, type Vocabulary, type WordFilter } from './vocabulary.js';

export interface NormalizedText {
  /** All tokens of the description, with glued words split. */
  readonly tokens: readonly string[];
  /** The tokens' ids in the snapshot's vocabulary (negative for unknown words). */
  readonly ids: readonly number[];
  /** Tokens of the bank-supplied merchant name (may be empty), and their ids. */
  readonly merchantTokens: readonly string[];
  readonly merchantIds: readonly number[];
  /** [start, end) of the tokens that name the merchant. */
  readonly segment: readonly [number, number];
  /**
   * Where the merchant's part starts before its leading filler: a trade phrase may begin with a
   * filler word (`TRADING ACCOUNT`, `AC REPAIR`, `ONLINE SHOPPING`).
   */
  readonly lead: number;
  /** The description reads as a bank alert sentence: `segment` is the merchant's part of it. */
  readonly alert: boolean;
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
  readonly aliases: readonly TokenMatch<AliasRef>[];
  readonly patterns: readonly TokenMatch<PatternRef>[];
  readonly intermediaries: readonly TokenMatch<IntermediaryRef>[];
}

const NO_MASK: boolean[] = [];
const NO_HITS: LexiconHits = Object.freeze({ aliases: [], patterns: [], intermediaries: [] });

function scan(ids: readonly number[], snapshot: Snapshot): LexiconHits {
  if (ids.length === 0) return NO_HITS;
  const found = snapshot.lexicon.searchIds(ids);
  if (found.length === 0) return NO_HITS;
  // Usually every match is a brand alias: then the automaton's array is the alias list as it is.
  let onlyAliases = true;
  for (let i = 0; i < found.length && onlyAliases; i++)
    onlyAliases = isAlias(found[i] as TokenMatch<LexiconEntry>);
  if (onlyAliases) {
    return {
      aliases: found as TokenMatch<AliasRef>[],
      patterns: NO_HITS.patterns,
      intermediaries: NO_HITS.intermediaries,
    };
  }
  const aliases: TokenMatch<AliasRef>[] = [];
  const patterns: TokenMatch<PatternRef>[] = [];
  const intermediaries: TokenMatch<IntermediaryRef>[] = [];
  for (const m of found) {
    // The match already carries the typed value: file it without copying.
    if (isAlias(m)) aliases.push(m);
    else if (m.value.type === 'pattern') patterns.push(m as TokenMatch<PatternRef>);
    else intermediaries.push(m as TokenMatch<IntermediaryRef>);
  }
  return { aliases, patterns, intermediaries };
}

function isAlias(m: TokenMatch<LexiconEntry>): m is TokenMatch<AliasRef> {
  return m.value.type === 'alias';
}

export interface MerchantWords {
  /** Cleaned merchant words for display (`Blue Bottle Coffee`), empty when only noise remained. */
  readonly displayName: string;
  /** Lower-case key of the cleaned merchant words, for learned mappings and history. */
  readonly merchantKey: string;
  /** True when the merchant part consists of place names only (ATM SMS texts print the location). */
  readonly locationOnly: boolean;
  /** How many city words the merchant part ends with (`CIB MAADI`: one; a country is not counted). */
  readonly trailingCities: number;
  /**
   * The last merchant word before trailing places and codes, where a fixed-width field cuts a name
   * (`PHARMAC` in `AL SHIFA PHARMAC DUBAI`); empty when none.
   */
  readonly lastWord: string;
}

const MIN_SPLIT_PART = 3;

const NO_WORDS: Words = { tokens: [], ids: [], starts: [], source: '' };

/**
 * How much of each text the engine reads. Statement descriptors are cut at 20-40 characters and
 * bank alerts run to a few hundred; whatever follows is not about the merchant. The contract
 * rejects longer fields, but the engine is a pure function others may call, and a megabyte of text
 * must cost it no more than this much.
 */
export const MAX_TEXT_CHARS = 1024;

/**
 * @param country the account's country (ISO code, upper case): its code glued after a name's last
 *   word (`BENGAWAN SOLOSG` for a Singapore card) is split off as a place.
 */
export function normalizeText(
  description: string,
  merchantName: string,
  snapshot: Snapshot,
  country = '',
): NormalizedText {
  const words = splitGlued(capped(description), snapshot, country);
  const { tokens, ids } = words;
  const merchant = merchantName ? splitGlued(capped(merchantName), snapshot, country) : NO_WORDS;
  const vocabulary = snapshot.vocabulary;

  const alert = alertSegment(tokens, snapshot.alertWords);
  const hits = scan(ids, snapshot);
  const merchantHits = scan(merchant.ids, snapshot);
  let [start, end] = findSegment(words, alert, hits.aliases, snapshot);
  let lead = alert ? alert[0] : 0;
  let named: TokenMatch<IntermediaryRef> | null = null;
  // Most texts have no intermediary: share one empty mask instead of allocating one each time.
  let masked: boolean[] = NO_MASK;
  for (const m of hits.intermediaries) {
    const leads = m.start === start || (m.start < start + 2 && allNoise(ids, start, m.start, vocabulary));
    if (!leads && !m.value.anywhere) continue;
    if (masked === NO_MASK) masked = new Array<boolean>(tokens.length).fill(false);
    for (let i = m.start; i < m.end; i++) masked[i] = true;
    if (leads && m.end > start) {
      named = m;
      start = Math.min(m.end, end);
      lead = start;
    } else if (named === null || (m.start <= named.start && m.end > named.end)) {
      // The longer name over the same words: `GOOGLE PAY` is the wallet, not `GOOGLE *` billing.
      named = m;
    }
  }
  let intermediary = named?.value ?? null;
  if (!intermediary && merchant.tokens.length > 0) {
    const m = merchantHits.intermediaries.find((x) => x.start === 0);
    if (m) intermediary = m.value;
  }
  end = Math.max(start, end);
  return new Normalized(
    words,
    merchant,
    [start, end],
    Math.min(lead, start),
    alert !== null,
    intermediary,
    hits,
    merchantHits,
    masked,
    snapshot,
  );
}

function capped(text: string): string {
  return text.length > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS) : text;
}

/** A class rather than an object literal with a closure: one allocation per text, not three. */
class Normalized implements NormalizedText {
  readonly tokens: readonly string[];
  readonly ids: readonly number[];
  readonly merchantTokens: readonly string[];
  readonly merchantIds: readonly number[];
  private described: MerchantWords | null = null;

  constructor(
    private readonly words: Words,
    private readonly merchantWords: Words,
    readonly segment: readonly [number, number],
    readonly lead: number,
    readonly alert: boolean,
    readonly intermediary: IntermediaryRef | null,
    readonly hits: LexiconHits,
    readonly merchantHits: LexiconHits,
    readonly masked: readonly boolean[],
    private readonly snapshot: Snapshot,
  ) {
    this.tokens = words.tokens;
    this.ids = words.ids;
    this.merchantTokens = merchantWords.tokens;
    this.merchantIds = merchantWords.ids;
  }

  merchant(): MerchantWords {
    this.described ??= describeMerchant(this.words, this.segment, this.merchantWords, this.snapshot);
    return this.described;
  }
}

function allNoise(ids: readonly number[], from: number, to: number, vocabulary: Vocabulary): boolean {
  for (let i = from; i < to; i++) if ((vocabulary.flags(ids[i] as number) & WORD.noise) === 0) return false;
  return true;
}

function describeMerchant(
  words: Words,
  [start, end]: readonly [number, number],
  merchant: Words,
  snapshot: Snapshot,
): MerchantWords {
  // Trailing places and codes are cut from the display name; place names inside stay.
  const cleaned = cleanWords(words, start, end, snapshot);
  const merchantWords =
    merchant.tokens.length > 0 ? cleanWords(merchant, 0, merchant.tokens.length, snapshot) : null;
  const chosen = merchantWords && merchantWords.kept.length > 0 ? merchantWords : cleaned;
  return {
    displayName: toDisplayCase(chosen.display.slice(0, 6)),
    merchantKey: chosen.kept.slice(0, 6).join(' '),
    locationOnly:
      cleaned.kept.length === 0 &&
      cleaned.places > 0 &&
      merchant.tokens.length === 0 &&
      !hasInitials(words.tokens, start, end),
    trailingCities: cleaned.cities,
    lastWord: chosen.kept[chosen.kept.length - 1] ?? '',
  };
}

/** Two single Latin letters in a row: the initials of a name (`C&A`, `A & W`), which cleaning drops. */
function hasInitials(tokens: readonly string[], start: number, end: number): boolean {
  for (let i = start + 1; i < end; i++)
    if (isLetter(tokens[i - 1] as string) && isLetter(tokens[i] as string)) return true;
  return false;
}

function allLetters(tokens: readonly string[], start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isLetter(tokens[i] as string)) return false;
  return true;
}

function isLetter(token: string): boolean {
  const c = token.charCodeAt(0);
  return token.length === 1 && c >= 97 && c <= 122;
}

/** Tokens with their vocabulary ids and where each sits in the (original-case) source text. */
interface Words {
  readonly tokens: string[];
  readonly ids: readonly number[];
  readonly starts: number[];
  readonly source: string;
}

function displayOf(words: Words, i: number): string {
  const start = words.starts[i] as number;
  return words.source.slice(start, start + (words.tokens[i] as string).length);
}

/** Tokenizes, looks every token up once, and splits `CAREEMDUBAI` into `careem dubai` when both halves are words we know. */
function splitGlued(text: string, snapshot: Snapshot, country: string): Words {
  const raw = tokenizeText(text);
  const vocabulary = snapshot.vocabulary;
  const ids: number[] = [];
  let tokens: string[] | null = null;
  let starts: number[] | null = null;
  let splitIds: number[] | null = null;
  for (let i = 0; i < raw.tokens.length; i++) {
    const token = raw.tokens[i] as string;
    const id = vocabulary.idAt(token, 0, token.length, raw.hashes[i] as number);
    ids.push(id);
    const split =
      token.length >= 5 && (vocabulary.flags(id) & WORD.whole) === 0
        ? splitOf(token, snapshot, country)
        : null;
    if (split && !tokens) {
      // Copy only when something splits; most texts keep their tokens as they are.
      tokens = raw.tokens.slice(0, i);
      starts = raw.starts.slice(0, i);
      splitIds = ids.slice(0, i);
    }
    if (!tokens || !starts || !splitIds) continue;
    const start = raw.starts[i] as number;
    if (split) {
      tokens.push(split[0], split[1]);
      starts.push(start, start + split[0].length);
      splitIds.push(vocabulary.id(split[0]), vocabulary.id(split[1]));
    } else {
      tokens.push(token);
      starts.push(start);
      splitIds.push(id);
    }
  }
  if (!tokens || !starts || !splitIds)
    return { tokens: raw.tokens, ids, starts: raw.starts, source: raw.source };
  return { tokens, ids: splitIds, starts, source: raw.source };
}

function splitOf(token: string, snapshot: Snapshot, country: string): [string, string] | null {
  const split = splitDigits(token) ?? splitToken(token, snapshot.vocabulary, snapshot.splitLefts, country);
  // An ordinary word is one word: `MINIBUS` is not `MINI` + `BUS`; nor is a trade word or another
  // ordinary word cut by the field width (`HARDWAR`, `CAFETER`, `COMMERC`). Asked only of the rare
  // token that splits, so the word lists cost the common path nothing.
  if (!split || splitDigits(token)) return split;
  return snapshot.ordinaryWords.has(token) ||
    snapshot.keywordPrefixes.beginsALonger(token) ||
    snapshot.ordinaryWordPrefixes.beginsALonger(token)
    ? null
    : split;
}

const LETTERS_THEN_DIGITS = /^([a-z]{3,})(\d{3,}[a-z0-9]*)$/;
const DIGITS_THEN_LETTERS = /^(\d{3,})([a-z]{3,})$/;

/** `IMPARK00740010A` → `impark` + `00740010a`; `2100KORNEUBURG` → `2100` + `korneuburg`. */
function splitDigits(token: string): [string, string] | null {
  const m = LETTERS_THEN_DIGITS.exec(token) ?? DIGITS_THEN_LETTERS.exec(token);
  return m ? [m[1] as string, m[2] as string] : null;
}

const PLACE = WORD.country | WORD.city;

/** The folded two letters are the (upper-case) country code. */
function isCountry(code: string, country: string): boolean {
  return (
    code.length === 2 &&
    country.length === 2 &&
    code.charCodeAt(0) === country.charCodeAt(0) + 32 &&
    code.charCodeAt(1) === country.charCodeAt(1) + 32
  );
}
const MIN_GLUED_NAME = 4;
const ARABIC_LETTER = /[\u0600-\u06ff]/;

function splitToken(
  token: string,
  vocabulary: Vocabulary,
  lefts: WordFilter,
  country: string,
): [string, string] | null {
  // Both halves must be known words, so neither is longer than the longest one: a longer token
  // cannot split, and only that many left parts are worth trying. Without this bound the search was
  // quadratic in the token (a 100 KB token took 9 s).
  const longest = vocabulary.maxWordLength;
  if (token.length > 2 * longest) return null;
  // The beginnings' hashes in one pass; only those the filter may hold are looked up. Both halves
  // need some length: `payroll` is not `pay` + `roll`.
  const top = Math.min(token.length - 2, longest);
  let hash = WORD_HASH_SEED;
  let candidates: number[] | null = null;
  for (let i = 1; i <= top; i++) {
    hash = wordHashStep(hash, token.charCodeAt(i - 1));
    if (i >= MIN_SPLIT_PART && lefts.mayHold(hash)) (candidates ??= []).push(i, hash);
  }
  if (candidates === null) return null;
  // Prefer the longest known left part: `talabatuae` → `talabat` + `uae`.
  for (let c = candidates.length - 2; c >= 0; c -= 2) {
    const i = candidates[c] as number;
    const left = vocabulary.flags(vocabulary.idAt(token, 0, i, candidates[c + 1] as number));
    if ((left & (WORD.alias | PLACE)) === 0) continue;
    const right = token.slice(i);
    const rightFlags = vocabulary.flags(vocabulary.id(right));
    // A two-letter country or state code ends a glued place (`DUBAIAE`); after any other word it is
    // as likely the word's own ending (`HAMID` is not `ham` + Indonesia, `MARIAGE` not `maria` + GE),
    // unless it is the account's own country and the word a curated name's (`SOLOSG` in Singapore).
    if (
      (rightFlags & PLACE) !== 0 &&
      (right.length > 2 ||
        (left & PLACE) !== 0 ||
        ((left & WORD.reviewed) !== 0 && i >= MIN_GLUED_NAME && isCountry(right, country)))
    ) {
      return [token.slice(0, i), right];
    }
    // Two names glued together: only in Latin script (fixed-width statement fields glue them; Arabic
    // words that hold a name are other words: موبيليس is not موبي), only a name long enough to be
    // telling (`PIAGET` is not `PIA` + `GET`), and only words of curated names: with thousands of
    // imported names, nobody reviewed, almost any unknown word is two of their words glued.
    if (
      (left & WORD.reviewed) !== 0 &&
      i >= MIN_GLUED_NAME &&
      right.length >= MIN_SPLIT_PART &&
      (rightFlags & WORD.reviewed) !== 0 &&
      !ARABIC_LETTER.test(token)
    ) {
      return [token.slice(0, i), right];
    }
  }
  return null;
}

/**
 * Where the merchant's name is: inside a bank alert sentence (alerts.ts), else the whole text; after
 * leading filler, unless a name starts with it. The letters of filler written with dots (`W.L.L`,
 * `A/C`) are filler alone, but `C&A` and `A&W` are names.
 */
function findSegment(
  { tokens, ids }: Words,
  segment: readonly [number, number] | null,
  aliases: readonly TokenMatch<AliasRef>[],
  snapshot: Snapshot,
): [number, number] {
  const from = segment ? segment[0] : 0;
  const end = segment ? segment[1] : tokens.length;
  let start = from;
  while (
    start < end &&
    isNoise(tokens, ids, start, snapshot.vocabulary) &&
    !isBrandCode(tokens, ids, start, snapshot)
  ) {
    start++;
  }
  let named = start;
  for (const m of aliases) {
    if (m.start >= from && m.start < named && (m.end > start || allLetters(tokens, m.start, m.end)))
      named = m.start;
  }
  return [named, end];
}

/** A letter-and-digit token that is a brand's name or part of one (`A1`, `O2`), not a store number. */
function isBrandCode(
  tokens: readonly string[],
  ids: readonly number[],
  i: number,
  snapshot: Snapshot,
): boolean {
  const t = tokens[i] as string;
  return !ALL_DIGITS.test(t) && isCode(t) && (snapshot.vocabulary.flags(ids[i] as number) & WORD.alias) !== 0;
}

const ALL_DIGITS = /^\d+$/;

/** A filler word or a code with digits (store numbers, references; not an Arabizi word). */
function isNoise(
  tokens: readonly string[],
  ids: readonly number[],
  i: number,
  vocabulary: Vocabulary,
): boolean {
  return (vocabulary.flags(ids[i] as number) & WORD.noise) !== 0 || isCode(tokens[i] as string);
}

interface CleanedWords {
  readonly kept: string[];
  readonly display: string[];
  /** How many place tokens were dropped. */
  readonly places: number;
  /** How many of those were city words. */
  readonly cities: number;
}

function cleanWords(words: Words, start: number, end: number, snapshot: Snapshot): CleanedWords {
  const { tokens, ids } = words;
  const vocabulary = snapshot.vocabulary;
  const placeAt = new Array<boolean>(tokens.length).fill(false);
  for (const m of snapshot.cities.searchIds(ids)) for (let i = m.start; i < m.end; i++) placeAt[i] = true;
  for (let i = 0; i < tokens.length; i++) {
    const flags = vocabulary.flags(ids[i] as number);
    if ((flags & WORD.country) !== 0) placeAt[i] = true;
    const t = tokens[i] as string;
    // `CAUS`, `NYUS`: a US state code glued to the country code.
    if (t.length === 4 && t.endsWith('us') && vocabulary.is(t.slice(0, 2), WORD.region)) placeAt[i] = true;
    if ((flags & WORD.region) !== 0 && i > 0 && placeAt[i - 1]) placeAt[i] = true;
  }
  // Trailing place words go; so do noise words, codes with digits and one-letter leftovers anywhere.
  let last = end;
  let places = 0;
  let cities = 0;
  while (last > start) {
    if (placeAt[last - 1]) {
      places++;
      if ((vocabulary.flags(ids[last - 1] as number) & WORD.country) === 0) cities++;
    } else if (!(isNoise(tokens, ids, last - 1, vocabulary) || (tokens[last - 1] as string).length === 1))
      break;
    last--;
  }
  const kept: string[] = [];
  const shown: string[] = [];
  for (let i = start; i < last; i++) {
    const t = tokens[i] as string;
    if (isNoise(tokens, ids, i, vocabulary) || (t.length === 1 && !/[\u0621-\u064a]/.test(t))) continue;
    kept.push(t);
    shown.push(displayOf(words, i));
  }
  return { kept, display: shown, places, cities };
}
