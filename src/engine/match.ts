/**
 * Finds the brand behind a transaction from the catalog's aliases: exact alias matches on token
 * boundaries first (longest and most specific wins, MCC and country break ties), then a bounded
 * fuzzy fallback. Precision over recall: an unsure match returns no brand.
 */
import type { TokenMatch } from './automaton.js';
import type { NormalizedText } from './normalize.js';
import type { AliasRef, BrandEntry, Snapshot } from './snapshot.js';
import { WORD } from './vocabulary.js';

export interface BrandMatch {
  readonly brand: BrandEntry;
  readonly confidence: number;
  /** e.g. `alias:"uber eats"@description`. */
  readonly reason: string;
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
    collect(
      candidates,
      text.merchantHits.aliases,
      'merchant_name',
      0,
      text.merchantTokens.length,
      text.merchantTokens.length,
      mcc,
      country,
    );
  }
  const all = text.hits.aliases;
  const venues = venuesIn(all);
  // Copied only from the first dropped match on; usually nothing is dropped.
  let kept: TokenMatch<AliasRef>[] | null = null;
  for (let i = 0; i < all.length; i++) {
    const m = all[i] as TokenMatch<AliasRef>;
    const drop = overlapsMask(m, text.masked) || namesAPlace(m, text, venues, snapshot);
    if (drop) kept ??= all.slice(0, i);
    else kept?.push(m);
  }
  const usable = kept ?? all;
  collect(
    candidates,
    usable,
    'description',
    text.segment[0],
    text.tokens.length,
    text.segment[1],
    mcc,
    country,
  );

  const best = pickBest(candidates);
  if (best) {
    let confidence = best.alias.weak ? 0.8 : best.alias.tokens > 1 || best.alias.chars >= 6 ? 0.95 : 0.9;
    if (best.mccAgrees) confidence = Math.min(0.99, confidence + 0.03);
    else if (mcc !== '' && best.alias.brand.mccs.size > 0) confidence -= 0.05;
    if (!best.countryAgrees) confidence -= 0.05;
    return {
      brand: best.alias.brand,
      confidence: round(confidence),
      reason: best.alias.reason[best.source],
    };
  }
  const fuzzy = fuzzyMatch(text, mcc, country, snapshot);
  if (fuzzy) return fuzzy;
  // Some intermediaries are the merchant when no one stands behind them: `APPLE.COM/BILL` alone is
  // Apple's own services, `AMZN MKTP` alone is Amazon.
  const fallback = text.intermediary?.fallback_brand;
  const brand = fallback ? snapshot.brandsBySlug.get(fallback) : undefined;
  return brand ? { brand, confidence: 0.85, reason: `intermediary:${text.intermediary?.id ?? ''}` } : null;
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

function venueStartsAt(index: number, venues: readonly TokenMatch<AliasRef>[]): boolean {
  return venues.some((v) => v.start === index);
}

function overlapsMask(m: TokenMatch<AliasRef>, masked: readonly boolean[]): boolean {
  for (let i = m.start; i < m.end; i++) if (masked[i]) return true;
  return false;
}

function collect(
  into: Candidate[],
  matches: readonly TokenMatch<AliasRef>[],
  source: Candidate['source'],
  anchor: number,
  whole: number,
  segmentEnd: number,
  mcc: string,
  country: string,
): void {
  for (const m of matches) {
    const brand = m.value.brand;
    const mccAgrees = mcc !== '' && brand.mccs.has(mcc);
    // A weak alias (an ordinary word such as NEXT or TARGET) must lead the merchant text, be all of
    // it, or be backed by the MCC.
    const whole_ = m.start === 0 && m.end === whole;
    const leads = m.start === anchor || whole_;
    if (m.value.weak && !(leads || mccAgrees)) continue;
    // Two letters (`HM`, `EE`) are too often initials or codes to trust without the MCC.
    if (m.value.chars <= 2 && !(whole_ || mccAgrees)) continue;
    // A mall or park named after the merchant is its address (`IQOS BOUTIQUE DUBAI MALL`).
    if (brand.venue && !leads) continue;
    const countryAgrees = brand.countries === null || brand.countries.has(country);
    // One word naming a local brand of another country is more likely a namesake (`JUMBO` in the
    // Netherlands is the supermarket, not the Dubai electronics chain).
    if (!countryAgrees && m.end - m.start === 1 && !mccAgrees) continue;
    into.push({
      alias: m.value,
      source,
      start: m.start,
      mccAgrees,
      countryAgrees,
      inSegment: source === 'merchant_name' || (m.start >= anchor && m.end <= segmentEnd),
    });
  }
}

/** Longest alias, then bank-supplied merchant name, product line, MCC, country, earliest. */
function pickBest(candidates: readonly Candidate[]): Candidate | null {
  let best: Candidate | null = null;
  for (const c of candidates) if (!best || compare(c, best) > 0) best = c;
  return best;
}

function compare(a: Candidate, b: Candidate): number {
  return (
    Number(!a.alias.brand.venue) - Number(!b.alias.brand.venue) ||
    // In `spent on your HDFC Bank card at ZOMATO`, the merchant is the part after `at`.
    Number(a.inSegment) - Number(b.inSegment) ||
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

const MIN_FUZZY_LENGTH = 6;
const MIN_PREFIX_LENGTH = 6;

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
  words.forEach((word, i) => {
    if (word.length < MIN_FUZZY_LENGTH || /\d/.test(word)) return;
    // A word we know (noise, place, alias, rule word) is not a typo.
    if (snapshot.vocabulary.is(word, WORD.whole)) return;
    for (const alias of snapshot.fuzzy.lookup(word))
      found.set(alias.brand.family, { alias, how: 'typo', word });
    if (i === words.length - 1 && word.length >= MIN_PREFIX_LENGTH) {
      for (const alias of snapshot.fuzzy.prefixLookup(word)) {
        if (word.length / alias.chars >= 0.6)
          found.set(alias.brand.family, { alias, how: 'truncation', word });
      }
    }
  });
  if (found.size !== 1) return null;
  const [{ alias, how, word }] = found.values() as unknown as [
    { alias: AliasRef; how: string; word: string },
  ];
  const brand = alias.brand;
  if (mcc !== '' && brand.mccs.size > 0 && !brand.mccs.has(mcc)) return null;
  if (brand.countries !== null && !brand.countries.has(country)) return null;
  return { brand, confidence: 0.7, reason: `fuzzy-${how}:"${word}"~"${alias.text}"` };
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
