/**
 * The seeds of the merchant-type model's corpus: labelled names and trade words from open data and
 * the repository's own data. Never the evaluation sets. Each seed is later dressed up as a bank
 * descriptor or alert (noise.ts).
 *
 * - name-suggestion-index (BSD-3-Clause): brand and operator names with their OSM tag;
 * - @openstreetmap/id-tagging-schema (ISC): preset names, aliases and search terms in many languages;
 * - data/osm-tags.json: which sub-category each OSM tag is (null: not a merchant);
 * - the catalog (names, aliases, Arabic names), the taxonomy's English and Arabic names, the MCC
 *   map's descriptions, rules.json keywords, and data/model/corpus-words.json.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CorpusWords, OsmTagMap, ReferenceData } from '../../src/data/schemas.js';
import { osmLabel } from '../nsi/osm-label.js';

export type SourceName =
  | 'name-suggestion-index'
  | 'id-tagging-schema'
  | 'catalog'
  | 'taxonomy'
  | 'mcc'
  | 'keywords'
  | 'corpus-words'
  | 'neutral';

export interface Seed {
  readonly text: string;
  /** Sub-category id, or null: names no merchant trade. */
  readonly label: string | null;
  readonly source: SourceName;
  /** Script or language: `ar`, `ar-Latn`, `ru`, `latin`, ... */
  readonly lang: string;
  /** A whole merchant name, or a trade word that a shop name is built around. */
  readonly kind: 'name' | 'term';
}

/** Sub-categories that only non-merchant rows have: the model never answers them. */
const NON_MERCHANT = new Set(['2', '8', '9', '14', '20']);

export function isMerchantClass(id: string): boolean {
  const category = id.slice(0, id.indexOf('-'));
  if (NON_MERCHANT.has(category)) return false;
  // Outward transfers are rules' business, except a remittance house's own trade.
  if (category === '15') return id === '15-3';
  return id !== '1-1';
}

/**
 * Languages of id-tagging-schema whose script the engine reads (Latin, Arabic; Cyrillic, Greek,
 * Georgian and Armenian, which it writes in Latin letters) and that the product's markets print
 * merchant names in: the Gulf and the Levant, North Africa, Europe (Greece and Cyprus among it), the
 * CIS and the Caucasus, the Balkans, South-East Asia, with their regional
 * variants (Australian, Irish, Indian English: `chemist`, `bottle shop`; Brazilian Portuguese;
 * Belarusian in both spellings). More languages dilute the corpus with words no bank of ours prints.
 */
const PRESET_LANGUAGES = [
  'en',
  'en-GB',
  'en-AU',
  'en-US',
  'en-CA',
  'en-IE',
  'en-NZ',
  'en-IN',
  'ar',
  'ar-AA',
  'fr',
  'de',
  'es',
  'it',
  'pt',
  'pt-BR',
  'nl',
  'nl-BE',
  'tr',
  'ru',
  'uk',
  'be',
  'be@tarask',
  'kk',
  'ky',
  'uz',
  'az',
  'sr',
  'hr',
  'bs',
  'mk',
  'bg',
  'pl',
  'el',
  'ka',
  'hy',
  'id',
  'ms',
];

const ARABIC = /[\u0600-\u06ff]/;
const CYRILLIC = /[\u0400-\u04ff]/;

export function scriptOf(text: string): string {
  if (ARABIC.test(text)) return 'ar';
  if (CYRILLIC.test(text)) return 'cyrl';
  return 'latin';
}

const ROOT = join(import.meta.dirname, '..', '..');

/** Where an installed package lies (name-suggestion-index exports no package.json to resolve). */
function packageDir(name: string): string {
  return join(ROOT, 'node_modules', name);
}

function tagOf(tags: Readonly<Record<string, string>>, map: OsmTagMap): string | undefined {
  for (const [k, v] of Object.entries(tags)) {
    const tag = `${k}=${v}`;
    if (tag in map.tags) return tag;
  }
  return undefined;
}

interface NsiItem {
  readonly displayName?: string;
  readonly matchNames?: readonly string[];
  readonly tags: Readonly<Record<string, string>>;
}

/** NSI tags whose names are banks: the model learns they are no shop trade. */
const NSI_NON_MERCHANT_TAGS = new Set(['amenity=bank', 'amenity=atm']);
/** Name tags in the scripts the engine reads (Latin, Arabic, Cyrillic) and the short brand name. */
const NAME_KEYS = [
  'name',
  'brand',
  'brand:short',
  'name:en',
  'name:ar',
  'name:ru',
  'name:uk',
  'name:be',
  'name:be-Latn',
  'name:kk',
  'name:bg',
  'name:sr',
  'name:sr-Latn',
  'name:fr',
  'brand:en',
  'brand:ar',
  'brand:ru',
  'brand:uk',
  'brand:be',
  'brand:kk',
  'brand:fr',
];

export function nsiSeeds(map: OsmTagMap): Seed[] {
  const path = join(packageDir('name-suggestion-index'), 'dist', 'json', 'nsi.json');
  const nsi = JSON.parse(readFileSync(path, 'utf8')) as { nsi: Record<string, { items: NsiItem[] }> };
  const seeds: Seed[] = [];
  for (const key of Object.keys(nsi.nsi).sort()) {
    const [tree, k, v] = key.split('/');
    if (tree !== 'brands' && tree !== 'operators') continue;
    const tag = `${k}=${v}`;
    const label = map.tags[tag];
    if (label === undefined || (label === null && !NSI_NON_MERCHANT_TAGS.has(tag))) continue;
    if (label !== null && !isMerchantClass(label)) continue;
    for (const item of nsi.nsi[key]?.items ?? []) {
      const itemLabel = osmLabel(map, tag, item.tags) ?? label;
      const names = new Set<string>();
      if (item.displayName) names.add(item.displayName);
      for (const nk of NAME_KEYS) if (item.tags[nk]) names.add(item.tags[nk] as string);
      for (const m of (item.matchNames ?? []).slice(0, 3)) names.add(m);
      for (const text of names)
        seeds.push({
          text,
          label: itemLabel,
          source: 'name-suggestion-index',
          lang: scriptOf(text),
          kind: 'name',
        });
    }
  }
  return seeds;
}

interface PresetTranslation {
  readonly name?: string;
  readonly aliases?: readonly string[] | string;
  readonly terms?: readonly string[] | string;
}

function listOf(value: readonly string[] | string | undefined): string[] {
  if (value === undefined) return [];
  const items = typeof value === 'string' ? [value] : [...value];
  return items
    .flatMap((s) => s.split(/[,،;\n]/))
    .map((s) => s.trim())
    .filter((s) => s.length > 1);
}

/**
 * Tags whose sub-presets differ by what they sell (`vending=parking_tickets`, `vending=coffee`): the
 * sub-preset's aliases and search terms are the goods (`coffee`, `petrol`, `stamps`, `flowers`), which
 * would teach that a coffee shop or a petrol station is a vending machine. Only their names count.
 */
const GOODS_SUBTYPES = new Set(['amenity=vending_machine']);

export function presetSeeds(map: OsmTagMap): Seed[] {
  const dir = join(packageDir('@openstreetmap/id-tagging-schema'), 'dist');
  const presets = JSON.parse(readFileSync(join(dir, 'presets.json'), 'utf8')) as Record<
    string,
    { tags: Record<string, string>; searchable?: boolean }
  >;
  const labels = new Map<string, string | null>();
  /** Presets whose aliases and search terms name the goods, not the trade (below). */
  const goodsOnly = new Set<string>();
  for (const id of Object.keys(presets).sort()) {
    const tags = (presets[id] as { tags: Record<string, string> }).tags;
    const tag = tagOf(tags, map);
    if (tag === undefined) continue;
    labels.set(id, map.tags[tag] ?? null);
    if (GOODS_SUBTYPES.has(tag) && Object.keys(tags).length > 1) goodsOnly.add(id);
  }
  const seeds: Seed[] = [];
  const available = new Set(readdirSync(join(dir, 'translations')));
  for (const lang of PRESET_LANGUAGES) {
    if (!available.has(`${lang}.json`)) continue;
    const file = JSON.parse(readFileSync(join(dir, 'translations', `${lang}.json`), 'utf8')) as Record<
      string,
      { presets?: { presets?: Record<string, PresetTranslation> } }
    >;
    const translated = file[lang]?.presets?.presets ?? {};
    for (const [id, label] of labels) {
      if (label !== null && !isMerchantClass(label)) continue;
      const t = translated[id];
      if (!t) continue;
      const texts = new Set(t.name ? [t.name] : []);
      if (!goodsOnly.has(id)) {
        for (const alias of listOf(t.aliases)) texts.add(alias);
        // Search terms are looser ("dine", "table" for a fast-food place): only short ones.
        for (const term of listOf(t.terms)) if (term.split(/\s+/).length <= 3) texts.add(term);
      }
      for (const text of texts) {
        seeds.push({ text, label, source: 'id-tagging-schema', lang: lang.slice(0, 2), kind: 'term' });
      }
    }
  }
  return seeds;
}

export function repositorySeeds(data: ReferenceData, words: CorpusWords): Seed[] {
  const seeds: Seed[] = [];
  const add = (
    text: string,
    label: string | null,
    source: SourceName,
    kind: Seed['kind'],
    lang?: string,
  ): void => {
    if (label !== null && !isMerchantClass(label)) return;
    seeds.push({ text, label, source, kind, lang: lang ?? scriptOf(text) });
  };
  for (const b of data.brands) {
    // Brands imported without an Arabic name have none (schemas.ts).
    for (const text of new Set([b.name, ...(b.name_ar ? [b.name_ar] : []), ...b.aliases]))
      add(text, b.sub_category_id, 'catalog', 'name');
    for (const line of b.product_lines ?? []) {
      for (const text of new Set([line.name, ...(line.name_ar ? [line.name_ar] : []), ...line.aliases])) {
        add(text, line.sub_category_id, 'catalog', 'name');
      }
    }
  }
  for (const c of data.taxonomy.categories) {
    for (const s of c.sub_categories) {
      for (const text of [s.name, s.name_ar, ...s.name.split(/,|&| and /)]) {
        if (text.trim().length > 2) add(text.trim(), s.id, 'taxonomy', 'term');
      }
    }
  }
  for (const entry of Object.values(data.mccMap.map)) {
    const parts = entry.description.split(/[–—,()/]|\band\b|\bor\b/i).map((p) => p.trim());
    for (const text of new Set([entry.description, ...parts])) {
      if (text.length > 3 && !/^(misc|not elsewhere|including|except|services?)\b/i.test(text)) {
        add(text, entry.sub_category_id, 'mcc', 'term');
      }
    }
  }
  for (const k of data.rules.keywords) for (const w of k.words) add(w, k.sub_category_id, 'keywords', 'term');
  for (const t of words.trade_words)
    for (const w of t.words) add(w, t.sub_category_id, 'corpus-words', 'term', t.lang);
  for (const n of words.neutral_names) add(n, null, 'neutral', 'name');
  return seeds;
}
