/**
 * Finds the brand behind a transaction from the catalog's aliases: exact alias matches on token
 * boundaries first (longest and most specific wins, MCC and country break ties), then a bounded
 * fuzzy fallback. Precision over recall: an unsure match returns no brand.
 */
import type { TokenMatch } from './automaton.js';
import type { NormalizedText } from './normalize.js';
import {
  ANY_SELLER_RANK,
  cutNameKey,
  MIN_GLUED_NAME_LETTERS,
  wholeLastKey,
  type AliasRef,
  type BrandEntry,
  type CutName,
  type KeywordRef,
  type PatternRef,
  type Snapshot,
} from './snapshot.js';
import { CASH_WORDS, isBank } from './banks.js';
import { MIN_FUZZY_WORD } from './fuzzy.js';
import { hasDigit, isCode, tokenize } from './text.js';
import { WORD, wordHash } from './vocabulary.js';

export interface BrandMatch {
  readonly brand: BrandEntry;
  readonly confidence: number;
  /** e.g. `alias:"uber eats"@description`. */
  readonly reason: string;
  /** The alias that matched, as the catalog writes it, when an alias did (not a fuzzy or cut name). */
  readonly alias?: string;
}

interface Candidate {
  readonly alias: AliasRef;
  readonly source: 'merchant_name' | 'description';
  readonly start: number;
  readonly mccAgrees: boolean;
  readonly countryAgrees: boolean;
  /** Inside the part of the text that names the merchant (after `at` in an SMS sentence). */
  readonly inSegment: boolean;
}

export function matchBrand(
  text: NormalizedText,
  mcc: string,
  country: string,
  snapshot: Snapshot,
): BrandMatch | null {
  const candidates: Candidate[] = [];
  if (text.merchantTokens.length > 0) {
    const merchant: Source = {
      name: 'merchant_name',
      tokens: text.merchantTokens,
      ids: text.merchantIds,
      anchor: 0,
      end: text.merchantTokens.length,
      masked: NO_MASK,
      prefixed: text.intermediary !== null && !text.intermediary.smallMerchants,
      alert: false,
      rulePhrases: text.merchantHits.patterns,
    };
    const merchantVenues = venuesIn(text.merchantHits.aliases);
    const usable = text.merchantHits.aliases.filter(
      (m) =>
        !namedOtherwise(m, merchant, snapshot) &&
        !insideTradePhrase(m, merchant.tokens) &&
        !insideVenueName(m, merchantVenues),
    );
    collect(candidates, usable, merchant, text.merchantTokens.length, mcc, country, snapshot);
  }
  const all = text.hits.aliases;
  const venues = venuesIn(all);
  const description: Source = {
    name: 'description',
    tokens: text.tokens,
    ids: text.ids,
    anchor: text.segment[0],
    end: text.segment[1],
    masked: text.masked,
    prefixed: text.intermediary !== null && !text.intermediary.smallMerchants,
    alert: text.alert,
    rulePhrases: text.hits.patterns,
  };
  // Copied only from the first dropped match on; usually nothing is dropped.
  let kept: TokenMatch<AliasRef>[] | null = null;
  for (let i = 0; i < all.length; i++) {
    const m = all[i] as TokenMatch<AliasRef>;
    const drop =
      (overlapsMask(m, text.masked) && !extendsThePrefix(m, text)) ||
      namesAPlace(m, text, venues, snapshot) ||
      namedOtherwise(m, description, snapshot) ||
      insideTradePhrase(m, text.tokens) ||
      insideVenueName(m, venues);
    if (drop) kept ??= all.slice(0, i);
    else kept?.push(m);
  }
  const usable = kept ?? all;
  collect(candidates, usable, description, text.tokens.length, mcc, country, snapshot);

  const best = pickBest(candidates);
  const cut = cutNameMatch(text, mcc, country, snapshot);
  // `HOME CENTR` holds the whole word `CENTR`, another brand's name, inside the cut-off one.
  if (cut && (!best || (best.alias.brand.family !== cut.match.brand.family && inside(best, cut)))) {
    return cut.match;
  }
  // `TINKOFF <a biller>`: a bank's name beside a name the catalog does not know carried the payment
  // to it (the bank's online payments), as a gateway does; the bank's own lines name only the bank.
  // Not when those words begin the bank's own longer name, cut by the field (`TINKOFF CREDIT SYS`).
  if (
    best &&
    !best.mccAgrees &&
    isBank(best.alias.brand) &&
    cut?.match.brand.family !== best.alias.brand.family &&
    namesAnotherPayee(best.alias, text, snapshot)
  )
    return null;
  if (best) {
    let confidence = best.alias.weak ? 0.8 : best.alias.tokens > 1 || best.alias.chars >= 6 ? 0.95 : 0.9;
    if (best.mccAgrees) confidence = Math.min(0.99, confidence + 0.03);
    else if (mcc !== '' && best.alias.brand.mccs.size > 0) confidence -= 0.05;
    if (!best.countryAgrees) confidence -= 0.05;
    return {
      brand: best.alias.brand,
      confidence: round(confidence),
      reason: best.alias.reason[best.source],
      alias: best.alias.text,
    };
  }
  const dropped = droppedTailMatch(text, mcc, country, snapshot);
  if (dropped) return dropped;
  const glued = gluedMatch(text, mcc, country, snapshot);
  if (glued) return glued;
  const fuzzy = fuzzyMatch(text, mcc, country, snapshot);
  if (fuzzy) return fuzzy;
  const ticket = ticketMatch(text, snapshot);
  if (ticket) return ticket;
  // Some intermediaries are the merchant when no one stands behind them: `APPLE.COM/BILL` alone is
  // Apple's own services, `AMZN MKTP` alone is Amazon.
  const fallback = text.intermediary?.fallback_brand;
  const brand = fallback ? snapshot.brandsBySlug.get(fallback) : undefined;
  // Only where it trades: `TABBY` alone in a country without the payment service is the word.
  if (!brand || (brand.countries !== null && !brand.countries.has(country))) return null;
  // A payment network or gateway (`KNET*`, `FAWRY*`) is the merchant only when nobody is named
  // behind it: `KNET*AMERICAN SCHOOL OF KUWAIT` is the school, unknown to the catalog. A platform's
  // own billing prefix (`UBER *TRIP`, `APPLE.COM/BILL`) stays the platform.
  // A franchise operator likewise: `ALSHAYA COFFEE` is one of the cafés it runs, not the group.
  if (
    (brand.category_id === FINANCIAL || text.intermediary?.operator === true) &&
    namesSomeoneBehind(text) &&
    !spellsItsOwnName(brand, text, snapshot)
  )
    return null;
  return { brand, confidence: 0.85, reason: `intermediary:${text.intermediary?.id ?? ''}` };
}

/**
 * Merchant words remain besides the bank's own name (`TINKOFF ZHKU`). Not where a non-merchant rule
 * speaks: the bank of a fee, loan or card payment is the counterparty (`WELLS FARGO HOME MORTGAGE`).
 */
function namesAnotherPayee(alias: AliasRef, text: NormalizedText, snapshot: Snapshot): boolean {
  if (text.hits.patterns.length > 0) return false;
  const own = new Set([...tokenize(alias.text), ...CASH_WORDS, ...OWN_SERVICE_WORDS]);
  // The bank's other names in the same text are the bank again (`KFH KUWAIT FINANCE HOUSE`).
  for (const m of text.hits.aliases) {
    if (m.value.brand.family !== alias.brand.family) continue;
    for (let i = m.start; i < m.end; i++) own.add(text.tokens[i] as string);
  }
  const key = text.merchant().merchantKey;
  if (key === '') return false;
  const words = key.split(' ');
  // The last word may be the bank's city cut by the field width (`BARCLAYS BANK LOND`): no payee.
  return words.some(
    (w, i) =>
      !own.has(w) && !(i === words.length - 1 && w.length >= MIN_CUT_CITY && startsACity(w, snapshot)),
  );
}

/** Fewest letters of a city name cut by the field width that still says which city it was. */
const MIN_CUT_CITY = 4;

/** After a bank's or card issuer's name, its own services (`QI CARD SERVICES`), not another payee. */
const OWN_SERVICE_WORDS = ['services', 'service'];

/**
 * The words after the prefix only finish one of the intermediary's own names (`TABBY PAYMENTS`,
 * `TABBY PAYMENTS RIYADH`): nobody stands behind it. Codes, places and filler may follow.
 */
function spellsItsOwnName(brand: BrandEntry, text: NormalizedText, snapshot: Snapshot): boolean {
  const [start, end] = text.segment;
  return text.hits.aliases.some((m) => {
    if (m.value.brand !== brand || text.masked[m.start] !== true || m.start > start) return false;
    for (let i = m.end; i < end; i++)
      if (!isTail(text.tokens[i] as string, text.ids[i] as number, snapshot)) return false;
    return true;
  });
}

/**
 * Merchant words remain besides the rule phrases: `TABBY INSTALMENT` and `TABBY REFUND` name nobody
 * behind the payment service (the words say what kind of payment it is), `TABBY NAMSHI` does.
 */
function namesSomeoneBehind(text: NormalizedText): boolean {
  const key = text.merchant().merchantKey;
  if (key === '') return false;
  const ruleWords = new Set<string>();
  for (const p of text.hits.patterns)
    for (let i = p.start; i < p.end; i++) ruleWords.add(text.tokens[i] as string);
  return key.split(' ').some((w) => !ruleWords.has(w));
}

const NO_MATCHES: readonly TokenMatch<AliasRef>[] = [];

// Words after which a name is an address: `TOAST BOX MANULIFE CTR`, `ZARA CITY CENTRE`.
const PLACE_SUFFIXES = new Set([
  'ctr',
  'centre',
  'center',
  'mall',
  'plaza',
  'tower',
  'towers',
  'complex',
  'region',
]);

const CENTER_WORDS = new Set(['ctr', 'centre', 'center']);

/**
 * Trades whose outlets are called centres: `KUMON CENTER` is a Kumon learning centre, as a clinic,
 * a gym or a beauty centre is the brand's own; Medical, Personal Care and Education.
 */
const CENTER_TRADES = new Set(['10', '18', '19']);

/**
 * A brand's name used as (part of) a place name is not the merchant: `NORTHERN REGION` is a Saudi
 * region, not Northern Rail; `MANULIFE CTR` is a building.
 */
function namesAPlace(
  m: TokenMatch<AliasRef>,
  { tokens, ids }: NormalizedText,
  venues: readonly TokenMatch<AliasRef>[],
  snapshot: Snapshot,
): boolean {
  const next = tokens[m.end];
  // `MANULIFE CTR` is a building; `STARBUCKS MALL OF THE EMIRATES` is a shop in a known venue.
  if (next !== undefined && PLACE_SUFFIXES.has(next) && !m.value.brand.venue) {
    if (CENTER_WORDS.has(next) && CENTER_TRADES.has(m.value.brand.category_id)) return false;
    return !venueStartsAt(m.end, venues);
  }
  if (m.end - m.start > 1) return false;
  if ((snapshot.vocabulary.flags(ids[m.start] as number) & WORD.city) === 0) return false;
  return snapshot.cities
    .searchIds(ids, Math.max(0, m.start - 3), Math.min(ids.length, m.end + 3))
    .some((c) => c.end - c.start > 1 && c.start <= m.start && c.end >= m.end);
}

function venuesIn(matches: readonly TokenMatch<AliasRef>[]): readonly TokenMatch<AliasRef>[] {
  let venues: TokenMatch<AliasRef>[] | null = null;
  for (const m of matches) if (m.value.brand.venue) (venues ??= []).push(m);
  return venues ?? NO_MATCHES;
}

/**
 * A brand's name inside a longer venue name is the venue's sponsor, not the merchant: `COCA-COLA
 * ARENA` is the arena (which, as a venue, still gives way to a shop named before it), `MALL OF THE
 * EMIRATES` is no flight.
 */
function insideVenueName(m: TokenMatch<AliasRef>, venues: readonly TokenMatch<AliasRef>[]): boolean {
  if (m.value.brand.venue) return false;
  return venues.some((v) => v.start <= m.start && m.end <= v.end && v.end - v.start > m.end - m.start);
}

function venueStartsAt(index: number, venues: readonly TokenMatch<AliasRef>[]): boolean {
  return venues.some((v) => v.start === index);
}

/**
 * The intermediary's own product named with its prefix word: `GOOGLE PLAY` and `GOOGLE *GOOGLE ONE`
 * are Google's store and storage plan, not Google's payments for someone called PLAY. Another
 * brand's alias that starts with the prefix word is the prefix followed by a merchant, unless it is
 * a reviewed name that begins with the prefix's first word and the intermediary has no brand of
 * its own: `SP PLUS PARKING` is SP+, not Shopify's `SP *` before PLUS PARKING.
 */
function extendsThePrefix(m: TokenMatch<AliasRef>, text: NormalizedText): boolean {
  const family = text.intermediary?.fallback_brand;
  const masked = text.masked;
  if (!masked[m.start] || masked[m.end - 1]) return false;
  const reviewedName =
    !family && !m.value.weak && !m.value.brand.imported && (m.start === 0 || !masked[m.start - 1]);
  if (!reviewedName && (!family || m.value.brand.family !== family || m.value.brand.slug === family))
    return false;
  // The prefix's words first, then only the merchant's: a mask inside the name is a wallet's name.
  let i = m.start;
  while (masked[i]) i++;
  for (; i < m.end; i++) if (masked[i]) return false;
  return true;
}

function overlapsMask(m: TokenMatch<AliasRef>, masked: readonly boolean[]): boolean {
  for (let i = m.start; i < m.end; i++) if (masked[i]) return true;
  return false;
}

/** One of the two texts a brand is looked for in, with what the weak-alias rule needs of it. */
interface Source {
  readonly name: Candidate['source'];
  readonly tokens: readonly string[];
  readonly ids: readonly number[];
  /** Where the merchant's name starts (after a processor prefix or an SMS introducer). */
  readonly anchor: number;
  /** Where the merchant's name ends (before the date of an SMS sentence). */
  readonly end: number;
  readonly masked: readonly boolean[];
  /**
   * A processor prefix (`PAYPAL *`, `STRIPE *`) stands before the merchant's name; not one of small
   * businesses' point-of-sale processors (`SQ *`, `TST*`).
   */
  readonly prefixed: boolean;
  /** The text is a bank alert sentence (only the description can be). */
  readonly alert: boolean;
  /** Where the engine's rule phrases stand (`REFUND`, `TRANSFER TO`): words about the payment, not names. */
  readonly rulePhrases: readonly TokenMatch<PatternRef>[];
}

/** The taxonomy's Financial Services category: banks, card issuers, payment services. */
const FINANCIAL = '1';
const GOVERNMENT = '5';

const NO_MASK: readonly boolean[] = [];

function collect(
  into: Candidate[],
  matches: readonly TokenMatch<AliasRef>[],
  source: Source,
  whole: number,
  mcc: string,
  country: string,
  snapshot: Snapshot,
): void {
  const { anchor } = source;
  for (const m of matches) {
    const brand = m.value.brand;
    const mccAgrees = mcc !== '' && brand.mccs.has(mcc);
    const whole_ = m.start === 0 && m.end === whole;
    const leads = whole_ || leadsAfterPlaces(m.start, brand.category_id, source, snapshot);
    // A weak alias (an ordinary word such as NEXT, TARGET or كريم, or three letters) names the
    // brand only with a second signal (data/alias-rules.json; docs/engine.md).
    if (m.value.weak && !(mccAgrees || (leads && secondSignal(m, matches, source, country, snapshot))))
      continue;
    // An imported brand's generated alias names the merchant only where the merchant's name starts
    // (or with the MCC): inside a longer text it is more often a word of that text (`KAFE U
    // SVETOFORA`, `OPLATA USLUG MTS`), and nobody reviewed it.
    if (brand.imported && !leads && !mccAgrees) continue;
    // Two letters (`HM`, `EE`) are too often initials or codes to trust without the MCC, unless
    // they are the whole name or start it, in one of the brand's countries.
    if (
      m.value.chars <= 2 &&
      !(whole_ || mccAgrees || twoLettersName(m, matches, source, whole, country, snapshot))
    )
      continue;
    // A mall or park named after the merchant is its address (`IQOS BOUTIQUE DUBAI MALL`).
    if (brand.venue && !leads) continue;
    // One word followed by another trade's word names a namesake: `OMEGA RESTAURANT` is a
    // restaurant called Omega, not the watchmaker. So does an ordinary (weak) name of any length
    // followed closely by one: `AL MAHA FLOWERS`, `LINCOLN FAMILY DENTAL`.
    if ((m.end - m.start === 1 || m.value.weak) && !mccAgrees && namesAnotherTrade(m, source, snapshot))
      continue;
    const inSegment = source.name === 'merchant_name' || (m.start >= anchor && m.end <= source.end);
    // In a bank alert, a bank or other financial brand outside the merchant's part of the sentence
    // is the channel that sends it (`Your Emirates NBD card ... at AL FARES TRADING`), never the
    // merchant.
    if (source.alert && !inSegment && brand.category_id === FINANCIAL) continue;
    const countryAgrees = brand.countries === null || brand.countries.has(country);
    // An imported brand names the merchant only in its own countries (or with the MCC): nobody
    // reviewed its aliases, and elsewhere the same words are more often a local namesake's.
    if (brand.imported && !countryAgrees && !mccAgrees) continue;
    // A government body is a country's own: `MINISTRY OF INTERIOR` in Kuwait is Kuwait's ministry,
    // not the Saudi one whose name the catalog spells so.
    if (brand.category_id === GOVERNMENT && !countryAgrees && !mccAgrees) continue;
    // One word naming a local brand of another country is more likely a namesake (`JUMBO` in the
    // Netherlands is the supermarket, not the Dubai electronics chain). An international chain's
    // distinctive name is the chain wherever the card was used (`STARBUCKS` in Kazakhstan, whose
    // country list the catalog may not have caught up with; its ordinary-word names are weak).
    // So is a local brand's name that is also a trade phrase (`RENT A CAR` in Dubai is any car
    // rental, not the French company), or that is made of ordinary words (a weak alias: `DAR AL
    // SHIFA`, house of healing, names clinics and pharmacies across the region).
    if (
      !countryAgrees &&
      (m.end - m.start === 1 || m.value.tradePhrase || m.value.weak) &&
      !mccAgrees &&
      !isInternational(brand) &&
      !isRegional(brand, country, snapshot)
    )
      continue;
    into.push({
      alias: m.value,
      source: source.name,
      start: m.start,
      mccAgrees,
      countryAgrees,
      inSegment,
    });
  }
}

/**
 * Two letters starting the merchant's name in one of the brand's countries are the brand when what
 * follows says where it stands (`A1 MINSK BY`, `HM DUBAI MALL`) or, for a curated brand, names its
 * trade (`WE INTERNET RECHARGE`, `DU MOBILE`); before any other word they are initials of another name.
 */
function twoLettersName(
  m: TokenMatch<AliasRef>,
  matches: readonly TokenMatch<AliasRef>[],
  source: Source,
  whole: number,
  country: string,
  snapshot: Snapshot,
): boolean {
  const brand = m.value.brand;
  if (m.start !== source.anchor || !tradesIn(brand, country)) return false;
  return (
    onlyPlacesAfter(m.end, whole, source, country, snapshot) ||
    matches.some((o) => o.value.brand.venue && o.start === m.end) ||
    (!brand.imported && namesTheTrade(m, source, snapshot))
  );
}

/** Chains in this many countries or more trade across continents. */
const INTERNATIONAL_COUNTRIES = 10;

function isInternational(brand: BrandEntry): boolean {
  return brand.countries === null || brand.countries.size >= INTERNATIONAL_COUNTRIES;
}

/**
 * A chain in two or more of the account's neighbours (data/locations.json `markets`) is no stranger
 * there: Gulf, Maghreb and CIS chains cross borders before the catalog's country lists catch up.
 */
const REGIONAL_COUNTRIES = 2;

function isRegional(brand: BrandEntry, country: string, snapshot: Snapshot): boolean {
  const neighbours = snapshot.neighbours.get(country);
  if (!neighbours || brand.countries === null) return false;
  let n = 0;
  for (const c of brand.countries) if (neighbours.has(c) && ++n >= REGIONAL_COUNTRIES) return true;
  return false;
}

/** The brand lists the account's country among its own. */
function tradesIn(brand: BrandEntry, country: string): boolean {
  return brand.countries !== null && brand.countries.has(country);
}

/**
 * Nothing but city, region and country words from `from` to the end of the merchant's words, the
 * account's own country code among them.
 */
function onlyPlacesAfter(
  from: number,
  end: number,
  { tokens, ids }: Source,
  country: string,
  snapshot: Snapshot,
): boolean {
  if (from >= end) return false;
  for (let i = from; i < end; i++) {
    const place = (snapshot.vocabulary.flags(ids[i] as number) & PLACE) !== 0;
    if (!place && !isHomeCode(tokens[i] as string, country)) return false;
  }
  return true;
}

/**
 * The account's own country code: a place word even where it is also an ordinary word, which the
 * vocabulary does not flag as a country (`MTS BY` on a Belarusian card, `A1 AT` on an Austrian one).
 */
function isHomeCode(token: string, country: string): boolean {
  return token.length === 2 && token === country.toLowerCase();
}

const PLACE = WORD.city | WORD.country | WORD.region;

/**
 * The match starts the merchant's name, or only place, filler and rule words stand before it: many
 * banks print the country and city first (`RUS MOSCOW <name>`, `KAZ ALMATY <name>`), and those say
 * where the merchant is, not who; a refund's words (`VOZVRAT`, `REFUND`) say what happened; and the
 * brand's own trade named before its name says what it is (`ОПЛАТА МОБИЛЬНОЙ СВЯЗИ MTS`,
 * `SUPERMARKET SPAR`).
 */
function leadsAfterPlaces(
  start: number,
  category: string,
  { tokens, ids, anchor, rulePhrases }: Source,
  snapshot: Snapshot,
): boolean {
  if (start < anchor) return false;
  let trade: readonly TokenMatch<KeywordRef>[] | null = null;
  for (let i = anchor; i < start; i++) {
    if ((snapshot.vocabulary.flags(ids[i] as number) & FILLER) !== 0) continue;
    // An amount, time or code says nothing about who (`VOZVRAT POKUPKI 500R MAGNIT`).
    if (isCode(tokens[i] as string)) continue;
    // `VOZVRAT ROZETKA`, `REFUND NEXT`: a refund's words say what happened, not who. Not other rule
    // words: after `TRANSFER TO` or `EMI` stands a person or a lender (`EMI BAJAJ FINANCE`).
    if (inRefundPhrase(i, rulePhrases)) continue;
    trade ??= snapshot.keywords.searchIds(ids, anchor, start);
    if (!inTradeOf(i, category, trade)) return false;
  }
  return true;
}

function inTradeOf(i: number, category: string, keywords: readonly TokenMatch<KeywordRef>[]): boolean {
  for (const k of keywords) {
    const sub = k.value.sub_category_id;
    if (k.start <= i && i < k.end && sub.slice(0, sub.indexOf('-')) === category) return true;
  }
  return false;
}

function inRefundPhrase(i: number, phrases: readonly TokenMatch<PatternRef>[]): boolean {
  for (const p of phrases) if (p.value.kind === 'refund' && p.start <= i && i < p.end) return true;
  return false;
}

/**
 * What besides the word itself says a weak alias leading the merchant's name is the brand: another
 * alias of the same brand in the text; else, when the word does not start a longer name (`KAREEM
 * KARAK CAFETERIA`, `IZ *THE COFFEE CART`), a processor prefix before it, a category word of the
 * brand's trade (`HILTON RIYADH HOTEL`) or the account's country among the brand's (`NEXT 0412
 * LONDON` in Britain). A worldwide brand's country says nothing.
 */
function secondSignal(
  m: TokenMatch<AliasRef>,
  matches: readonly TokenMatch<AliasRef>[],
  source: Source,
  country: string,
  snapshot: Snapshot,
): boolean {
  const brand = m.value.brand;
  for (const o of matches) {
    if (o !== m && o.value.brand.family === brand.family && (o.end <= m.start || o.start >= m.end))
      return true;
  }
  if (startsALongerName(m, matches, source, country, snapshot)) return false;
  // Cheapest first: the keyword scan allocates.
  return (
    source.prefixed ||
    tradesIn(brand, country) ||
    namesTheTrade(m, source, snapshot) ||
    (brand.countries === null &&
      PREMISES_CATEGORIES.has(brand.category_id) &&
      onlyPlacesAfter(m.end, source.tokens.length, source, country, snapshot))
  );
}

/**
 * Trades paid at their premises (food, groceries, medical, shopping, transport and fuel, travel and
 * hotels, personal care): a worldwide chain's ordinary-word name with only the place after it is
 * the chain's outlet there (`SHELL OMAN`, `HILTON RIYADH`); a digital service's (`MAKE`, `TIME`)
 * is printed without a place.
 */
const PREMISES_CATEGORIES = new Set(['4', '6', '10', '13', '16', '17', '18']);

/**
 * Shop-front trades whose word after a name names the shop (food, groceries, household, medical,
 * shopping, personal care); `TICKETS`, `GAS` or `MOBILE` after a name are as often what it sells.
 */
const SHOP_FRONT_CATEGORIES = new Set(['4', '6', '7', '10', '13', '18']);
const GROCERIES = '6';
const DEPARTMENT_STORES = '13-10';

/**
 * A category keyword of another shop-front trade (of any other trade, after a weak alias) right
 * after the one-word match (`OMEGA RESTAURANT`, `NAKHEEL CAFETERIA`, `CARROLL ELECTRIC`), unless the
 * brand has a line of business in that trade or is a grocer or department store. After a weak alias
 * the trade word may also come a word or two later: an ordinary name is as often the first words of
 * a shop's name (`LINCOLN FAMILY DENTAL`).
 */
function namesAnotherTrade(
  m: TokenMatch<AliasRef>,
  { ids, tokens, end, masked }: Source,
  snapshot: Snapshot,
): boolean {
  const i = m.end;
  const weak = m.value.weak;
  const stop = Math.min(end > i ? end : tokens.length, i + 3);
  if (i >= stop || masked[i] === true) return false;
  if (!weak && (snapshot.vocabulary.flags(ids[i] as number) & WORD.term) === 0) return false;
  const brand = m.value.brand;
  // Grocers and department stores have departments of other shop-front trades (`CARREFOUR PHARMACY`).
  const departments = brand.category_id === GROCERIES || brand.sub_category_id === DEPARTMENT_STORES;
  for (const k of snapshot.keywords.searchIds(ids, i, stop)) {
    if (k.start !== i && !weak) continue;
    if (masked[k.start] === true) continue;
    // Words any seller uses (`store`, `trading`) name no other trade.
    if (k.value.rank === ANY_SELLER_RANK) continue;
    const sub = k.value.sub_category_id;
    const category = sub.slice(0, sub.indexOf('-'));
    if (category === brand.category_id) continue;
    // A weak alias is an ordinary word: any other trade's word after it (`CARROLL ELECTRIC`, `TARGET
    // INSURANCE`) names a namesake. A distinctive name is taken over words of other kinds of payees
    // (`UBER TRIP`, `NETFLIX SUBSCRIPTION`), only not over another shop front's.
    if (SHOP_FRONT_CATEGORIES.has(category) ? departments : !weak) continue;
    if (brand.lines.some((l) => l.sub_category_id.slice(0, l.sub_category_id.indexOf('-')) === category))
      continue;
    return true;
  }
  return false;
}

/** A keyword of the brand's category beside the match in the merchant's text: `HOTEL` for a hotel chain. */
function namesTheTrade(m: TokenMatch<AliasRef>, { ids, anchor, end }: Source, snapshot: Snapshot): boolean {
  const category = m.value.brand.category_id;
  return snapshot.keywords
    .searchIds(ids, anchor, end)
    .some(
      (k) =>
        (k.end <= m.start || k.start >= m.end) &&
        k.value.sub_category_id.slice(0, k.value.sub_category_id.indexOf('-')) === category,
    );
}

const FILLER = WORD.noise | PLACE;

/**
 * The word after the match is a name word (an unknown word, an ordinary word, another brand's word):
 * the match is only the first word of another name (`KING FAHD HOSPITAL`, `MATCH POINT`). Codes,
 * places, filler and the engine's own rule and category words (`REMITTANCE`, `HOTEL`) are not.
 */
function startsALongerName(
  m: TokenMatch<AliasRef>,
  matches: readonly TokenMatch<AliasRef>[],
  { tokens, ids, end, masked }: Source,
  country: string,
  snapshot: Snapshot,
): boolean {
  const i = m.end;
  if (i >= end || masked[i] === true) return false;
  const t = tokens[i] as string;
  // Any digit, Arabizi too: after a brand a word like `3ARABIA` is more often a branch than a longer name.
  if (t.length === 1 || hasDigit(t) || isHomeCode(t, country)) return false;
  const flags = snapshot.vocabulary.flags(ids[i] as number);
  if ((flags & (FILLER | WORD.term)) !== 0) return false;
  // The brand's own longer name (`VOX CINEMAS`) or a venue (the address) may follow.
  const family = m.value.brand.family;
  return !matches.some(
    (o) => o.start <= i && o.end > i && (o.value.brand.family === family || o.value.brand.venue),
  );
}

/**
 * The alias is part of another name: an institution's name right after another name word (`ARAB
 * GULF BANK` is not Gulf Bank), or a local brand's name right before a country it does not trade in
 * (`AL SALAM BANK ALGERIA` is not the Bahraini bank).
 */
function namedOtherwise(m: TokenMatch<AliasRef>, source: Source, snapshot: Snapshot): boolean {
  const vocabulary = snapshot.vocabulary;
  if (m.value.institution && m.start > source.anchor && source.masked[m.start - 1] !== true) {
    const before = m.start - 1;
    const t = source.tokens[before] as string;
    // Place words count as name words here: `ARAB` (of United Arab Emirates) in `ARAB GULF BANK`.
    const noise = (vocabulary.flags(source.ids[before] as number) & WORD.noise) !== 0;
    if (t.length > 1 && !isCode(t) && !noise && !snapshot.notNameWords.has(t)) return true;
  }
  const countries = m.value.brand.countries;
  if (countries !== null && m.end < source.tokens.length) {
    if ((vocabulary.flags(source.ids[m.end] as number) & WORD.country) === 0) return false;
    const named = snapshot.countryNames.searchIds(
      source.ids,
      m.end,
      Math.min(source.tokens.length, m.end + 3),
    );
    return named.some((c) => c.start === m.end && !countries.has(c.value));
  }
  return false;
}

/**
 * The alias's words are part of a longer trade phrase here: `AUTO BODY SHOP` is a car repairer, not
 * The Body Shop; ايس كريم is ice cream, not Careem.
 */
function insideTradePhrase(m: TokenMatch<AliasRef>, tokens: readonly string[]): boolean {
  for (const p of m.value.enclosing) {
    const from = m.start - p.before.length;
    if (from < 0 || m.end + p.after.length > tokens.length) continue;
    if (p.before.every((t, k) => tokens[from + k] === t) && p.after.every((t, k) => tokens[m.end + k] === t))
      return true;
  }
  return false;
}

/** The best of the candidates by `compare`; docs/engine.md step 2 says the order in words. */
function pickBest(candidates: readonly Candidate[]): Candidate | null {
  let best: Candidate | null = null;
  for (const c of candidates) if (!best || compare(c, best) > 0) best = c;
  return best;
}

/** A telecom's sub-category: its bill carries other services' subscriptions. */
const TELECOM = '12-1';
/** Gaming, music and video streaming: the services a phone bill carries. */
const CARRIED = new Set(['3-3', '3-4', '3-6']);

/** `ETISALAT STARZPLAY`: the telecom bills a streaming service's subscription (carrier billing). */
function carriedBy(a: BrandEntry, b: BrandEntry): boolean {
  return CARRIED.has(a.sub_category_id) && b.sub_category_id === TELECOM;
}

function compare(a: Candidate, b: Candidate): number {
  return (
    Number(!a.alias.brand.venue) - Number(!b.alias.brand.venue) ||
    // In `spent on your HDFC Bank card at ZOMATO`, the merchant is the part after `at`.
    Number(a.inSegment) - Number(b.inSegment) ||
    Number(carriedBy(a.alias.brand, b.alias.brand)) - Number(carriedBy(b.alias.brand, a.alias.brand)) ||
    firstOfTwo(a, b) ||
    a.alias.tokens - b.alias.tokens ||
    Number(a.countryAgrees) - Number(b.countryAgrees) ||
    Number(a.mccAgrees) - Number(b.mccAgrees) ||
    Number(!a.alias.weak) - Number(!b.alias.weak) ||
    Number(a.source === 'merchant_name') - Number(b.source === 'merchant_name') ||
    // The merchant's own name comes first; partners, landlords and places follow it.
    b.start - a.start ||
    Number(a.alias.brand.parent_id !== null) - Number(b.alias.brand.parent_id !== null) ||
    a.alias.chars - b.alias.chars
  );
}

/**
 * Of two strong names side by side (neither inside the other), the first: the merchant's own name
 * comes first and a place or partner follows it (`EMARAT HILTON GARDEN INN` is a fuel station by the
 * hotel, `TALABAT BURGER KING` the delivery app's order), however long the later name is. Not when
 * the MCC or the country speaks for one of them, and not for a bank or payment service, which
 * before a shop's name is the channel (`ADCB LULU HYPERMARKET`).
 */
function firstOfTwo(a: Candidate, b: Candidate): number {
  if (a.source !== b.source || a.alias.weak || b.alias.weak) return 0;
  if (a.mccAgrees !== b.mccAgrees || a.countryAgrees !== b.countryAgrees) return 0;
  if (a.alias.brand.category_id === FINANCIAL || b.alias.brand.category_id === FINANCIAL) return 0;
  if (endOf(a) <= b.start) return 1;
  if (endOf(b) <= a.start) return -1;
  return 0;
}

/** The index just past a candidate's last word. */
const endOf = (c: Candidate): number => c.start + c.alias.tokens;

const MIN_PREFIX_LENGTH = MIN_FUZZY_WORD;
const LATIN_WORD = /^[a-z]+$/;

/**
 * One typo in a long word, or a name cut off at the end of a fixed-width field. Accepted only when
 * exactly one brand family fits, the word is long enough, and nothing contradicts it.
 */
function fuzzyMatch(
  text: NormalizedText,
  mcc: string,
  country: string,
  snapshot: Snapshot,
): BrandMatch | null {
  const words = text.merchantTokens.length > 0 ? text.merchantTokens : text.tokens.slice(...text.segment);
  const found = new Map<string, { alias: AliasRef; how: string; word: string }>();
  // A brand that cannot be here (another country, another trade's MCC) is no rival: `CARREFO` in
  // the Emirates is Carrefour, though Turkey's CarrefourSA begins the same.
  const fits = (brand: BrandEntry): boolean =>
    (mcc === '' || brand.mccs.size === 0 || brand.mccs.has(mcc)) &&
    (brand.countries === null || brand.countries.has(country));
  words.forEach((word, i) => {
    if (word.length < MIN_FUZZY_WORD || !LATIN_WORD.test(word)) return;
    // A word we know (noise, place, alias, rule word) or an ordinary word is not a typo: `CAREER`
    // is not `CAREEM`.
    if (snapshot.vocabulary.is(word, WORD.whole) || snapshot.ordinaryWords.has(word)) return;
    // Nor is the start of a trade word cut by the field width: `LAUNDR` is not `LANDR`.
    if (snapshot.keywordPrefixes.beginsALonger(word)) return;
    for (const alias of snapshot.fuzzy.lookup(word)) {
      // A slip at the first letter is rare; an edit there finds a brand inside another word
      // (`BASICS` holds `ASICS`).
      if (alias.text.length > 0 && (tokenize(alias.text)[0] as string)[0] !== word[0]) continue;
      if (!fits(alias.brand)) continue;
      found.set(alias.brand.family, { alias, how: 'typo', word });
    }
    // A city cut by the field width (`APTEKA ZHIVIKA RU EKATERINB`) is no cut brand name, though
    // a utility is named after it (Ekaterinburggaz).
    if (i === words.length - 1 && word.length >= MIN_PREFIX_LENGTH && !startsACity(word, snapshot)) {
      for (const alias of snapshot.fuzzy.prefixLookup(word)) {
        if (truncationShare(word, alias.chars) >= 0.6 && fits(alias.brand))
          found.set(alias.brand.family, { alias, how: 'truncation', word });
      }
    }
  });
  if (found.size !== 1) return null;
  const [{ alias, how, word }] = found.values() as unknown as [
    { alias: AliasRef; how: string; word: string },
  ];
  const brand = alias.brand;
  return { brand, confidence: 0.7, reason: `fuzzy-${how}:"${word}"~"${alias.text}"` };
}

function startsACity(word: string, snapshot: Snapshot): boolean {
  return snapshot.cityPrefixes.longerThan(word).length > 0;
}

/**
 * How much of a name a cut-off word keeps. The Arabic article glued to a name in Latin letters
 * (`ALMAJD`, `ELNOUR`) is not part of what identifies it: `ALMAJD`, a word of its own, keeps four of
 * `ALMAJDOUIE`'s eight letters, not six of ten.
 */
function truncationShare(word: string, nameChars: number): number {
  const article = ARTICLE.test(word) ? 2 : 0;
  return (word.length - article) / (nameChars - article);
}

const ARTICLE = /^(al|el)/;

/** Fewest letters left of a cut-off last word: `BURGER K` could be many names. */
const MIN_CUT_LETTERS = 2;

interface CutMatch {
  readonly match: BrandMatch;
  readonly source: Candidate['source'];
  readonly start: number;
  readonly end: number;
}

function inside(c: Candidate, cut: CutMatch): boolean {
  // Strictly: a whole name over the same words (`OMAN AIR`) is not a cut-off longer one (`OMAN AIRPORTS`).
  const end = endOf(c);
  return (
    c.source === cut.source && c.start >= cut.start && end <= cut.end && end - c.start < cut.end - cut.start
  );
}

/**
 * A name of two words or more whose last word the bank's fixed-width field cut off: `BURGER KIN`,
 * `DUBAI DUTY FRE`, `HOME CENTR`, or dropped when it was one or two letters (`CHICK FIL`). Only at
 * the end of the merchant's name, where the cut falls (codes, places and filler after it are what the
 * bank printed in the next fields); the words before the cut must be the name's own, whole; the cut
 * word keeps at least two letters, three unless it is half the word; and only one brand may fit.
 */
function cutNameMatch(
  text: NormalizedText,
  mcc: string,
  country: string,
  snapshot: Snapshot,
): CutMatch | null {
  const fromMerchant = text.merchantTokens.length > 0;
  const tokens = fromMerchant ? text.merchantTokens : text.tokens;
  const ids = fromMerchant ? text.merchantIds : text.ids;
  const from = fromMerchant ? 0 : text.segment[0];
  let j = (fromMerchant ? tokens.length : text.segment[1]) - 1;
  while (j > from && isTail(tokens[j] as string, ids[j] as number, snapshot)) j--;
  if (j <= from) return null;
  const partial = tokens[j] as string;
  // The last word cut (`BURGER KIN`): names by the word before it and the cut word's beginning.
  const before = ids[j - 1] as number;
  const last = ids[j] as number;
  const cut =
    partial.length >= MIN_CUT_LETTERS &&
    snapshot.cutNameKeys.has(cutNameKey(before, partial)) &&
    !(last >= 0 && before >= 0 && snapshot.wholeLastWords.has(wholeLastKey(before, last)))
      ? snapshot.cutNames.get(before)?.longerThan(partial)
      : undefined;
  // The last word dropped, one or two letters (`CHICK FIL A`): names by their word before it.
  const short = snapshot.shortLastNames.get(ids[j] as number);
  if ((cut === undefined || cut.length === 0) && short === undefined) return null;
  let found: { alias: AliasRef; start: number; end: number } | null = null;
  const consider = (alias: AliasRef, start: number, end: number): boolean => {
    if (found && found.alias.brand.family !== alias.brand.family) return false;
    found ??= { alias, start, end };
    return true;
  };
  for (const c of cut ?? []) {
    if (partial.length < 3 && partial.length * 2 < c.last.length) continue;
    // An inner cut says less (the name's later words are gone): most of the word must be there,
    // and enough of the name to be no one else's (`MATAHARI DEPARTMEN`, not `AK BA`).
    if (
      c.inner &&
      (partial.length * 3 < c.last.length * 2 || letters(c.head) + partial.length < INNER_CUT_LETTERS)
    )
      continue;
    if (!headAt(tokens, j - c.head.length, from, c.head)) continue;
    if (!consider(c.alias, j - c.head.length, j + 1)) return null;
  }
  for (const c of short ?? []) {
    if (!headAt(tokens, j + 1 - c.head.length, from, c.head)) continue;
    if (!consider(c.alias, j + 1 - c.head.length, j + 1)) return null;
  }
  if (!found) return null;
  const { alias, start, end } = found as { alias: AliasRef; start: number; end: number };
  const brand = alias.brand;
  if (mcc !== '' && brand.mccs.size > 0 && !brand.mccs.has(mcc)) return null;
  if (brand.countries !== null && !brand.countries.has(country)) return null;
  const shown = tokens.slice(start, end).join(' ');
  return {
    match: { brand, confidence: 0.75, reason: `cut-name:"${shown}"~"${alias.text}"` },
    source: fromMerchant ? 'merchant_name' : 'description',
    start,
    end,
  };
}

/**
 * A long curated name whose last words the field width dropped whole (`ABU DHABI COMMERCIAL` of
 * `ABU DHABI COMMERCIAL BANK`): the description ends with the name's first words, the last of them
 * a long one, enough letters to be no one else's, and the names that begin so are one family's.
 */
function droppedTailMatch(
  text: NormalizedText,
  mcc: string,
  country: string,
  snapshot: Snapshot,
): BrandMatch | null {
  const { tokens, ids } = text;
  const from = text.segment[0];
  // After the cut name only what the bank's later fields print (a place, a code); the bank's
  // merchant-name field is read apart.
  if (text.merchantTokens.length > 0) return null;
  let j = text.segment[1] - 1;
  while (j > from && isTail(tokens[j] as string, ids[j] as number, snapshot)) j--;
  if (j - 1 < from) return null;
  const word = tokens[j] as string;
  const before = ids[j - 1] as number;
  if (before < 0 || word.length < 2 || !snapshot.cutNameKeys.has(cutNameKey(before, word))) return null;
  let found: CutName | null = null;
  for (const c of snapshot.cutNames.get(before)?.exactly(word) ?? []) {
    if (!c.inner || letters(c.head) + word.length < INNER_CUT_LETTERS) continue;
    if (!headAt(tokens, j - c.head.length, from, c.head)) continue;
    if (found && found.alias.brand.family !== c.alias.brand.family) return null;
    found ??= c;
  }
  if (!found) return null;
  const { alias, head } = found;
  const brand = alias.brand;
  // The words are a whole name of the family's too, which the alias rules set aside here (a mall
  // after a trade is the shop's address: `FOOD COURT RIYADH GALLERY`).
  const start = j - head.length;
  if (
    text.hits.aliases.some(
      (m) => m.start === start && m.end === j + 1 && m.value.brand.family === brand.family,
    )
  )
    return null;
  if (mcc !== '' && brand.mccs.size > 0 && !brand.mccs.has(mcc)) return null;
  if (brand.countries !== null && !brand.countries.has(country)) return null;
  return {
    brand,
    confidence: 0.75,
    reason: `cut-name:"${[...head, word].join(' ')}"~"${alias.text}"`,
  };
}

/** Fewest letters of an inner cut's words before the cut and of the cut word together. */
const INNER_CUT_LETTERS = 12;

function letters(words: readonly string[]): number {
  let n = 0;
  for (const w of words) n += w.length;
  return n;
}

function headAt(tokens: readonly string[], at: number, from: number, head: readonly string[]): boolean {
  if (at < from) return false;
  for (let k = 0; k < head.length; k++) if (tokens[at + k] !== head[k]) return false;
  return true;
}

/** Printed after the merchant's name: a code or number, a place, a filler word, a lone letter. */
function isTail(token: string, id: number, snapshot: Snapshot): boolean {
  return token.length === 1 || (snapshot.vocabulary.flags(id) & FILLER) !== 0 || isCode(token);
}

const TICKET_NUMBER = /^\d{13}$/;

/**
 * A curated name of several words glued into one by the bank's field (`KKSUPERMART`): a word the
 * engine does not know, spelling exactly one brand family's name, where that brand may be (its
 * countries, its MCCs).
 */
function gluedMatch(
  text: NormalizedText,
  mcc: string,
  country: string,
  snapshot: Snapshot,
): BrandMatch | null {
  if (snapshot.gluedNames.size === 0) return null;
  const fromMerchant = text.merchantTokens.length > 0;
  const tokens = fromMerchant ? text.merchantTokens : text.tokens;
  const ids = fromMerchant ? text.merchantIds : text.ids;
  const [from, to] = fromMerchant ? [0, tokens.length] : text.segment;
  let found: { alias: AliasRef; word: string } | null = null;
  for (let i = from; i < to; i++) {
    const word = tokens[i] as string;
    if ((ids[i] as number) >= 0 || word.length < MIN_GLUED_NAME_LETTERS) continue;
    const alias = snapshot.gluedNames.get(word) ?? gluedBeforePlace(word, snapshot);
    if (!alias) continue;
    const brand = alias.brand;
    if (mcc !== '' && brand.mccs.size > 0 && !brand.mccs.has(mcc)) continue;
    if (brand.countries !== null && !brand.countries.has(country)) continue;
    if (found && found.alias.brand.family !== brand.family) return null;
    found ??= { alias, word };
  }
  if (!found) return null;
  return {
    brand: found.alias.brand,
    confidence: 0.8,
    reason: `glued-name:"${found.word}"~"${found.alias.text}"`,
  };
}

/** A glued name with the city or country glued after it (`KKSUPERMARTDUBAI`). */
function gluedBeforePlace(word: string, snapshot: Snapshot): AliasRef | null | undefined {
  if (!LATIN_WORD.test(word)) return undefined;
  const vocabulary = snapshot.vocabulary;
  // The place is a known word, so no longer than the longest one: a long token costs no more.
  const first = Math.max(MIN_GLUED_NAME_LETTERS, word.length - vocabulary.maxWordLength);
  for (let k = word.length - 2; k >= first; k--) {
    const place = vocabulary.idAt(word, k, word.length, wordHash(word, k, word.length));
    if ((vocabulary.flags(place) & PLACE) === 0) continue;
    const alias = snapshot.gluedNames.get(word.slice(0, k));
    if (alias !== undefined) return alias;
  }
  return undefined;
}

/**
 * An airline's ticket number (its three-digit accounting code and ten digits) after the first word
 * of its name: `UNITED 0169091841258`, `AMERICAN 0012345678901`, or the name in the bank's merchant
 * name field and the number in the description. Statements print it for every ticket sold, and the
 * pair tells the airline from the ordinary word its name starts with.
 */
function ticketMatch(text: NormalizedText, snapshot: Snapshot): BrandMatch | null {
  if (snapshot.ticketAirlines.size === 0) return null;
  return (
    ticketIn(text.merchantTokens, 0, text.merchantTokens.length, [], snapshot) ??
    ticketIn(text.tokens, text.segment[0], text.segment[1], text.merchantTokens, snapshot)
  );
}

function ticketIn(
  tokens: readonly string[],
  from: number,
  to: number,
  named: readonly string[],
  snapshot: Snapshot,
): BrandMatch | null {
  for (let i = from; i < to; i++) {
    const t = tokens[i] as string;
    if (!TICKET_NUMBER.test(t)) continue;
    const airline = snapshot.ticketAirlines.get(t.slice(0, 3));
    if (!airline) continue;
    if (named.includes(airline.nameWord) || nameWordBefore(tokens, airline.nameWord, from, i)) {
      return {
        brand: airline.brand,
        confidence: 0.9,
        reason: `ticket-number:${t.slice(0, 3)}+"${airline.nameWord}"`,
      };
    }
  }
  return null;
}

function nameWordBefore(tokens: readonly string[], word: string, from: number, to: number): boolean {
  const at = tokens.indexOf(word, from);
  return at !== -1 && at < to;
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
