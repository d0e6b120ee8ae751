/**
 * `npm run bench:match`: how often the engine still names a curated brand when its name is printed
 * the ways statements print names — with a city after it, inside POS wording, with a store number,
 * glued into one word, glued to the city, cut by an 18-character field. Names come from the catalog
 * itself (a deterministic quarter of the curated brands, one Latin alias each), never from an
 * evaluation set, so the failure classes it shows may be worked on freely.
 *
 * A row is right when the engine names the brand, its family or its parent; a row where a
 * non-merchant rule took the brand as its channel (a bank and a city read as its cash machine) is
 * counted apart. Prints JSON (stdout) and a table (stderr); `--examples N` lists N failures per
 * variant (stderr).
 */
import type { Transaction } from '../src/contract/transaction.js';
import { loadReferenceData } from '../src/data/load.js';
import type { Brand } from '../src/data/schemas.js';
import { enrichBatch } from '../src/engine/enrich.js';
import { buildSnapshot } from '../src/engine/snapshot.js';
import { rowToTransaction, type LabeledRow } from './eval-set.js';

const examples = process.argv.includes('--examples')
  ? Number(process.argv[process.argv.indexOf('--examples') + 1] ?? 10)
  : 0;

/** A main city per country, as banks print it; elsewhere the country code stands in. */
const CITY: Record<string, string> = {
  AE: 'DUBAI',
  SA: 'RIYADH',
  KW: 'KUWAIT CITY',
  QA: 'DOHA',
  BH: 'MANAMA',
  OM: 'MUSCAT',
  JO: 'AMMAN',
  EG: 'CAIRO',
  LB: 'BEIRUT',
  MA: 'CASABLANCA',
  TN: 'TUNIS',
  DZ: 'ALGER',
  RU: 'MOSCOW',
  BY: 'MINSK',
  KZ: 'ALMATY',
  UA: 'KYIV',
  UZ: 'TASHKENT',
  TR: 'ISTANBUL',
  GB: 'LONDON',
  US: 'NEW YORK',
  FR: 'PARIS',
  DE: 'BERLIN',
  IN: 'MUMBAI',
  AU: 'SYDNEY',
};

const VARIANTS: Record<string, (alias: string, city: string) => string | null> = {
  plain: (a) => a,
  city: (a, c) => `${a} ${c}`,
  pos: (a) => `POS PURCHASE ${a} 4821`,
  store: (a) => `${a} #0231`,
  glued: (a) => (a.includes(' ') ? a.replace(/ /g, '') : null),
  'glued-city': (a, c) => `${a}${c}`,
  'cut-18': (a, c) => (`${a} ${c}`.length > 18 ? `${a} ${c}`.slice(0, 18) : null),
};

/** FNV-1a of the slug: the same quarter of the catalog every run, whatever the file order. */
function picked(slug: string): boolean {
  let h = 0x811c9dc5;
  for (let i = 0; i < slug.length; i++) h = Math.imul(h ^ slug.charCodeAt(i), 0x01000193);
  return (h >>> 0) % 4 === 0;
}

function transaction(text: string, country: string, i: number): Transaction {
  const row: LabeledRow = {
    id: `stress-${i}`,
    raw_description: text,
    merchant_name: null,
    mcc: null,
    direction: 'DEBIT',
    amount: 25,
    iso_currency_cd: 'USD',
    country,
    expected_brand: null,
    expected_category: '',
    expected_sub_category: '',
  };
  return rowToTransaction(row, i);
}

const data = loadReferenceData();
const snapshot = buildSnapshot(data);
const rows: { variant: string; brand: Brand; text: string }[] = [];
const transactions: Transaction[] = [];
for (const brand of data.brands) {
  if (brand.nsi_id !== undefined || !picked(brand.slug)) continue;
  // The longest Latin alias: the name as a statement prints it, not a short code.
  const alias = brand.aliases
    .filter((a) => /^[A-Za-z0-9 '&.+-]+$/.test(a) && a.length >= 5)
    .sort((a, b) => b.length - a.length || a.localeCompare(b))[0];
  if (!alias) continue;
  const country = brand.countries.includes('*') ? 'AE' : (brand.countries[0] as string);
  const city = CITY[country] ?? country;
  for (const [variant, make] of Object.entries(VARIANTS)) {
    const text = make(alias.toUpperCase(), city);
    if (text === null) continue;
    rows.push({ variant, brand, text });
    transactions.push(transaction(text, country, transactions.length));
  }
}

const results = enrichBatch(transactions, snapshot);
const byVariant: Record<string, { rows: number; right: number; channel: number; failures: string[] }> = {};
results.forEach((e, i) => {
  const { variant, brand, text } = rows[i] as (typeof rows)[number];
  const v = (byVariant[variant] ??= { rows: 0, right: 0, channel: 0, failures: [] });
  v.rows++;
  const named = e.brand ? snapshot.brandsById.get(e.brand.id) : undefined;
  const family = e.brand ? snapshot.brandsBySlug.get(e.brand.family) : undefined;
  if (named && (named.id === brand.id || family?.id === brand.id || named.parent_id === brand.id)) v.right++;
  else if (e.rule !== null && e.reasons.brand.startsWith('suppressed-by:')) v.channel++;
  else v.failures.push(`${text} -> ${e.brand?.name ?? '-'} (want ${brand.name})`);
});

const report = Object.fromEntries(
  Object.entries(byVariant).map(([variant, v]) => [
    variant,
    {
      rows: v.rows,
      right: v.right,
      channel: v.channel,
      missed: v.failures.length,
      recall: Math.round((v.right / Math.max(1, v.rows - v.channel)) * 1000) / 1000,
    },
  ]),
);
console.log(JSON.stringify({ catalog_version: snapshot.catalogVersion, variants: report }, null, 2));
const lines = [['variant', 'rows', 'right', 'channel', 'missed', 'recall']];
for (const [variant, r] of Object.entries(report))
  lines.push([
    variant,
    String(r.rows),
    String(r.right),
    String(r.channel),
    String(r.missed),
    r.recall.toFixed(3),
  ]);
const widths = (lines[0] as string[]).map((_, c) => Math.max(...lines.map((l) => (l[c] as string).length)));
console.error(lines.map((l) => l.map((cell, c) => cell.padEnd(widths[c] as number)).join('  ')).join('\n'));
if (examples > 0) {
  for (const [variant, v] of Object.entries(byVariant)) {
    console.error(`\n${variant}: ${v.failures.length} missed`);
    for (const f of v.failures.slice(0, examples)) console.error(`  ${f}`);
  }
}
