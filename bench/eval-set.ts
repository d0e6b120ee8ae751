/**
 * Labeled descriptor sets: reading them, turning rows into transactions, and scoring the engine's
 * answers, for `npm run bench:accuracy`.
 */
import { readFileSync } from 'node:fs';
import type { Transaction } from '../src/contract/transaction.js';
import type { Brand } from '../src/data/schemas.js';
import { tokenize } from '../src/engine/text.js';
import type { Enrichment } from '../src/engine/types.js';
import type { Snapshot } from '../src/engine/snapshot.js';

export interface LabeledRow {
  readonly id?: string;
  readonly raw_description: string;
  readonly merchant_name: string | null;
  readonly merchant_id?: string | null;
  readonly mcc: string | null;
  readonly direction: 'DEBIT' | 'CREDIT';
  readonly amount: number;
  readonly iso_currency_cd: string;
  readonly country: string;
  readonly is_transfer?: boolean;
  readonly is_self_transaction?: boolean;
  readonly expected_brand: string | null;
  readonly expected_brand_aliases?: readonly string[];
  readonly expected_category: string;
  readonly expected_sub_category: string;
}

export function readLabeledRows(path: string): LabeledRow[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      try {
        return JSON.parse(line) as LabeledRow;
      } catch (err) {
        throw new Error(`${path}:${i + 1}: ${(err as Error).message}`);
      }
    });
}

export function rowToTransaction(row: LabeledRow, index: number): Transaction {
  return {
    raw_description: row.raw_description,
    amount: row.amount,
    transaction_id: row.id ?? `row-${index + 1}`,
    customer_id: `eval-${index + 1}`,
    account_id: '',
    card_id: '',
    merchant_name: row.merchant_name ?? '',
    merchant_id: row.merchant_id ?? '',
    mcc: row.mcc ?? '',
    direction: row.direction,
    is_self_transaction: row.is_self_transaction ?? false,
    is_transfer: row.is_transfer ?? false,
    iso_currency_cd: row.iso_currency_cd,
    occurred_at: '2026-01-15T12:00:00Z',
    location: { iso_country_cd: row.country },
  };
}

const key = (s: string): string => tokenize(s).join('');

/** Each brand's catalog spellings (name and aliases), folded: the names a label may use for it. */
export type BrandSpellings = ReadonlyMap<number, ReadonlySet<string>>;

export function brandSpellings(brands: readonly Brand[]): BrandSpellings {
  return new Map(brands.map((b) => [b.id, new Set([b.name, ...b.aliases, ...b.weak_aliases].map(key))]));
}

/**
 * A predicted brand is right when its name, or its parent brand's name for a product line, equals
 * the expected name or one of the row's accepted alternatives, after folding case, accents and
 * punctuation (`Caffè Nero` = `CAFFE NERO`).
 */
export function brandMatches(
  row: LabeledRow,
  e: Enrichment,
  snapshot: Snapshot,
  spellings: BrandSpellings = new Map(),
): boolean {
  if (!row.expected_brand || !e.brand) return false;
  const expected = new Set([row.expected_brand, ...(row.expected_brand_aliases ?? [])].map(key));
  // `e& (Etisalat)`: a renamed brand shows its former name in brackets; either name is right.
  const names = [e.brand.name, ...alternativeNames(e.brand.name)];
  const family = snapshot.brandsBySlug.get(e.brand.family);
  if (family) names.push(family.name, ...alternativeNames(family.name));
  if (names.some((n) => expected.has(key(n)))) return true;
  // A label may use the short form of the catalog's full name (`Vue` for `Vue Cinemas`, `Nahdi`
  // for `Al Nahdi Pharmacy`), or another of its catalog spellings (`Гиппо` for `Hippo`). Accepted
  // only when the category agrees, so a namesake in another trade (`Jumbo` the grocer, `Jumbo
  // Electronics`) stays wrong.
  if (e.category.name !== row.expected_category) return false;
  const spelled = spellings.get(e.brand.id);
  if (spelled && [...expected].some((x) => spelled.has(x))) return true;
  const labelWords = [row.expected_brand, ...(row.expected_brand_aliases ?? [])].map((l) => tokenize(l));
  return names.some((n) => {
    const nameWords = new Set(tokenize(n));
    return labelWords.some((words) => words.length > 0 && words.every((w) => nameWords.has(w)));
  });
}

function alternativeNames(name: string): string[] {
  const m = /^(.*?)\s*\((.+)\)\s*$/.exec(name);
  return m ? [m[1] as string, m[2] as string] : [];
}

/** Countries of the product's home market: their rows are reported apart. */
export const MENA_COUNTRIES = new Set([
  'AE',
  'SA',
  'KW',
  'QA',
  'BH',
  'OM',
  'EG',
  'JO',
  'LB',
  'IQ',
  'MA',
  'TN',
  'DZ',
]);

/** Brand and category figures over a set of rows. */
export interface Figures {
  readonly rows: number;
  readonly brandPredicted: number;
  readonly brandExpected: number;
  readonly brandCorrect: number;
  readonly brandPrecision: number;
  readonly brandRecall: number;
  readonly categoryAccuracy: number;
  readonly subCategoryAccuracy: number;
}

export interface Score extends Figures {
  /** The rows from MENA countries alone. */
  readonly mena: Figures;
  /** Share of rows answered Miscellaneous. */
  readonly miscellaneousShare: number;
  readonly perCategory: Record<string, { rows: number; category: number; subCategory: number }>;
  /** Which step decided the category (catalog, rule, mcc, keyword, model, miscellaneous), and how well. */
  readonly answeredBy: Record<string, { rows: number; category: number }>;
  /** Expected category → answered category, most frequent first. */
  readonly confusions: readonly { expected: string; got: string; rows: number }[];
  /** Within a right category: expected sub-category → answered sub-category, most frequent first. */
  readonly subConfusions: readonly { expected: string; got: string; rows: number }[];
  readonly missCount: number;
  readonly misses: Miss[];
}

export interface Miss {
  readonly id: string;
  readonly description: string;
  readonly expected: string;
  readonly got: string;
  readonly reasons: string;
}

/** The engine step that decided a result's category, from its reason. */
export function answeredBy(e: Enrichment): string {
  const reason = e.reasons.category;
  if (reason.startsWith('brand:') || reason.startsWith('learned:')) return 'catalog';
  if (reason.startsWith('mcc:')) return 'mcc';
  if (reason.startsWith('keyword:')) return 'keyword';
  if (reason.startsWith('model:')) return 'model';
  // Miscellaneous after the model declined, or with no merchant words for it to read.
  if (reason.startsWith('fallback:miscellaneous;')) return 'miscellaneous';
  if (reason.startsWith('fallback:miscellaneous')) return 'misc-no-words';
  if (/^(flag:|pattern:|location-only:|alert:)/.test(reason)) return 'rule';
  return 'other';
}

const ratio = (a: number, b: number): number => (b === 0 ? 1 : Math.round((a / b) * 1000) / 1000);

function figures(
  rows: readonly LabeledRow[],
  results: readonly Enrichment[],
  snapshot: Snapshot,
  spellings: BrandSpellings,
  keep: (row: LabeledRow) => boolean,
): Figures {
  let n = 0;
  let brandPredicted = 0;
  let brandExpected = 0;
  let brandCorrect = 0;
  let category = 0;
  let sub = 0;
  rows.forEach((row, i) => {
    if (!keep(row)) return;
    const e = results[i] as Enrichment;
    n++;
    if (e.brand) brandPredicted++;
    if (row.expected_brand) brandExpected++;
    if (brandMatches(row, e, snapshot, spellings)) brandCorrect++;
    const catOk = e.category.name === row.expected_category;
    if (catOk) category++;
    if (catOk && e.sub_category.name === row.expected_sub_category) sub++;
  });
  return {
    rows: n,
    brandPredicted,
    brandExpected,
    brandCorrect,
    brandPrecision: ratio(brandCorrect, brandPredicted),
    brandRecall: ratio(brandCorrect, brandExpected),
    categoryAccuracy: ratio(category, n),
    subCategoryAccuracy: ratio(sub, n),
  };
}

/** Counted expected → got pairs, most frequent first. */
function ranked(pairs: ReadonlyMap<string, number>): { expected: string; got: string; rows: number }[] {
  return [...pairs.entries()]
    .map(([key, n]) => {
      const [expected, got] = key.split('\u0000') as [string, string];
      return { expected, got, rows: n };
    })
    .sort((a, b) => b.rows - a.rows || a.expected.localeCompare(b.expected));
}

export function score(
  rows: readonly LabeledRow[],
  results: readonly Enrichment[],
  snapshot: Snapshot,
  spellings: BrandSpellings = new Map(),
): Score {
  const perCategory: Score['perCategory'] = {};
  const steps: Score['answeredBy'] = {};
  const confusions = new Map<string, number>();
  const subConfusions = new Map<string, number>();
  const misses: Miss[] = [];
  let miscellaneous = 0;
  rows.forEach((row, i) => {
    const e = results[i] as Enrichment;
    const brandOk = brandMatches(row, e, snapshot, spellings);
    const catOk = e.category.name === row.expected_category;
    const subOk = catOk && e.sub_category.name === row.expected_sub_category;
    if (e.category.name === 'Miscellaneous') miscellaneous++;
    const bucket = (perCategory[row.expected_category] ??= { rows: 0, category: 0, subCategory: 0 });
    bucket.rows++;
    if (catOk) bucket.category++;
    if (subOk) bucket.subCategory++;
    const step = (steps[answeredBy(e)] ??= { rows: 0, category: 0 });
    step.rows++;
    if (catOk) step.category++;
    if (!catOk) {
      const key = `${row.expected_category}\u0000${e.category.name}`;
      confusions.set(key, (confusions.get(key) ?? 0) + 1);
    } else if (!subOk) {
      const key = `${row.expected_sub_category}\u0000${e.sub_category.name}`;
      subConfusions.set(key, (subConfusions.get(key) ?? 0) + 1);
    }
    const brandWrong = (e.brand !== null && !brandOk) || (row.expected_brand !== null && !brandOk);
    if (brandWrong || !subOk) {
      misses.push({
        id: row.id ?? `row-${i + 1}`,
        description: row.raw_description.replace(/\s+/g, ' ').slice(0, 70),
        expected: `${row.expected_brand ?? '-'} | ${row.expected_category} / ${row.expected_sub_category}`,
        got: `${e.brand?.name ?? '-'} | ${e.category.name} / ${e.sub_category.name}`,
        reasons: `${e.reasons.brand}; ${e.reasons.category}`,
      });
    }
  });
  return {
    ...figures(rows, results, snapshot, spellings, () => true),
    mena: figures(rows, results, snapshot, spellings, (row) => MENA_COUNTRIES.has(row.country.toUpperCase())),
    miscellaneousShare: ratio(miscellaneous, rows.length),
    perCategory,
    answeredBy: steps,
    confusions: ranked(confusions),
    subConfusions: ranked(subConfusions),
    missCount: misses.length,
    misses,
  };
}
