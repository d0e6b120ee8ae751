/**
 * Schemas of the reference data files in data/. The files are versioned; these schemas are the
 * contract a data change must keep, and test/unit/data/ checks every file against them.
 */
import { z } from 'zod';
import type { MerchantModelData } from '../engine/merchant-model.js';

const subCategoryId = z.string().regex(/^\d{1,2}-\d{1,2}$/, 'sub-category id like "4-2"');
const mcc = z.string().regex(/^\d{4}$/, 'four-digit MCC');
const country = z.string().regex(/^([A-Z]{2}|\*)$/, 'ISO 3166-1 alpha-2 code or "*"');
const slug = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'lowercase slug');
const arabic = z.string().regex(/[\u0600-\u06ff]/, 'Arabic script');

export const taxonomySchema = z.object({
  version: z.string(),
  source: z.string().optional(),
  categories: z
    .array(
      z.object({
        id: z.string().regex(/^\d{1,2}$/),
        name: z.string().min(1),
        name_ar: arabic,
        sub_categories: z
          .array(z.object({ id: subCategoryId, name: z.string().min(1), name_ar: arabic }))
          .min(1),
      }),
    )
    .min(1),
});
export type Taxonomy = z.infer<typeof taxonomySchema>;

const brandFields = {
  id: z.number().int().positive(),
  slug,
  name: z.string().min(1),
  /**
   * Absent only for brands imported from name-suggestion-index without an Arabic name there: an
   * absent name is honest, a machine transliteration would not be (v3 returns null).
   */
  name_ar: arabic.optional(),
  name_ar_source: z.enum(['official', 'transliteration']).optional(),
  website: z.url().optional(),
  sub_category_id: subCategoryId,
  aliases: z.array(z.string().min(1)).min(1),
  subscription: z.boolean(),
  /**
   * Whether the display name is also matched as an alias (the default). False where the name folds
   * to a form another brand owns: `AMC+` is `amc`, which is AMC Theatres.
   */
  name_alias: z.boolean().default(true),
  /**
   * One-token names that are ordinary words (Next, Target, كريم): matched only with a second
   * signal (data/alias-rules.json). The data test requires every such alias to be listed here.
   */
  weak_aliases: z.array(z.string().min(1)).default([]),
};

export const productLineSchema = z.object({
  ...brandFields,
  mccs: z.array(mcc).optional(),
});
export type ProductLine = z.infer<typeof productLineSchema>;

export const brandSchema = z.object({
  ...brandFields,
  logo: z.string().regex(/^brands\/[a-z0-9-]+\.png$/, 'relative path brands/<slug>.png'),
  mccs: z.array(mcc).default([]),
  /**
   * An airline's IATA accounting code: the first three digits of every ticket number it issues
   * (Emirates 176). Statements print the 13-digit ticket number after the airline's name
   * (`UNITED 0169091841258`), which tells the airline from the ordinary word.
   */
  ticket_prefix: z
    .string()
    .regex(/^\d{3}$/, 'three digits, the IATA accounting code ("176")')
    .optional(),
  countries: z.array(country).min(1),
  /**
   * A place that hosts other merchants (a mall, an airport): its name often appears in a shop's
   * descriptor as the address, so any other brand in the same text wins over it.
   */
  venue: z.boolean().default(false),
  product_lines: z.array(productLineSchema).optional(),
  /** The brand's Wikidata item (`Q1234`), linked through name-suggestion-index (docs/data-sources.md). */
  wikidata_id: z
    .string()
    .regex(/^Q[1-9]\d*$/, 'a Wikidata item id like "Q1234"')
    .optional(),
  /**
   * The brand's logo on Wikimedia Commons, as a file name (`Careem logo.svg`): metadata for
   * `tx-enrich logos mirror`; each file has its own licence, so no image is shipped.
   */
  logo_source: z.string().min(1).optional(),
  /**
   * Other lines of business (data/business-lines.json ids): a supermarket's fuel station, a ride
   * app's food delivery. The MCC or a line word in the text picks the line's sub-category.
   */
  lines: z.array(slug).default([]),
  /** The name-suggestion-index item an imported brand comes from (it keeps the brand's id stable). */
  nsi_id: z.string().min(1).optional(),
});
export type Brand = z.infer<typeof brandSchema>;

export const brandFileSchema = z.object({
  piece: z.string(),
  brands: z.array(brandSchema),
});
export type BrandFile = z.infer<typeof brandFileSchema>;

export const mccMapSchema = z.object({
  version: z.string(),
  source: z.string().optional(),
  map: z.record(mcc, z.object({ sub_category_id: subCategoryId, description: z.string() })),
});
export type MccMap = z.infer<typeof mccMapSchema>;

export const intermediariesSchema = z.object({
  version: z.string(),
  intermediaries: z.array(
    z.object({
      id: slug,
      name: z.string().min(1),
      /**
       * `operator`: a company that runs other brands' shops under their names (Alshaya's
       * Starbucks, Apparel Group's Aldo); the brand after its name is the merchant.
       */
      kind: z.enum(['processor', 'wallet', 'marketplace', 'gateway', 'operator']),
      /** Descriptor prefixes, matched on folded tokens at the start of the text. */
      prefixes: z.array(z.string().min(1)).min(1),
      /**
       * What the intermediary is when no merchant stands behind it (e.g. `APPLE.COM/BILL` alone is
       * Apple services): a brand slug, else null.
       */
      fallback_brand: slug.nullable(),
      /**
       * A point-of-sale processor of independent small businesses (Square, Toast, SumUp): the
       * merchant behind it is almost never a chain, so it is no second signal for a brand named by
       * an ordinary word (`SQ *TARGET PRACTICE`, `TST* TIME OUT`).
       */
      small_merchants: z.boolean().default(false),
    }),
  ),
});
export type Intermediaries = z.infer<typeof intermediariesSchema>;

const ruleKind = z.enum([
  'salary',
  'pension',
  'atm_withdrawal',
  'atm_deposit',
  'bank_fee',
  'interest',
  'card_payment',
  'loan_mortgage',
  'loan_car',
  'loan_student',
  'loan_personal',
  'loan_other',
  'refund',
  'transfer',
  'remittance',
  'cheque',
  'tax',
  'cash_advance',
  'dividend',
  'insurance_claim',
  'currency_exchange',
  'deposit',
  'rental_income',
  'other_income',
  'atm_service',
  'wallet_topup',
  'own_account',
]);
export type RuleKind = z.infer<typeof ruleKind>;

export const rulesSchema = z.object({
  version: z.string(),
  /** Phrases that mark non-merchant transactions (salary, ATM, fees, transfers, ...). */
  patterns: z.array(
    z.object({
      kind: ruleKind,
      phrases: z.array(z.string().min(1)).min(1),
      direction: z.enum(['DEBIT', 'CREDIT']).optional(),
    }),
  ),
  /** Words that suggest a sub-category for merchants with no brand and no MCC. */
  keywords: z.array(
    z.object({
      sub_category_id: subCategoryId,
      words: z.array(z.string().min(1)).min(1),
      /**
       * Words any seller uses (`store`, `trading`, `مؤسسة`): they say only that something is sold,
       * so the words around them decide. Other Shopping's own trades (`toys`) are not such words.
       */
      any_seller: z.boolean().default(false),
    }),
  ),
  /** Words printed around merchant names that are never part of them (POS, PURCHASE, ...). */
  noise_words: z.array(z.string().min(1)),
  /**
   * Keywords that name a trade only when no other keyword does: a cuisine beside a trade (`ROYAL
   * THAI MASSAGE CENTER` is a spa) or a word of several trades (`شحن` charges a meter or ships a
   * parcel; `GOLD`, `WATCH`, `POST`). Each must be one of the keywords' words.
   */
  trade_modifiers: z.array(z.string().min(1)).default([]),
  /**
   * Legal forms of a sole proprietor (`ИП`, `ФОП`, `ЧП`): the law registers such a business under its
   * owner's name (`ИП ПЕТРОВА А.В.`), and a person's name says nothing of the trade.
   */
  sole_proprietor_forms: z.array(z.string().min(1)).default([]),
  /**
   * Places that house other trades: beside one of those trades' words the text names the tenant
   * (`HOTEL BAR` is a bar, `HOSPITAL PHARMACY` a pharmacy), beside any other trade the place
   * (`RESORT & SPA` is a hotel). `words` must be keywords; `tenant_trades` are sub-category or
   * category ids.
   */
  venues: z
    .object({ words: z.array(z.string().min(1)), tenant_trades: z.array(z.string().min(1)) })
    .default({ words: [], tenant_trades: [] }),
});
export type Rules = z.infer<typeof rulesSchema>;

export const locationsSchema = z.object({
  version: z.string(),
  /** Country names and codes (alpha-2 and alpha-3) printed at the end of descriptors. */
  countries: z.array(z.string().min(1)),
  /** Cities and regions, in English and Arabic, possibly several words. */
  cities: z.array(z.string().min(1)),
  /** US and Canadian state and province codes, only stripped after a city. */
  regions: z.array(z.string().min(1)),
  /**
   * Names of countries money is sent to and from, by ISO code, in English and Arabic: a transfer
   * "to" or "from" a country other than the account's is a remittance.
   */
  country_names: z.record(
    z.string().regex(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2 code'),
    z.array(z.string().min(1)).min(1),
  ),
  /**
   * Neighbouring countries whose chains cross borders (the Gulf, the Maghreb, the CIS...), by name:
   * a chain trading in two of a market's countries is no stranger in a third (docs/engine.md).
   */
  markets: z.record(z.string(), z.array(z.string().regex(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2 code')).min(3)),
});
export type Locations = z.infer<typeof locationsSchema>;

/**
 * How card alerts word the merchant (data/alerts.json): introducers before it, closers or terminators
 * after it, and the purchase words and currencies of alerts that name it right after the amount.
 */
export const alertsSchema = z.object({
  version: z.string(),
  description: z.string().optional(),
  introducers: z.array(z.string().min(1)).min(1),
  /** Weaker introducers (`من` is also "from your card"): used only when no strong one is present. */
  weak_introducers: z.array(z.string().min(1)),
  /**
   * Words that follow the merchant (Turkish `MIGROS isyerinde`, at the workplace MIGROS): the merchant
   * is the words between the clause before it and the closer.
   */
  closers: z.array(z.string().min(1)).default([]),
  terminators: z.array(z.string().min(1)).min(1),
  /**
   * Words that end the merchant only before a number (`يوم 12/03`, `وقت 21:30`): before a word they
   * may be part of a name (`كل يوم ماركت`).
   */
  time_words: z.array(z.string().min(1)).default([]),
  purchase_words: z.array(z.string().min(1)),
  currencies: z.array(z.string().min(1)),
  /**
   * Words for the card, read past with its last digits where they stand between the amount and the
   * merchant (`Pokupka 560.00 RUR. Karta *1234. HIMCHISTKA`).
   */
  card_words: z.array(z.string().min(1)).default([]),
});
export type Alerts = z.infer<typeof alertsSchema>;

/**
 * OpenStreetMap tag (`key=value`, the form id-tagging-schema presets and name-suggestion-index paths
 * use) → the sub-category a merchant with that tag belongs to, or null for tags that are not
 * merchants (street furniture, infrastructure, banks and ATMs, which non-merchant rules decide).
 * Read by the model's training script and by catalog imports; the engine itself does not use it.
 */
export const osmTagMapSchema = z.object({
  version: z.string(),
  description: z.string().optional(),
  tags: z.record(
    z.string().regex(/^[a-z_:]+=[a-z0-9_-]+$/, 'OSM tag as key=value, lower case'),
    subCategoryId.nullable(),
  ),
  /**
   * Primary tag → secondary key → value → sub-category: where a secondary tag names another trade
   * of the primary tag's category (`amenity=fast_food` + `cuisine=coffee_shop` is a coffee chain).
   */
  refinements: z
    .record(
      z.string().regex(/^[a-z_:]+=[a-z0-9_-]+$/, 'OSM tag as key=value, lower case'),
      z.record(z.string().regex(/^[a-z_:]+$/, 'OSM key, lower case'), z.record(z.string(), subCategoryId)),
    )
    .default({}),
});
export type OsmTagMap = z.infer<typeof osmTagMapSchema>;

/**
 * Words the merchant-type model's training script mixes into its corpus (data/model/): trade words
 * per sub-category and language as banks print them, neutral shop-name words, and card-alert
 * templates around a merchant. Training input only; the engine never reads it.
 */
export const corpusWordsSchema = z.object({
  version: z.string(),
  description: z.string().optional(),
  trade_words: z.array(
    z.object({
      sub_category_id: subCategoryId,
      lang: z.string().regex(/^[a-z]{2}(-[A-Za-z]{4})?$/, 'language tag like "ar-Latn" or "fr"'),
      words: z.array(z.string().min(1)).min(1),
    }),
  ),
  neutral_names: z.array(z.string().min(1)).min(1),
  alert_templates: z.array(
    z.object({
      lang: z.string().regex(/^[a-z]{2}$/, 'language code like "en"'),
      template: z.string().regex(/\{m\}/, 'a template names the merchant with {m}'),
    }),
  ),
});
export type CorpusWords = z.infer<typeof corpusWordsSchema>;

/**
 * The header of the merchant-type model (data/model/merchant-type.json); its weights are in the
 * binary file beside it (layout in src/data/load.ts). Written by `npm run model:train` only.
 */
export const merchantModelHeaderSchema = z.object({
  format: z.literal(1),
  name: z.string().regex(/^[a-z-]+$/),
  classes: z.array(subCategoryId.nullable()).min(2).max(255),
  bucket_bits: z.number().int().min(10).max(24),
  temperature: z.number().positive(),
  threshold: z.number().min(0).max(1),
  scale: z.number().positive(),
  entries: z.number().int().nonnegative(),
  weights_sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** How it was trained (seed, corpus sizes, held-out figures): documentation, not read by the engine. */
  training: z.record(z.string(), z.unknown()),
});
export type MerchantModelHeader = z.infer<typeof merchantModelHeaderSchema>;
export const businessLinesSchema = z.object({
  version: z.string(),
  lines: z.array(
    z.object({
      id: slug,
      sub_category_id: subCategoryId,
      /** MCCs that mean this line (`5541` service stations for fuel). */
      mccs: z.array(mcc),
      /** Words in the text that mean this line (`fuel`, `محطة`, `duty free`). */
      words: z.array(z.string().min(1)).min(1),
      /**
       * OpenStreetMap tags whose brands the name-suggestion-index import gives this line (a charity
       * shop's brand is also the charity people donate to).
       */
      osm_tags: z.array(z.string().regex(/^[a-z_:]+=[a-z_;:]+$/)).default([]),
    }),
  ),
});
export type BusinessLines = z.infer<typeof businessLinesSchema>;

const sortedLatinWords = z
  .array(z.string().regex(/^[a-z]+$/, 'a folded Latin-script word'))
  .min(1)
  .refine((w) => w.every((x, i) => i === 0 || (w[i - 1] as string) < x), 'sorted, each word once');

export const wordsSchema = z.object({
  /** The word-list packages and versions the file was generated from (scripts/import-words.ts). */
  version: z.string().min(1),
  /** Shorter words are never read as a misspelt brand, so the file leaves them out. */
  min_length: z.number().int().positive(),
  /** Sorted, each once, as `npm run data:words` writes them: a diff of the file shows words added or gone. */
  words: sortedLatinWords,
});
export type Words = z.infer<typeof wordsSchema>;

export const personNamesSchema = z.object({
  /** The name-list packages and versions the file was generated from (scripts/import-words.ts). */
  version: z.string().min(1),
  /** Given names, Latin script, folded; sorted, each once. */
  given: sortedLatinWords,
  /** Surnames, Latin script, folded; sorted, each once. */
  surnames: sortedLatinWords,
});
export type PersonNames = z.infer<typeof personNamesSchema>;

export const aliasRulesSchema = z.object({
  version: z.string(),
  /** A one-token alias shorter than this (in letters) is weak whatever it spells. */
  min_strong_letters: z.number().int().min(2),
  /**
   * Last words of institution names (`bank`, `مصرف`, `exchange`). Such a name preceded by another
   * name word is a longer institution's name: `ARAB GULF BANK` is not Gulf Bank.
   */
  institution_words: z.array(z.string().min(1)).min(1),
  /** Words that may stand before an institution's name without being part of it (`to`, `at`, `لدى`). */
  not_name_words: z.array(z.string().min(1)),
});
export type AliasRules = z.infer<typeof aliasRulesSchema>;

/** Everything the engine needs from data/, already validated. */
export interface ReferenceData {
  readonly taxonomy: Taxonomy;
  readonly brands: readonly Brand[];
  readonly mccMap: MccMap;
  readonly intermediaries: Intermediaries;
  readonly rules: Rules;
  readonly locations: Locations;
  readonly alerts: Alerts;
  /** The merchant-type model, decoded; absent in hand-made test data. */
  readonly model?: MerchantModelData;
  readonly words: Words;
  readonly personNames: PersonNames;
  readonly aliasRules: AliasRules;
  readonly businessLines: BusinessLines;
  /** A digest of all files, reported with every outcome as the catalog version. */
  readonly version: string;
}
