/**
 * Labeled descriptor sets: reading them, turning rows into transactions, and scoring the engine's
 * answers. Shared by `npm run bench:accuracy` and the accuracy unit test.
 */
import { readFileSync } from 'node:fs';
import type { Transaction } from '../src/contract/transaction.js';
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

/**
 * A predicted brand is right when its name, or its parent brand's name for a product line, equals
 * the expected name or one of the row's accepted alternatives, after folding case, accents and
 * punctuation (`Caffè Nero` = `CAFFE NERO`).
 */
export function brandMatches(row: LabeledRow, e: Enrichment, snapshot: Snapshot): boolean {
  if (!row.expected_brand || !e.brand) return false;
  const expected = new Set([row.expected_brand, ...(row.expected_brand_aliases ?? [])].map(key));
  // `e& (Etisalat)`: a renamed brand shows its former name in brackets; either name is right.
  const names = [e.brand.name, ...alternativeNames(e.brand.name)];
  const family = snapshot.brandsBySlug.get(e.brand.family);
  if (family) names.push(family.name, ...alternativeNames(family.name));
  if (names.some((n) => expected.has(key(n)))) return true;
  // A label may use the short form of the catalog's full name (`Vue` for `Vue Cinemas`, `Nahdi`
  // for `Al Nahdi Pharmacy`). Accepted only when every label word is in the name and the category
  // agrees, so a namesake in another trade (`Jumbo` the grocer, `Jumbo Electronics`) stays wrong.
  if (e.category.name !== row.expected_category) return false;
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

export interface Score {
  readonly rows: number;
  readonly brandPredicted: number;
  readonly brandExpected: number;
  readonly brandCorrect: number;
  readonly brandPrecision: number;
  readonly brandRecall: number;
  readonly categoryAccuracy: number;
  readonly subCategoryAccuracy: number;
  readonly perCategory: Record<string, { rows: number; category: number; subCategory: number }>;
  readonly misses: Miss[];
}

export interface Miss {
  readonly id: string;
  readonly description: string;
  readonly expected: string;
  readonly got: string;
  readonly reasons: string;
}

export function score(
  rows: readonly LabeledRow[],
  results: readonly Enrichment[],
  snapshot: Snapshot,
): Score {
  let brandPredicted = 0;
  let brandExpected = 0;
  let brandCorrect = 0;
  let category = 0;
  let sub = 0;
  const perCategory: Score['perCategory'] = {};
  const misses: Miss[] = [];
  rows.forEach((row, i) => {
    const e = results[i] as Enrichment;
    const brandOk = brandMatches(row, e, snapshot);
    if (e.brand) brandPredicted++;
    if (row.expected_brand) brandExpected++;
    if (brandOk) brandCorrect++;
    const catOk = e.category.name === row.expected_category;
    const subOk = catOk && e.sub_category.name === row.expected_sub_category;
    if (catOk) category++;
    if (subOk) sub++;
    const bucket = (perCategory[row.expected_category] ??= { rows: 0, category: 0, subCategory: 0 });
    bucket.rows++;
    if (catOk) bucket.category++;
    if (subOk) bucket.subCategory++;
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
  const ratio = (a: number, b: number): number => (b === 0 ? 1 : Math.round((a / b) * 1000) / 1000);
  return {
    rows: rows.length,
    brandPredicted,
    brandExpected,
    brandCorrect,
    brandPrecision: ratio(brandCorrect, brandPredicted),
    brandRecall: ratio(brandCorrect, brandExpected),
    categoryAccuracy: ratio(category, rows.length),
    subCategoryAccuracy: ratio(sub, rows.length),
    perCategory,
    misses,
  };
}
