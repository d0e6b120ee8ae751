/**
 * The brand snapshot: every index the engine needs, built once from the reference data plus learned
 * mappings, then never mutated. A new catalog or a correction means a new snapshot.
 */
import type { Brand, ProductLine, ReferenceData, RuleKind } from '../data/schemas.js';
import { alertWords, type AlertWords } from './alerts.js';
import { TokenAutomaton } from './automaton.js';
import { FuzzyIndex, MIN_FUZZY_WORD } from './fuzzy.js';
import { PrefixIndex } from './prefix-index.js';
import { MerchantModel } from './merchant-model.js';
import { cyrillicSpellings, tokenize } from './text.js';
import type { BrandRef, LearnedMapping, NamedRef } from './types.js';
import { ENGINE_VERSION } from './version.js';
import { Vocabulary, WORD, type WordFilter } from './vocabulary.js';

export interface BrandEntry extends BrandRef {
  readonly slug: string;
  readonly sub_category_id: string;
  /** The category part of `sub_category_id` (`"5"` of `"5-2"`). */
  readonly category_id: string;
  readonly subscription: boolean;
  readonly mccs: ReadonlySet<string>;
  /** null means worldwide. */
  readonly countries: ReadonlySet<string> | null;
  /** Set for product lines: the brand they belong to. */
  readonly parent_id: number | null;
  readonly venue: boolean;
  /** The brand's other lines of business (a product line has none of its own). */
  readonly lines: readonly BusinessLineRef[];
  /**
   * Imported from name-suggestion-index (`nsi_id`), not curated: its aliases were generated, not
   * reviewed, so the engine asks more of them (docs/engine.md, alias safety).
   */
  readonly imported: boolean;
  /**
   * Strings every transaction of the brand carries, made once here rather than per transaction: its
   * merchant key for history (`brand:<id>`), the category reason (`brand:<slug>`) and the recurring
   * reason of a subscription brand.
   */
  readonly merchant_key: string;
  readonly category_reason: string;
  readonly subscription_reason: string;
}

/** A line of business a brand carries (data/business-lines.json; chosen in lines.ts). */
export interface BusinessLineRef {
  readonly id: string;
  readonly sub_category_id: string;
  readonly mccs: ReadonlySet<string>;
}

export interface AliasRef {
  readonly type: 'alias';
  readonly brand: BrandEntry;
  readonly text: string;
  readonly weak: boolean;
  /**
   * The alias ends with an institution word (`Gulf Bank`): preceded by another name word it is part
   * of a longer institution's name (`ARAB GULF BANK`).
   */
  readonly institution: boolean;
  /**
   * The alias of two words or more is also a trade phrase of rules.json (`RENT A CAR`, `POST
   * OFFICE`): outside the brand's countries it names the trade, not the brand.
   */
  readonly tradePhrase: boolean;
  /**
   * The longer trade phrases of rules.json the alias is a part of, as the words before and after it
   * (`BODY SHOP` in `AUTO BODY SHOP`, كريم in ايس كريم): inside one, the words name the trade.
   * Empty for nearly every alias.
   */
  readonly enclosing: readonly EnclosingPhrase[];
  readonly tokens: number;
  readonly chars: number;
  /** The explanation of a match, made once here rather than per transaction. */
  readonly reason: { readonly description: string; readonly merchant_name: string };
}

/** A trade phrase around an alias: the words it has before the alias's words and after them. */
export interface EnclosingPhrase {
  readonly before: readonly string[];
  readonly after: readonly string[];
}

const NO_ENCLOSING: readonly EnclosingPhrase[] = Object.freeze([]);

/**
 * Every shorter run of words inside a trade phrase of two words or more, with the words around it:
 * the phrases an alias of those words may stand in.
 */
function enclosingPhrases(phrases: readonly (readonly string[])[]): Map<string, EnclosingPhrase[]> {
  const byInner = new Map<string, EnclosingPhrase[]>();
  for (const tokens of phrases) {
    for (let i = 0; i < tokens.length; i++) {
      for (let j = i + 1; j <= tokens.length; j++) {
        if (j - i === tokens.length) continue;
        const inner = tokens.slice(i, j).join(' ');
        const list = byInner.get(inner) ?? [];
        list.push({ before: tokens.slice(0, i), after: tokens.slice(j) });
        byInner.set(inner, list);
      }
    }
  }
  return byInner;
}

/** Fewest letters of a cut-off keyword: `PHARM` is the start of one trade, `PHAR` of too many words. */
export const MIN_CUT_KEYWORD = 5;

/**
 * The word before a cut name's last word (its id) and a hash of that word's first two letters, as
 * one small integer (a double key would be boxed and hashed slowly on every text). Collisions only
 * send a text on to the prefix index, which decides.
 */
export function cutNameKey(beforeId: number, last: string): number {
  return ((beforeId << 10) | ((last.charCodeAt(0) * 31 + last.charCodeAt(1)) & 1023)) & 0x3fffffff;
}

/** The pair of word ids (the word before the last, the last) as one number; both ids are known words. */
export function wholeLastKey(beforeId: number, lastId: number): number {
  return beforeId * 0x200000 + lastId;
}

/** Fewest letters of a word an inner cut may fall in: shorter words are cut too rarely to be worth it. */
const INNER_CUT_WORD = 6;

/** A multi-word alias split into the words a cut-off text must hold whole and its last word. */
export interface CutName {
  readonly head: readonly string[];
  readonly last: string;
  readonly alias: AliasRef;
  /**
   * The cut falls inside an earlier word and the words after it are gone (`MATAHARI DEPARTMEN` of
   * `MATAHARI DEPARTMENT STORE`): `last` is that word, not the name's last.
   */
  readonly inner: boolean;
}

export interface PatternRef {
  readonly type: 'pattern';
  readonly kind: RuleKind;
  readonly phrase: string;
  readonly tokens: number;
  readonly direction: 'DEBIT' | 'CREDIT' | null;
}

export interface KeywordRef {
  readonly sub_category_id: string;
  readonly word: string;
  readonly tokens: number;
  /**
   * How readily the word names the trade, 0 first: a trade word, then a modifier (a cuisine, a word
   * of several trades: `trade_modifiers` in rules.json), then a word any seller uses (`store`,
   * `trading`).
   */
  readonly rank: number;
  /** A place that houses other trades (`venues` in rules.json): `HOTEL`, `HOSPITAL`, `MUSEUM`. */
  readonly venue: boolean;
  /** A trade a venue houses (`venues.tenant_trades`): beside a venue's word it names the merchant. */
  readonly tenant: boolean;
}

/** The rank of a word any seller uses (`any_seller` in rules.json). */
export const ANY_SELLER_RANK = 2;

export interface IntermediaryRef {
  readonly type: 'intermediary';
  readonly id: string;
  readonly name: string;
  readonly fallback_brand: string | null;
  /** Wallets (Apple Pay, mada Pay) are named anywhere in a text and are never the merchant. */
  readonly anywhere: boolean;
  /** A processor of independent small businesses (data/intermediaries.json `small_merchants`). */
  readonly smallMerchants: boolean;
  /** A franchise operator: the merchant is one of the brands it runs (`operator` kind). */
  readonly operator: boolean;
}

/** One entry of the combined lexicon: every alias, rule phrase and intermediary prefix. */
export type LexiconEntry = AliasRef | PatternRef | IntermediaryRef;

export interface SubCategoryInfo {
  readonly category: NamedRef;
  readonly sub_category: NamedRef;
}

export interface Snapshot {
  readonly catalogVersion: string;
  readonly engineVersion: string;
  readonly brandsById: ReadonlyMap<number, BrandEntry>;
  readonly brandsBySlug: ReadonlyMap<string, BrandEntry>;
  /** How many alias patterns the lexicon holds (catalog aliases after folding and de-duplication). */
  readonly aliasPatternCount: number;
  readonly fuzzy: FuzzyIndex<AliasRef>;
  /**
   * Curated strong aliases of two words or more, for a name whose last word the bank's fixed-width
   * field cut off (`BURGER KIN`): by the vocabulary id of the word before the last, then by the
   * last word's beginnings.
   */
  readonly cutNames: ReadonlyMap<number, PrefixIndex<CutName>>;
  /** `cutNameKey` of every cut name: most texts' last two words begin none, and asking is cheap. */
  readonly cutNameKeys: ReadonlySet<number>;
  /**
   * `wholeLastKey`s of names' last words that begin no longer last word after the same word: a text
   * ending in a whole name (`BURGER KING`) asks here and skips the prefix search.
   */
  readonly wholeLastWords: ReadonlySet<number>;
  /** The same names whose last word is one or two letters (`chick fil a`), by the word before it. */
  readonly shortLastNames: ReadonlyMap<number, readonly CutName[]>;
  /**
   * Curated strong names of two words or more written as one word (`kksupermart`), as a fixed-width
   * field glues them; null where two brand families glue to the same letters.
   */
  readonly gluedNames: ReadonlyMap<string, AliasRef | null>;
  readonly keywords: TokenAutomaton<KeywordRef>;
  /**
   * One-word keywords longer than MIN_CUT_KEYWORD letters, by their beginnings: the last word of a
   * merchant's name cut by the field width (`PHARMAC`, `TRADIN`) is read as the keyword it starts.
   */
  readonly keywordPrefixes: PrefixIndex<KeywordRef>;
  /** One-word city names, to know a city the field width cut (`EKATERINB`) from a cut brand name. */
  readonly cityPrefixes: PrefixIndex<string>;
  /**
   * Aliases, rule phrases and intermediary prefixes in one automaton, so each text is scanned once
   * for all three.
   */
  readonly lexicon: TokenAutomaton<LexiconEntry>;
  readonly cities: TokenAutomaton<string>;
  /** Country names (English and Arabic) → ISO code, for transfers to or from another country. */
  readonly countryNames: TokenAutomaton<string>;
  /**
   * Every word of the automata, plus noise, country, city and region words, with its kind: each
   * token of a text is looked up here once.
   */
  readonly vocabulary: Vocabulary;
  readonly mcc: ReadonlyMap<string, string>;
  readonly taxonomy: ReadonlyMap<string, SubCategoryInfo>;
  /** `${tenant}\u0000${merchant_id}` → mapping; tenant `*` is global. */
  readonly learnedByMerchantId: ReadonlyMap<string, LearnedMapping>;
  /** `${tenant}\u0000${merchant_key}` → mapping. */
  readonly learnedByMerchantKey: ReadonlyMap<string, LearnedMapping>;
  /**
   * Brand and place words, the first part a glued token may split into (`CAREEMDUBAI`): a filter
   * by hash, so most beginnings of an unknown token are ruled out without a table lookup.
   */
  readonly splitLefts: WordFilter;
  /** How card alerts word the merchant (data/alerts.json), folded. */
  readonly alertWords: AlertWords;
  /** The merchant-type model, for merchants no brand, rule or MCC decides; null without one. */
  readonly model: MerchantModel | null;
  /** Words that may stand right before an institution's name without being part of it (`to`, `لدى`). */
  readonly notNameWords: ReadonlySet<string>;
  /**
   * Ordinary words and given names (data/words.json), never read as a misspelt brand nor split into
   * two names. A set apart from the vocabulary: only the rare fuzzy and split paths ask it, and
   * 34,000 more words in the vocabulary would slow every token's lookup.
   */
  readonly ordinaryWords: ReadonlySet<string>;
  /** The same words by their beginnings, for the words a cut word begins. */
  readonly ordinaryWordPrefixes: PrefixIndex<string>;
  /** A sole proprietor's legal form, folded (`ip`, `fop`): what follows is its owner's name. */
  readonly soleProprietorForms: ReadonlySet<string>;
  /** Latin-script given names and surnames (data/person-names.json): a person's name is no trade. */
  readonly personNames: { readonly given: ReadonlySet<string>; readonly surnames: ReadonlySet<string> };
  /** Words that name a line of business (`fuel`, `محطة`, `duty free`), valued by line id. */
  readonly lineWords: TokenAutomaton<string>;
  /**
   * Airlines by the first three digits of their ticket numbers (`176` Emirates), with the first
   * word of their name as statements print it (`united`), which must stand before the number.
   */
  readonly ticketAirlines: ReadonlyMap<string, { readonly brand: BrandEntry; readonly nameWord: string }>;
  /** Each country's neighbours in its market (data/locations.json `markets`); absent when it has none. */
  readonly neighbours: ReadonlyMap<string, ReadonlySet<string>>;
}

// Arabic letters: the fuzzy matcher reads Latin script only (see buildSnapshot).
const ARABIC = /[\u0600-\u06ff]/;

export function learnedKey(tenant: string, key: string): string {
  return `${tenant}\u0000${key}`;
}

const ARABIC_ARTICLE = 'ال';

export function buildSnapshot(data: ReferenceData, learned: readonly LearnedMapping[] = []): Snapshot {
  const taxonomy = new Map<string, SubCategoryInfo>();
  for (const c of data.taxonomy.categories) {
    const category = { id: c.id, name: c.name, name_ar: c.name_ar };
    for (const s of c.sub_categories) {
      taxonomy.set(s.id, { category, sub_category: { id: s.id, name: s.name, name_ar: s.name_ar } });
    }
  }

  const vocabulary = new Vocabulary();
  const brandsById = new Map<number, BrandEntry>();
  const brandsBySlug = new Map<string, BrandEntry>();
  const aliasPatterns: { tokens: string[]; value: AliasRef }[] = [];
  const rules = data.aliasRules;
  const institutionWords = new Set(rules.institution_words.flatMap((w) => tokenize(w)));
  const tradeTokens = data.rules.keywords.flatMap((k) => k.words.map((w) => tokenize(w)));
  const tradePhrases = new Set(tradeTokens.map((t) => t.join(' ')));
  const enclosing = enclosingPhrases(tradeTokens.filter((t) => t.length > 1));
  // Fewer letters than this (`BP`, `KFC`, `SP+`) collide with codes and words in other texts.
  const maxShortAlias = rules.min_strong_letters - 1;
  const addAlias = (brand: BrandEntry, text: string, declaredWeak: boolean): void => {
    const tokens = tokenize(text);
    if (tokens.length === 0) return;
    pushAlias(brand, text, tokens, declaredWeak);
    // An Arabic name of two words or more is as often written without the article of its first
    // word (`وطنية للبترول` for الوطنية للبترول, `بنك الأهلي`): the rest of the name still tells it.
    const first = tokens[0] as string;
    if (tokens.length >= 2 && first.startsWith(ARABIC_ARTICLE) && first.length >= ARABIC_ARTICLE.length + 3)
      pushAlias(brand, text, [first.slice(ARABIC_ARTICLE.length), ...tokens.slice(1)], declaredWeak);
  };
  const pushAlias = (brand: BrandEntry, text: string, tokens: string[], declaredWeak: boolean): void => {
    const weak = declaredWeak || (tokens.length === 1 && [...(tokens[0] as string)].length <= maxShortAlias);
    aliasPatterns.push({
      tokens,
      value: {
        type: 'alias',
        brand,
        text,
        weak,
        institution: tokens.length > 1 && institutionWords.has(tokens[tokens.length - 1] as string),
        tradePhrase: tokens.length > 1 && tradePhrases.has(tokens.join(' ')),
        enclosing: enclosing.get(tokens.join(' ')) ?? NO_ENCLOSING,
        tokens: tokens.length,
        chars: tokens.join('').length,
        reason: {
          description: `alias:"${text}"@description`,
          merchant_name: `alias:"${text}"@merchant_name`,
        },
      },
    });
  };

  const businessLines = new Map<string, BusinessLineRef>(
    data.businessLines.lines.map((l) => [
      l.id,
      Object.freeze({ id: l.id, sub_category_id: l.sub_category_id, mccs: new Set(l.mccs) }),
    ]),
  );
  const lineWordPatterns = data.businessLines.lines.flatMap((l) =>
    l.words.map((w) => ({ tokens: tokenize(w), value: l.id })),
  );
  const lineWords = new TokenAutomaton(lineWordPatterns, vocabulary);
  const linesOf = (b: Brand): BusinessLineRef[] =>
    b.lines.map((id) => {
      const line = businessLines.get(id);
      if (!line) throw new Error(`brand ${b.slug}: unknown line of business "${id}"`);
      return line;
    });

  const ticketAirlines = new Map<string, { brand: BrandEntry; nameWord: string }>();
  for (const b of data.brands) {
    const entry = toEntry(b, null, b.slug, linesOf(b));
    brandsById.set(entry.id, entry);
    brandsBySlug.set(entry.slug, entry);
    const nameWord = tokenize(b.name)[0];
    if (b.ticket_prefix !== undefined && nameWord !== undefined) {
      const other = ticketAirlines.get(b.ticket_prefix);
      if (other)
        throw new Error(`brands ${other.brand.slug} and ${b.slug} share ticket prefix ${b.ticket_prefix}`);
      ticketAirlines.set(b.ticket_prefix, { brand: entry, nameWord });
    }
    // A name that is also an ordinary word (Next, Target) is only as strong as its weak alias.
    const weak = new Set(b.weak_aliases.map((a) => tokenize(a).join(' ')));
    const strong = [...(b.name_alias ? [b.name] : []), ...b.aliases].filter(
      (a) => !weak.has(tokenize(a).join(' ')),
    );
    for (const alias of uniqueFolded(strong)) addAlias(entry, alias, false);
    for (const alias of uniqueFolded(b.weak_aliases)) addAlias(entry, alias, true);
    for (const line of b.product_lines ?? []) {
      const lineEntry = toEntry({ ...line, logo: `brands/${line.slug}.png` }, b, b.slug, []);
      brandsById.set(lineEntry.id, lineEntry);
      brandsBySlug.set(lineEntry.slug, lineEntry);
      // A line's name that folds to its parent's (`Walmart+` is `walmart`) must not outrank the parent.
      const parentForms = new Set(
        [b.name, ...b.aliases, ...b.weak_aliases].map((a) => tokenize(a).join(' ')),
      );
      const lineName = line.name_alias && !parentForms.has(tokenize(line.name).join(' ')) ? [line.name] : [];
      const lineWeak = new Set(line.weak_aliases.map((a) => tokenize(a).join(' ')));
      const lineStrong = [...lineName, ...line.aliases].filter((a) => !lineWeak.has(tokenize(a).join(' ')));
      for (const alias of uniqueFolded(lineStrong)) addAlias(lineEntry, alias, false);
      for (const alias of uniqueFolded(line.weak_aliases)) addAlias(lineEntry, alias, true);
    }
  }

  // Fuzzy matching only considers single-token aliases long enough that one edit is still telling
  // (as long as the words it is asked about: a letter added to a five-letter name is too often
  // another word; Kazakh `ASHANA`, a canteen, is not `ASANA`),
  // in Latin script: one edit of an Arabic word is usually another Arabic word, and the engine has no
  // Arabic word list to tell them apart (data/words.json is Latin only). Never an imported brand's:
  // their names are often words of a language the stop list does not hold (Russian `SHATURA` is one
  // letter from `shatera`, `ZARINA` from `zariny`), and nobody reviewed them.
  const fuzzy = new FuzzyIndex<AliasRef>(
    aliasPatterns
      .filter(
        (p) =>
          p.tokens.length === 1 &&
          !p.value.weak &&
          !p.value.brand.imported &&
          (p.tokens[0] as string).length >= MIN_FUZZY_WORD &&
          !ARABIC.test(p.tokens[0] as string),
      )
      .map((p) => ({ key: p.tokens[0] as string, value: p.value })),
  );

  const patternEntries = data.rules.patterns.flatMap((p) =>
    p.phrases.flatMap((phrase) => {
      const value = {
        type: 'pattern' as const,
        kind: p.kind,
        phrase,
        tokens: tokenize(phrase).length,
        direction: p.direction ?? null,
      };
      return spellingsOf(phrase).map((tokens) => ({ tokens, value }));
    }),
  );
  const modifiers = new Set(data.rules.trade_modifiers.map((w) => tokenize(w).join(' ')));
  const venueWords = new Set(data.rules.venues.words.map((w) => tokenize(w).join(' ')));
  const tenantTrades = new Set(data.rules.venues.tenant_trades);
  const keywordPatterns = data.rules.keywords.flatMap((k) =>
    k.words.flatMap((word) => {
      const tokens = tokenize(word);
      const rank = k.any_seller ? ANY_SELLER_RANK : modifiers.has(tokens.join(' ')) ? 1 : 0;
      const sub = k.sub_category_id;
      const value = {
        sub_category_id: sub,
        word,
        tokens: tokens.length,
        rank,
        venue: venueWords.has(tokens.join(' ')),
        tenant: rank === 0 && (tenantTrades.has(sub) || tenantTrades.has(sub.split('-')[0] as string)),
      };
      return spellingsOf(word).flatMap((s) => withArabicArticles(s).map((t) => ({ tokens: t, value })));
    }),
  );
  const keywords = new TokenAutomaton(keywordPatterns, vocabulary);
  const keywordPrefixes = new PrefixIndex(
    keywordPatterns
      .filter((k) => k.tokens.length === 1 && (k.tokens[0] as string).length > MIN_CUT_KEYWORD)
      .map((k) => ({ key: k.tokens[0] as string, value: k.value })),
  );
  const intermediaryEntries = data.intermediaries.intermediaries.flatMap((i) =>
    i.prefixes.map((prefix) => ({
      tokens: tokenize(prefix),
      value: {
        type: 'intermediary' as const,
        id: i.id,
        name: i.name,
        fallback_brand: i.fallback_brand,
        anywhere: i.kind === 'wallet',
        smallMerchants: i.small_merchants,
        operator: i.kind === 'operator',
      },
    })),
  );
  const lexicon = new TokenAutomaton<LexiconEntry>(
    [...aliasPatterns, ...patternEntries, ...intermediaryEntries],
    vocabulary,
  );
  const cityPatterns = data.locations.cities.map((c) => ({ tokens: tokenize(c), value: c }));
  const cities = new TokenAutomaton(cityPatterns, vocabulary);
  const cityPrefixes = new PrefixIndex(
    cityPatterns
      .filter((c) => c.tokens.length === 1 && (c.tokens[0] as string).length > MIN_CUT_KEYWORD)
      .map((c) => ({ key: c.tokens[0] as string, value: c.value })),
  );
  const countryNamePatterns = Object.entries(data.locations.country_names).flatMap(([code, names]) =>
    names.map((n) => ({ tokens: tokenize(n), value: code })),
  );
  const countryNames = new TokenAutomaton(countryNamePatterns, vocabulary);

  const mcc = new Map<string, string>();
  for (const [code, entry] of Object.entries(data.mccMap.map)) mcc.set(code, entry.sub_category_id);

  const learnedByMerchantId = new Map<string, LearnedMapping>();
  const learnedByMerchantKey = new Map<string, LearnedMapping>();
  for (const m of learned) {
    if (m.merchant_id) learnedByMerchantId.set(learnedKey(m.tenant, m.merchant_id), m);
    if (m.merchant_key) learnedByMerchantKey.set(learnedKey(m.tenant, m.merchant_key), m);
  }

  // Every word of every automaton is known and never split; the kinds below say more.
  for (const p of [
    ...patternEntries,
    ...keywordPatterns,
    ...intermediaryEntries,
    ...countryNamePatterns,
    ...lineWordPatterns,
  ]) {
    for (const t of p.tokens) vocabulary.add(t, WORD.whole | WORD.term);
  }
  for (const p of aliasPatterns) {
    const flags = WORD.alias | WORD.whole | (p.value.brand.imported ? 0 : WORD.reviewed);
    for (const t of p.tokens) vocabulary.add(t, flags);
  }
  for (const p of cityPatterns) for (const t of p.tokens) vocabulary.add(t, WORD.city | WORD.whole);
  for (const c of data.locations.countries)
    for (const t of tokenize(c)) vocabulary.add(t, WORD.country | WORD.whole);
  for (const w of data.rules.noise_words)
    for (const t of tokenize(w)) vocabulary.add(t, WORD.noise | WORD.whole);
  // Region codes (`ca`, `ny`) are not whole words: `CANADA...` may still be split.
  for (const r of data.locations.regions) vocabulary.add(r, WORD.region);

  // Reviewed names only, as for the fuzzy index: a generated alias cut short is too often a word.
  // Filed by word ids, which exist only now that every alias word is in the vocabulary.
  const byBefore = new Map<number, { key: string; value: CutName }[]>();
  const shortLastNames = new Map<number, CutName[]>();
  for (const p of aliasPatterns) {
    if (p.tokens.length < 2 || p.value.weak || p.value.brand.imported) continue;
    const head = p.tokens.slice(0, -1);
    const before = vocabulary.id(head[head.length - 1] as string);
    const last = p.tokens[p.tokens.length - 1] as string;
    const name = { head, last, alias: p.value, inner: false };
    const into = last.length > 2 ? byBefore : head.length >= 2 ? shortLastNames : null;
    if (into === byBefore)
      (byBefore.get(before) ?? byBefore.set(before, []).get(before))?.push({ key: last, value: name });
    else if (into === shortLastNames)
      (shortLastNames.get(before) ?? shortLastNames.set(before, []).get(before))?.push(name);
    // A field-width cut inside an earlier word of a long name: filed the same way, by that word.
    for (let k = 1; k < p.tokens.length - 1; k++) {
      const word = p.tokens[k] as string;
      if (word.length < INNER_CUT_WORD) continue;
      const innerHead = p.tokens.slice(0, k);
      const id = vocabulary.id(innerHead[k - 1] as string);
      const value = { head: innerHead, last: word, alias: p.value, inner: true };
      (byBefore.get(id) ?? byBefore.set(id, []).get(id))?.push({ key: word, value });
    }
  }
  const gluedNames = gluedNamesOf(aliasPatterns, vocabulary);
  const cutNames = new Map<number, PrefixIndex<CutName>>();
  const cutNameKeys = new Set<number>();
  const wholeLastWords = new Set<number>();
  for (const [id, names] of byBefore) {
    const index = new PrefixIndex(names);
    cutNames.set(id, index);
    for (const n of names) {
      cutNameKeys.add(cutNameKey(id, n.key));
      if (index.longerThan(n.key).length === 0) wholeLastWords.add(wholeLastKey(id, vocabulary.id(n.key)));
    }
  }

  return Object.freeze({
    catalogVersion: data.version,
    engineVersion: ENGINE_VERSION,
    brandsById,
    brandsBySlug,
    aliasPatternCount: aliasPatterns.length,
    fuzzy,
    cutNames,
    cutNameKeys,
    wholeLastWords,
    shortLastNames,
    gluedNames,
    keywords,
    keywordPrefixes,
    cityPrefixes,
    lexicon,
    cities,
    countryNames,
    splitLefts: vocabulary.filterOf(WORD.alias | WORD.country | WORD.city),
    vocabulary: vocabulary.seal(),
    mcc,
    taxonomy,
    learnedByMerchantId,
    learnedByMerchantKey,
    alertWords: alertWords(data.alerts),
    model: data.model ? new MerchantModel(data.model) : null,
    notNameWords: new Set(rules.not_name_words.flatMap((w) => tokenize(w))),
    lineWords,
    ordinaryWords: new Set(data.words.words),
    ordinaryWordPrefixes: new PrefixIndex(data.words.words.map((key) => ({ key, value: key }))),
    soleProprietorForms: new Set(data.rules.sole_proprietor_forms.flatMap((w) => tokenize(w))),
    personNames: { given: new Set(data.personNames.given), surnames: new Set(data.personNames.surnames) },
    neighbours: neighboursOf(data.locations.markets),
    ticketAirlines,
  });
}

function neighboursOf(markets: Readonly<Record<string, readonly string[]>>): Map<string, Set<string>> {
  const neighbours = new Map<string, Set<string>>();
  for (const countries of Object.values(markets)) {
    for (const c of countries) {
      const set = neighbours.get(c) ?? new Set<string>();
      for (const o of countries) if (o !== c) set.add(o);
      neighbours.set(c, set);
    }
  }
  return neighbours;
}

function toEntry(
  b: (Brand | ProductLine) & { logo: string },
  parent: Brand | null,
  family: string,
  lines: readonly BusinessLineRef[],
): BrandEntry {
  const countries = 'countries' in b ? b.countries : (parent?.countries ?? ['*']);
  const mccs = b.mccs ?? parent?.mccs ?? [];
  return Object.freeze({
    id: b.id,
    slug: b.slug,
    name: b.name,
    // An imported brand may have no Arabic name: empty, as for a brand created from a report.
    name_ar: b.name_ar ?? '',
    logo: b.logo,
    website: b.website ?? parent?.website ?? null,
    family,
    sub_category_id: b.sub_category_id,
    category_id: b.sub_category_id.slice(0, b.sub_category_id.indexOf('-')),
    subscription: b.subscription,
    mccs: new Set(mccs),
    countries: countries.includes('*') ? null : new Set(countries),
    parent_id: parent?.id ?? null,
    venue: 'venue' in b ? b.venue : false,
    lines,
    imported: 'nsi_id' in b && b.nsi_id !== undefined,
    merchant_key: `brand:${b.id}`,
    category_reason: `brand:${b.slug}`,
    subscription_reason: `subscription-brand:${b.slug}`,
  });
}

const ARTICLE = 'ال';
/** The preposition li- before the article: its alef is not written (ل + ال = لل). */
const FOR_THE = 'لل';
const MAX_ARTICLE_TOKENS = 3;

/** A rule phrase or keyword as tokens, in each Latin spelling of its Cyrillic letters banks use. */
function spellingsOf(phrase: string): string[][] {
  const own = tokenize(phrase);
  const forms = [own];
  const seen = new Set([own.join(' ')]);
  for (const spelling of cyrillicSpellings(phrase)) {
    const tokens = tokenize(spelling);
    const key = tokens.join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    forms.push(tokens);
  }
  return forms;
}

/**
 * An Arabic keyword with and without the article on each word: `كهرباء` is also `الكهرباء`
 * (`فاتورة الكهرباء`), `محطه وقود` also `محطه الوقود`, as shop names and bills write them; and
 * with "for the" (`لل`), as a shop's name ends in its trade (`معرض الفخامه للاثاث`, `ورشه الخليج
 * للسيارات`).
 */
function withArabicArticles(tokens: readonly string[]): string[][] {
  let forms: string[][] = [[]];
  for (const t of tokens) {
    const article = tokens.length <= MAX_ARTICLE_TOKENS && ARABIC.test(t) && !t.startsWith(ARTICLE);
    forms = forms.flatMap((f) =>
      article
        ? [
            [...f, t],
            [...f, ARTICLE + t],
            [...f, FOR_THE + t],
          ]
        : [[...f, t]],
    );
  }
  return forms;
}

function uniqueFolded(texts: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const t of texts) {
    const key = tokenize(t).join(' ');
    if (key && !seen.has(key)) {
      seen.add(key);
      out.push(t);
    }
  }
  return out;
}

/** Fewest letters of a glued name: shorter glued words are as often some other word. */
export const MIN_GLUED_NAME_LETTERS = 8;

function gluedNamesOf(
  aliasPatterns: readonly { readonly tokens: readonly string[]; readonly value: AliasRef }[],
  vocabulary: Vocabulary,
): Map<string, AliasRef | null> {
  const glued = new Map<string, AliasRef | null>();
  for (const p of aliasPatterns) {
    if (p.tokens.length < 2 || p.value.weak || p.value.brand.imported) continue;
    const word = p.tokens.join('');
    // Latin letters and digits only (Arabic words are not glued so), and never a word the engine
    // reads anyway (an alias written as one word already, a place, a trade word).
    if (word.length < MIN_GLUED_NAME_LETTERS || !/^[a-z0-9]+$/.test(word) || vocabulary.id(word) >= 0)
      continue;
    const seen = glued.get(word);
    if (seen === undefined) glued.set(word, p.value);
    else if (seen !== null && seen.brand.family !== p.value.brand.family) glued.set(word, null);
  }
  return glued;
}
