/**
 * Turns name-suggestion-index items that trade in MENA or CIS countries into catalog brands: payment-
 * relevant tags only (data/osm-tags.json gives the sub-category; a tag it leaves null is not a
 * merchant), names in English and, where the index has it, Arabic (official), aliases spelt as
 * statements print them and checked by the alias rules. The curated catalog wins every conflict:
 * an item it already has (same Wikidata id, or its name is a curated alias) is not imported, and an
 * alias a curated brand owns in the same countries is dropped.
 */
import { z } from 'zod';
import type { Brand, OsmTagMap } from '../../src/data/schemas.js';
import { loadWordLists, weakness } from '../word-lists.js';
import type { NsiIndex, NsiItem } from './index-data.js';
import { toDisplayCase } from '../../src/engine/text.js';
import { genericWords, tradeKeywords } from './generic-words.js';
import { folded } from './link.js';
import { osmLabel } from './osm-label.js';

/** The product's home markets (issue 14; ../shared/eval/README.md). */
export const MENA = ['AE', 'SA', 'KW', 'QA', 'BH', 'OM', 'EG', 'JO', 'LB', 'IQ', 'MA', 'TN', 'DZ'] as const;

/**
 * Russia, Ukraine, Belarus, Kazakhstan, Uzbekistan and Kyrgyzstan: their banks' SMS alerts reach the
 * product too (issue 13), and the curated catalog has almost no local chains there.
 */
export const CIS = ['RU', 'UA', 'BY', 'KZ', 'UZ', 'KG'] as const;

/** The countries whose local brands the import takes. */
export const IMPORTED_REGIONS: readonly string[] = [...MENA, ...CIS];

/**
 * The world import (data/brands/nsi-world.json): the card markets the product's cardholders spend
 * in most, chosen on general grounds (the largest card markets of the Anglosphere and Western Europe,
 * Turkey and South Asia, where Gulf residents travel and send money from), the rest of Europe (the
 * Nordics, Central and Eastern Europe, the Balkans and the Baltics: Europe is one travel market and
 * its chains cross borders), and the CIS countries whose banks the MENA import leaves out (the
 * Caucasus). Brands whose location set is the whole
 * world (`001`) or a continent (expanded to its countries) come with it.
 */
export const WORLD = [
  'GB',
  'US',
  'CA',
  'AU',
  'NZ',
  'IE',
  'FR',
  'DE',
  'ES',
  'IT',
  'NL',
  'BE',
  'CH',
  'AT',
  'TR',
  'IN',
  'PK',
  'AZ',
  'GE',
  'AM',
  'PT',
  'LU',
  'DK',
  'SE',
  'NO',
  'FI',
  'IS',
  'PL',
  'CZ',
  'SK',
  'HU',
  'RO',
  'BG',
  'GR',
  'CY',
  'MT',
  'SI',
  'HR',
  'RS',
  'BA',
  'ME',
  'MK',
  'AL',
  'XK',
  'EE',
  'LV',
  'LT',
  'MD',
] as const;

/** Where imported brand ids start; ids already given stay with their item. */
export const FIRST_IMPORTED_ID = 1_000_001;

/** Where the world import's ids start: its own range, so neither file's ids move the other's. */
export const FIRST_WORLD_ID = 2_000_001;

/**
 * Tags the OSM map leaves null because the non-merchant rules decide such rows (banks), but whose
 * brands the catalog keeps as counterparties: they take the sub-category the curated catalog gives
 * the same tag's brands (decided in `importBrands`, never a number written here).
 */
const COUNTERPARTY_TAGS = new Set(['amenity=bank']);

/**
 * Venues are addresses in a shop's descriptor as much as merchants; the curated catalog marks
 * them (`venue`) and the import cannot tell a mall's own charges from its shops'.
 */
const VENUE_TAGS = new Set(['shop=mall']);

/**
 * One Wikidata item often has several index items (a grocer's DIY arm, a bank's recycling points):
 * only the first is imported, so a brand's main card trade goes first.
 */
const MAIN_TRADES = [
  'amenity=bank',
  'shop=supermarket',
  'shop=convenience',
  'amenity=fuel',
  'amenity=pharmacy',
  'amenity=fast_food',
  'amenity=cafe',
  'amenity=restaurant',
  'shop=department_store',
];

function mainTradeRank(tag: string): number {
  const i = MAIN_TRADES.indexOf(tag);
  // Then any shop before other kinds of places: a chain's recycling points or charge points are not
  // where its customers pay (Goodwill's thrift stores, not its donation bins).
  return i >= 0 ? i : MAIN_TRADES.length + (tag.startsWith('shop=') ? 0 : 1);
}

export interface ImportedBrand extends Brand {
  readonly nsi_id: string;
}

export interface ImportReport {
  readonly brands: ImportedBrand[];
  readonly skipped: Record<string, number>;
}

interface Options {
  readonly osmTags: Readonly<Record<string, string | null>>;
  /** data/osm-tags.json `refinements`: a secondary tag that names another trade of the category. */
  readonly osmRefinements?: OsmTagMap['refinements'];
  /** Line ids (data/business-lines.json) that the brands of an OSM tag carry besides their main trade. */
  readonly lineTags?: ReadonlyMap<string, readonly string[]>;
  readonly curated: readonly Brand[];
  /** Wikidata ids the curated catalog has (its own or linked). */
  readonly curatedWikidata: ReadonlySet<string>;
  /** Ids from the previous import, by index item id: an item keeps its id across updates. */
  readonly previousIds: ReadonlyMap<string, number>;
  /** The countries whose brands are taken (default: MENA and CIS). */
  readonly regions?: readonly string[];
  /** Also take items whose location set is the whole world (`001`): their countries become `*`. */
  readonly worldwide?: boolean;
  /** The first id given to a new item (default FIRST_IMPORTED_ID). */
  readonly firstId?: number;
  /** Index items another import already took: never imported twice. */
  readonly excluded?: ReadonlySet<string>;
  /**
   * The world import's notability bar: brand items with a Wikidata id only (operators are mostly
   * public bodies and utilities), and no brand named by one ordinary word (`Lids`, `Spar`-like names
   * of a trade or a thing): such a name alone is as often the word as the chain.
   */
  readonly notable?: boolean;
}

const LATIN = /^[\p{Script=Latin}\p{N}\p{P}\p{Zs}&+'’.-]+$/u;
const ARABIC = /[\u0600-\u06ff]/;
const CYRILLIC = /^[\p{Script=Cyrillic}\p{N}\p{P}\p{Zs}&+'’.-]+$/u;

/** The item's English name: `brand:en`, a Latin `brand`, `brand:fr`, else the Wikidata label. */
function englishName(item: NsiItem, label: string | null): string | null {
  const t = item.tags;
  for (const candidate of [t['brand:en'], t['name:en'], t.brand, t['brand:fr'], label, t.name]) {
    if (candidate && LATIN.test(candidate.trim())) return candidate.trim();
  }
  // `Marjane مرجان`: the Latin part of a name written in two scripts.
  const latin = (t.brand ?? item.displayName)
    .split(/\s+/)
    .filter((w) => !ARABIC.test(w))
    .join(' ')
    .trim();
  if (latin && LATIN.test(latin)) return latin;
  // `Пятёрочка`: a name only in Cyrillic, in the Latin letters processors print it in (`Pyaterochka`).
  const cyrillic = (t.brand ?? t.name ?? item.displayName).trim();
  return CYRILLIC.test(cyrillic) && /\p{L}/u.test(cyrillic)
    ? toDisplayCase(folded(cyrillic).split(' '))
    : null;
}

function arabicName(item: NsiItem): string | null {
  const t = item.tags;
  for (const candidate of [t['brand:ar'], t['name:ar'], t['operator:ar']]) {
    // `CNAS الصندوق الوطني…`: only the Arabic words are the Arabic name.
    const arabic = candidate
      ?.split(/\s+/)
      .filter((w) => ARABIC.test(w))
      .join(' ');
    if (arabic) return arabic;
  }
  return null;
}

export function slugify(name: string): string {
  return (
    folded(name)
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'brand'
  );
}

/**
 * How statements print a name: upper case as written, with `&` spelt out and dropped, without
 * spaces for names of two or three words (fixed-width fields glue them), and the index's other
 * names.
 */
export function statementSpellings(name: string, others: readonly string[]): string[] {
  const upper = name.toUpperCase();
  const out = [upper, upper.replace(/&/g, 'AND'), upper.replace(/\s*&\s*/g, ' ')];
  const words = folded(name).split(' ');
  if (words.length >= 2 && words.length <= 3 && words.join('').length >= 6)
    out.push(words.join('').toUpperCase());
  out.push(...others.map((o) => (ARABIC.test(o) ? o : o.toUpperCase())));
  const seen = new Set<string>();
  return out.filter((a) => {
    const key = folded(a);
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Words a cut name does not end on: `FRYS FOOD AND` is `FRYS FOOD`, `BAKKER VAN` is nothing. */
const HEAD_STOPS = new Set(
  ['and', 'of', 'the', 'n', 'by', 'at', 'for', 'de', 'la', 'le', 'les', 'des', 'du', 'et', 'y', 'van'].concat(
    ['von', 'der', 'den', 'di', 'da', 'del', 'al', 'el'],
  ),
);
/** A head shorter than this (`AB CD`) is too little text to name one chain. */
const MIN_HEAD_LETTERS = 8;

/**
 * A possessive chain name of three words or more without the words that only describe its trade,
 * as merchants register it and statements print it: `FRYS FOOD` (Fry's Food and Drug), `LEES
 * FAMOUS RECIPE` (Lee's Famous Recipe Chicken), `MOES SOUTHWEST` (Moe's Southwest Grill). The head
 * keeps two or three words, one of them the owner's name (`Fry's`); a name without one (`Indian
 * Coffee House`, `The Halal Guys`) is cut to words anyone's shop could have. `describes` tells a trade
 * or ordinary word. Folded.
 */
export function nameHeads(name: string, describes: (word: string) => boolean): string[] {
  const raw = name.split(/\s+/).filter((w) => w !== '');
  const words = folded(name)
    .split(' ')
    .filter((w) => w !== '');
  if (raw.length !== words.length) return [];
  const heads: string[] = [];
  for (let n = 2; n <= 3 && n < words.length; n++) {
    const head = words.slice(0, n);
    // The owner is a person or a made-up name: `Children's Learning`, `St Margaret's Hospice` are
    // names anyone's shop could have.
    const owner = raw.slice(0, n).findIndex((w) => POSSESSIVE.test(w));
    if (
      owner < 0 ||
      SAINTS.has(words[0] as string) ||
      GENERIC_OWNERS.has((words[owner] as string).slice(0, -1))
    )
      continue;
    if (HEAD_STOPS.has(head[n - 1] as string) || !words.slice(n).every(describes)) continue;
    if (head.join('').length >= MIN_HEAD_LETTERS) heads.push(head.join(' '));
  }
  return heads;
}
const POSSESSIVE = /\p{L}['’]s$/iu;
const SAINTS = new Set(['st', 'saint', 'san', 'santa', 'sainte']);
const GENERIC_OWNERS = new Set(
  ['children', 'kid', 'men', 'women', 'ladie', 'people', 'mother', 'father', 'grandma', 'grandpa'].concat([
    'mom',
    'dad',
    'farmer',
    'veteran',
    'nature',
    'world',
    'america',
    'customer',
    'baker',
  ]),
);

export function importBrands(index: NsiIndex, options: Options): ImportReport {
  const lists = loadWordLists();
  const osmMap = { tags: options.osmTags, refinements: options.osmRefinements ?? {} };
  const generic = genericWords();
  const trades = tradeKeywords();
  const skipped: Record<string, number> = {};
  const skip = (why: string): void => {
    skipped[why] = (skipped[why] ?? 0) + 1;
  };

  // Curated aliases by folded form, with their brands' countries: the curated catalog owns them.
  // Their brands' categories too, for telling a sub-brand from a namesake in another trade.
  const curatedAliases = new Map<string, string[][]>();
  const curatedCategories = new Map<string, Set<string>>();
  for (const b of options.curated) {
    for (const a of [
      b.name,
      ...b.aliases,
      ...b.weak_aliases,
      ...(b.product_lines ?? []).flatMap((l) => [l.name, ...l.aliases]),
    ]) {
      const key = folded(a);
      curatedAliases.set(key, [...(curatedAliases.get(key) ?? []), b.countries]);
      const categories = curatedCategories.get(key) ?? new Set<string>();
      categories.add(categoryOf(b.sub_category_id));
      curatedCategories.set(key, categories);
    }
  }
  const curatedWords = [...curatedAliases.keys()].filter((k) => !k.includes(' ') && k.length >= 5);
  // Within two edits for long names (one for shorter): a typo of the curated name would
  // otherwise be one edit from both.
  const nearCurated = (key: string): boolean => {
    if (key.includes(' ')) return false;
    const edits = key.length >= 8 ? 2 : 1;
    return curatedWords.some((w) => Math.abs(w.length - key.length) <= edits && withinEdits(w, key, edits));
  };
  const taken = (key: string, countries: readonly string[], owners: Map<string, string[][]>): boolean =>
    (owners.get(key) ?? []).some((cs) => tradeTogether(cs, countries));

  const counterparty = curatedCounterparties(index, options);
  const regions = new Set<string>(options.regions ?? IMPORTED_REGIONS);
  const excluded = options.excluded ?? new Set<string>();
  const imported: ImportedBrand[] = [];
  const importedAliases = new Map<string, string[][]>();
  const slugs = new Set(
    options.curated.flatMap((b) => [b.slug, ...(b.product_lines ?? []).map((l) => l.slug)]),
  );
  const seenWikidata = new Set<string>();
  let nextId = Math.max((options.firstId ?? FIRST_IMPORTED_ID) - 1, ...options.previousIds.values()) + 1;

  const candidates = [...index.items]
    .filter((i) => !excluded.has(i.id))
    .filter((i) => i.countries.some((c) => regions.has(c)) || (options.worldwide === true && i.worldwide))
    .filter((i) => !options.notable || (i.kind === 'brands' && i.wikidata !== null))
    .sort((a, b) => mainTradeRank(a.tag) - mainTradeRank(b.tag) || a.id.localeCompare(b.id));
  // An item's own name belongs to it (to its Wikidata brand when it has one: items of one brand
  // share their names): another item that lists it among its other names (a chain's pharmacy arm
  // naming the chain) must not take it just by coming first.
  const ownNames = new Map<string, Set<string>>();
  for (const item of candidates) {
    for (const n of [item.tags.brand, item.tags['brand:en'], item.tags.name, item.displayName]) {
      if (!n) continue;
      const key = folded(n);
      ownNames.set(key, (ownNames.get(key) ?? new Set()).add(item.wikidata ?? item.id));
    }
  }
  const describes = (w: string): boolean =>
    HEAD_STOPS.has(w) || lists.english.has(w) || generic.has(w) || trades.has(w);
  // A head two chains' names share (`Sun Valley …`) names neither.
  const headOwners = new Map<string, Set<string>>();
  for (const item of candidates) {
    for (const n of new Set([item.tags.brand, item.tags.name, item.displayName])) {
      if (!n) continue;
      for (const head of nameHeads(n, describes)) {
        headOwners.set(head, (headOwners.get(head) ?? new Set()).add(item.wikidata ?? item.id));
      }
    }
  }
  const someoneElses = (key: string, item: NsiItem): boolean => {
    const owners = ownNames.get(key);
    return owners !== undefined && !owners.has(item.wikidata ?? item.id);
  };
  const queue = [...candidates];
  const deferred = new Set<NsiItem>();
  // `queue` grows while it is walked: items named by one ordinary word come again at its end.
  for (const item of queue) {
    if (VENUE_TAGS.has(item.tag)) {
      skip('venue tag (mall)');
      continue;
    }
    const sub = osmLabel(osmMap, item.tag, item.tags);
    const asCurated = COUNTERPARTY_TAGS.has(item.tag) ? counterparty.get(item.tag) : undefined;
    const subCategory = sub ?? asCurated?.sub;
    if (sub === undefined && !COUNTERPARTY_TAGS.has(item.tag)) {
      skip('tag not in the OSM map');
      continue;
    }
    if (!subCategory) {
      skip('not a merchant (tag maps to null)');
      continue;
    }

    if (item.wikidata && (options.curatedWikidata.has(item.wikidata) || seenWikidata.has(item.wikidata))) {
      skip(
        options.curatedWikidata.has(item.wikidata)
          ? 'in the curated catalog (Wikidata id)'
          : 'duplicate Wikidata id',
      );
      continue;
    }
    const facts = item.wikidata ? index.wikidata(item.wikidata) : null;
    const name = englishName(item, facts?.label ?? null);
    if (!name) {
      skip('no Latin-script name');
      continue;
    }
    const countries = item.worldwide && options.worldwide ? ['*'] : item.countries;
    if (trades.has(folded(name))) {
      skip('named by a trade word');
      continue;
    }
    // The world import: a chain named by one ordinary word (`Hudson`, `Krystal`, `Reece`) comes in with
    // that name as a weak alias only: the engine then takes it only with a second signal (its MCC, a
    // processor prefix, its trade's word beside it, or the name leading the text in a country the
    // chain trades in). Not when no such signal could be trusted: worldwide (no country speaks for
    // it), two letters (`VA`, `WE`, `OK`: a state, a pronoun, a code), or one of the most common
    // words (`International`, `Express`, `Home` lead too many other texts).
    const ordinaryName = options.notable === true && oneOrdinaryWord(name, lists, generic);
    if (
      ordinaryName &&
      (countries.includes('*') ||
        folded(name).replace(/[^\p{L}]/gu, '').length < 3 ||
        lists.mostCommonEnglish.has(folded(name)))
    ) {
      skip('named by one ordinary word');
      continue;
    }
    // Last, after every other item: such a name takes no alias from a chain with a distinctive name.
    if (ordinaryName && !deferred.has(item)) {
      deferred.add(item);
      queue.push(item);
      continue;
    }
    // The world import: `Adidas Originals` is a curated brand's sub-brand: the curated brand names
    // it, and the longer alias would take its statements. A name in another trade is a namesake
    // (`Mega Image`, Romanian supermarkets, is no part of `MEGA`, cloud storage).
    if (
      options.notable &&
      subBrandOf(folded(name), curatedAliases, countries, (key) =>
        (curatedCategories.get(key) ?? new Set()).has(categoryOf(subCategory)),
      )
    ) {
      skip("a curated brand's sub-brand");
      continue;
    }
    if (taken(folded(name), countries, curatedAliases)) {
      skip('in the curated catalog (name)');
      continue;
    }
    const ar = arabicName(item);
    const others = [
      ...item.matchNames,
      ...Object.entries(item.tags)
        .filter(([k]) => /^(brand|name)(:(en|fr))?$/.test(k))
        .map(([, v]) => v),
      ...(ar ? [ar] : []),
    ].filter((n) => !(ARABIC.test(n) && /[A-Za-z]/.test(n)));
    // The item's own names as statements spell them (glued too): the rest are the index's match names.
    const ownKeys = new Set(
      statementSpellings(
        name,
        Object.entries(item.tags)
          .filter(([k]) => /^(brand|name)(:|$)/.test(k))
          .map(([, v]) => v),
      ).map(folded),
    );
    const aliases: string[] = [];
    const weak: string[] = [];
    const nameWords = folded(name).split(' ');
    const gluedName = nameWords.length >= 2 ? nameWords.join('') : null;
    const nameOrdinary = nameWords.every((t) => lists.english.has(t) || generic.has(t));
    // A cut name is an alias only when it is this chain's alone, is no other item's whole name, and
    // holds a word that is not ordinary (`AMERICAN FAMILY` would name any such shop).
    const heads = nameHeads(name, describes)
      .filter((h) => headOwners.get(h)?.size === 1 && !ownNames.has(h))
      .filter((h) => !h.split(' ').every((t) => describes(t) || lists.givenNames.has(t)))
      .map((h) => h.toUpperCase());
    for (const alias of [...statementSpellings(name, others), ...heads]) {
      const key = folded(alias);
      if (taken(key, countries, curatedAliases) || taken(key, countries, importedAliases)) continue;
      if (someoneElses(key, item) || trades.has(key)) continue;
      // A match name a letter or two from a curated brand's (`СТАРБАКС` among a successor's names) is
      // that brand's former or parent name: it would make that brand's typos ambiguous.
      if (!ownKeys.has(key) && nearCurated(key)) continue;
      // A name made only of ordinary words (`The Coffee`, `Магнит`) is as weak as one ordinary word.
      const ordinary =
        generic.has(key) || key.split(' ').every((t) => lists.english.has(t) || generic.has(t));
      const why = weakness(alias, lists);
      // The world import: a name of ordinary words glued as fixed-width fields print it (`DIRTCHEAP`)
      // is as weak as the words.
      const gluedOrdinary = options.notable === true && key === gluedName && nameOrdinary;
      // A chain named by one ordinary word: its name, weak (above).
      if (ordinaryName && key === folded(name)) {
        weak.push(alias);
        continue;
      }
      // The world import takes no alias of one ordinary word the name is not (`KARMA` for Karma
      // Automotive): the word leading a statement (`CREDIT KARMA`) is more often someone else's.
      if (
        options.notable &&
        !key.includes(' ') &&
        (ordinary || (why && why !== 'short') || (key.length > 3 && oneOrdinaryWord(alias, lists, generic)))
      )
        continue;
      (ordinary || gluedOrdinary || (why && why !== 'short') ? weak : aliases).push(alias);
    }
    if (aliases.length + weak.length === 0) {
      skip('every alias owned by another brand');
      continue;
    }

    // A worldwide brand's country is no second signal: one named only by ordinary words (`Coffee
    // Time`) would claim any shop of its trade so named.
    if (options.notable && countries.includes('*') && aliases.length === 0) {
      skip('worldwide, ordinary words only');
      continue;
    }
    // The name matches as an alias too (`name_alias`): it must not be another imported brand's.
    const nameKey = folded(name);
    if (
      !aliases.concat(weak).some((a) => folded(a) === nameKey) &&
      (taken(nameKey, countries, importedAliases) || someoneElses(nameKey, item))
    ) {
      skip('name owned by another brand');
      continue;
    }
    let slug = slugify(name);
    if (slugs.has(slug))
      slug = `${slug}-${countries.includes('*') ? 'world' : countries.slice(0, 2).join('-').toLowerCase()}`;
    for (let n = 2; slugs.has(slug); n++) slug = `${slugify(name)}-${n}`;
    slugs.add(slug);
    for (const a of [...aliases, ...weak, name]) {
      const key = folded(a);
      importedAliases.set(key, [...(importedAliases.get(key) ?? []), [...countries]]);
    }
    if (item.wikidata) seenWikidata.add(item.wikidata);
    const id = options.previousIds.get(item.id) ?? nextId++;
    imported.push({
      id,
      slug,
      name,
      ...(ar ? { name_ar: ar, name_ar_source: 'official' as const } : {}),
      ...(facts?.website && catalogUrl(facts.website) ? { website: catalogUrl(facts.website) } : {}),
      logo: `brands/${slug}.png`,
      sub_category_id: subCategory,
      aliases: [...aliases, ...weak],
      weak_aliases: weak,
      subscription: false,
      name_alias: true,
      // A bank's MCCs are what tells the engine it is one (its name and a place: its cash machine).
      mccs: sub ? [] : [...(asCurated?.mccs ?? [])],
      countries: [...countries],
      venue: false,
      lines: [...(options.lineTags?.get(item.tag) ?? [])],
      ...(item.wikidata ? { wikidata_id: item.wikidata } : {}),
      ...(facts?.logoFile ? { logo_source: facts.logoFile } : {}),
      nsi_id: item.id,
    } as ImportedBrand);
  }
  imported.sort((a, b) => a.id - b.id);
  return { brands: imported, skipped };
}

/**
 * For tags the OSM map leaves null but whose brands the catalog keeps (banks): the sub-category
 * most curated brands of that tag have, found through their Wikidata ids, and the MCCs at least
 * half of them carry.
 */
function curatedCounterparties(
  index: NsiIndex,
  options: Options,
): Map<string, { sub: string; mccs: string[] }> {
  // One brand has items under several tags (a bank's branches and its ATMs).
  const tagsOf = new Map<string, Set<string>>();
  for (const i of index.items) {
    if (i.wikidata) tagsOf.set(i.wikidata, (tagsOf.get(i.wikidata) ?? new Set()).add(i.tag));
  }
  const votes = new Map<string, Map<string, number>>();
  const mccVotes = new Map<string, Map<string, number>>();
  const count = (into: Map<string, Map<string, number>>, tag: string, value: string): void => {
    const counts = into.get(tag) ?? new Map<string, number>();
    counts.set(value, (counts.get(value) ?? 0) + 1);
    into.set(tag, counts);
  };
  for (const b of options.curated) {
    for (const tag of (b.wikidata_id ? tagsOf.get(b.wikidata_id) : undefined) ?? []) {
      if (!COUNTERPARTY_TAGS.has(tag)) continue;
      count(votes, tag, b.sub_category_id);
      for (const mcc of b.mccs ?? []) count(mccVotes, tag, mcc);
    }
  }
  const out = new Map<string, { sub: string; mccs: string[] }>();
  for (const [tag, counts] of votes) {
    const [best] = [...counts].sort((a, b) => b[1] - a[1]);
    const brands = [...counts.values()].reduce((a, b) => a + b, 0);
    const mccs = [...(mccVotes.get(tag) ?? [])]
      .filter(([, n]) => n * 2 >= brands)
      .map(([mcc]) => mcc)
      .sort();
    if (best) out.set(tag, { sub: best[0], mccs });
  }
  return out;
}

/**
 * The website as the catalog's schema takes it: a host in Unicode (`https://rüedu.ch/`) in its
 * ASCII form, an unparsable one dropped.
 */
export function catalogUrl(website: string): string | null {
  if (z.url().safeParse(website).success) return website;
  try {
    const href = new URL(website).href;
    return z.url().safeParse(href).success ? href : null;
  } catch {
    return null;
  }
}

/** Two country lists share a market; a worldwide brand (`*`) meets every other, wherever it trades. */
function tradeTogether(a: readonly string[], b: readonly string[]): boolean {
  return a.includes('*') || b.includes('*') || b.some((c) => a.includes(c));
}

/** A sub-category's category: `13` of `13-4`. */
function categoryOf(subCategoryId: string): string {
  return subCategoryId.split('-')[0] as string;
}

/**
 * Whether a name of several words starts with a whole curated alias of four letters or more, of a
 * brand that trades where the item does and (`sameTrade`) in the same category.
 */
export function subBrandOf(
  key: string,
  curatedAliases: ReadonlyMap<string, readonly (readonly string[])[]>,
  countries: readonly string[] = ['*'],
  sameTrade: (prefix: string) => boolean = () => true,
): boolean {
  const words = key.split(' ');
  for (let k = 1; k < words.length; k++) {
    const prefix = words.slice(0, k).join(' ');
    if (prefix.replace(/ /g, '').length < 4 || !sameTrade(prefix)) continue;
    // Only a brand that trades where the item does: Rolf Benz (German furniture) is not a sub-brand
    // of Rolf (Russian car dealers).
    if ((curatedAliases.get(prefix) ?? []).some((cs) => tradeTogether(cs, countries))) return true;
  }
  return false;
}

/**
 * A name of one token that is a common English word, a given name, an ordinary Russian word or a
 * generic word of the repository (or the possessive or plural of one), or of three letters or
 * fewer: alone on a statement it is as often the word (or initials) as the brand.
 */
export function oneOrdinaryWord(
  name: string,
  lists: { english: ReadonlySet<string>; givenNames: ReadonlySet<string> },
  generic: ReadonlySet<string>,
): boolean {
  const key = folded(name);
  if (key.includes(' ')) return false;
  const word = (w: string): boolean => lists.english.has(w) || lists.givenNames.has(w) || generic.has(w);
  // `Freddy's`, `LEE’S` (folded `freddys`, `lees`): a given name's or a word's possessive is as
  // ordinary as the word (`Coles`, without the apostrophe, is a name).
  const possessive = /\p{L}['’]s$/iu.test(name.trim()) && word(key.slice(0, -1));
  return key.length <= 3 || word(key) || possessive;
}

/** Levenshtein distance at most `edits` (early exit when a row exceeds it). */
function withinEdits(a: string, b: string, edits: number): boolean {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(
        (prev[j] as number) + 1,
        (cur[j - 1] as number) + 1,
        (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > edits) return false;
    prev = cur;
  }
  return (prev[b.length] as number) <= edits;
}
