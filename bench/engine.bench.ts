/**
 * `npm run bench`: engine throughput on one core (batches of 500, full catalog) and, in the same
 * run, a naive baseline that tests every alias as a regular expression. Prints JSON (stdout) and a
 * readable table (stderr). Compare the ratio, not absolute numbers: these machines are shared.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_DATA_DIR, loadReferenceData } from '../src/data/load.js';
import { validateTransaction, type Transaction } from '../src/contract/transaction.js';
import { enrichBatch } from '../src/engine/enrich.js';
import type { Enrichment } from '../src/engine/types.js';
import { buildSnapshot } from '../src/engine/snapshot.js';
import { generateSamples } from '../src/samples/generate.js';

// `npm run bench` runs this with the service's node options (`npm start`, the Docker image):
// --no-allocation-site-pretenuring, without which V8 sometimes learns from a batch's results (alive
// until the batch ends) to allocate all later ones in the old generation, and 64 MB semi-spaces, so
// that a scavenge does not copy the batch in flight (docs/performance.md).

const BATCH = 500;
const ENGINE_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const BASELINE_RECORDS = Number(process.env.BENCH_BASELINE_RECORDS ?? 1000);

const data = loadReferenceData();
const buildStart = performance.now();
const snapshot = buildSnapshot(data);
const buildMs = performance.now() - buildStart;

const transactions: Transaction[] = [];
for (const s of generateSamples(data, 20_000, { seed: 7 })) {
  const v = validateTransaction(s.value);
  if (v.ok) transactions.push(v.value);
}
const batches = inBatches(transactions);

// The generated samples name catalog brands, non-merchant rows or nothing; under 1 % of them reach
// the merchant-type model, the engine's dearest path. Real statements name many local merchants
// the catalog does not know (a sixth of the second dev set's rows reach the model), so a second
// figure runs the same samples with every third replaced by such a merchant: a neutral shop name, a
// trade word and a city, from the words the model's corpus mixes in (data/model/corpus-words.json).
const mixed = withUnknownMerchants(transactions, 3);
const mixedBatches = inBatches(mixed.transactions);

const main = measure(batches, (r) => r.brand !== null);
const engineSeconds = main.seconds;
const engineRate = main.processed / engineSeconds;
const mixedRun = measure(mixedBatches, (r) => r.reasons.category.startsWith('model:'));
const mixedSeconds = mixedRun.seconds;
const mixedRate = mixedRun.processed / mixedSeconds;

// Naive baseline: every alias compiled once as a case-insensitive word-boundary regex, each tested
// against the description until one hits (what a hand-rolled matcher usually does).
const aliasRegexes: { re: RegExp; brand: number }[] = [];
for (const b of data.brands) {
  for (const a of [b.name, ...b.aliases, ...(b.product_lines ?? []).flatMap((p) => [p.name, ...p.aliases])]) {
    const escaped = a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // Word boundaries the way a hand-rolled matcher writes them. (\\b is ASCII-only: on Arabic text
    // this baseline finds nothing, quickly, which flatters it.)
    aliasRegexes.push({ re: new RegExp(`\\b${escaped}\\b`, 'i'), brand: b.id });
  }
}
const baselineInput = transactions.slice(0, BASELINE_RECORDS);
let baselineHits = 0;
const baselineStart = performance.now();
for (const t of baselineInput) {
  for (const { re } of aliasRegexes) {
    if (re.test(t.raw_description) || (t.merchant_name !== '' && re.test(t.merchant_name))) {
      baselineHits++;
      break;
    }
  }
}
const baselineSeconds = (performance.now() - baselineStart) / 1000;
const baselineRate = baselineInput.length / baselineSeconds;

const result = {
  catalog: {
    brands: data.brands.length,
    product_lines: data.brands.reduce((n, b) => n + (b.product_lines?.length ?? 0), 0),
    alias_patterns: snapshot.aliasPatternCount,
    snapshot_build_ms: Math.round(buildMs),
  },
  engine: {
    batch_size: BATCH,
    records: main.processed,
    seconds: round(engineSeconds),
    records_per_second: Math.round(engineRate),
    brand_share: round(main.counted / main.processed),
  },
  engine_with_unknown_merchants: {
    unknown_merchant_share: round(mixed.replaced / mixed.transactions.length),
    records: mixedRun.processed,
    seconds: round(mixedSeconds),
    records_per_second: Math.round(mixedRate),
    model_path_share: round(mixedRun.counted / mixedRun.processed),
  },
  naive_regex_baseline: {
    regexes: aliasRegexes.length,
    records: baselineInput.length,
    seconds: round(baselineSeconds),
    records_per_second: Math.round(baselineRate),
    brand_share: round(baselineHits / baselineInput.length),
  },
  speedup_vs_baseline: round(engineRate / baselineRate),
  node: process.version,
};
console.log(JSON.stringify(result, null, 2));
const rows = [
  ['measure', 'value'],
  ['brands (+ product lines)', `${result.catalog.brands} (+${result.catalog.product_lines})`],
  ['alias patterns', String(result.catalog.alias_patterns)],
  ['snapshot build', `${result.catalog.snapshot_build_ms} ms`],
  ['engine, records/s (1 core, batch 500)', result.engine.records_per_second.toLocaleString('en')],
  [
    'engine, 1 in 3 unknown merchants, records/s',
    result.engine_with_unknown_merchants.records_per_second.toLocaleString('en'),
  ],
  ['naive regex baseline, records/s', result.naive_regex_baseline.records_per_second.toLocaleString('en')],
  ['speed-up', `${result.speedup_vs_baseline}x`],
];
const w = Math.max(...rows.map((r) => (r[0] as string).length));
console.error(rows.map((r) => `${(r[0] as string).padEnd(w)}  ${r[1]}`).join('\n'));

/**
 * Enriches the batches over and over for ENGINE_SECONDS, after a warm-up of the JIT: how many
 * records, how many of them `count` picked out, and the seconds taken.
 */
function measure(
  list: readonly Transaction[][],
  count: (r: Enrichment) => boolean,
): { processed: number; counted: number; seconds: number } {
  for (const b of list.slice(0, 10)) enrichBatch(b, snapshot);
  let processed = 0;
  let counted = 0;
  const start = performance.now();
  while (performance.now() - start < ENGINE_SECONDS * 1000) {
    for (const b of list) {
      for (const r of enrichBatch(b, snapshot)) if (count(r)) counted++;
      processed += b.length;
    }
  }
  return { processed, counted, seconds: (performance.now() - start) / 1000 };
}

function inBatches(list: readonly Transaction[]): Transaction[][] {
  const out: Transaction[][] = [];
  for (let i = 0; i < list.length; i += BATCH) out.push(list.slice(i, i + BATCH));
  return out;
}

/** Every `every`-th transaction with its text replaced by an unknown local merchant's; deterministic. */
function withUnknownMerchants(
  list: readonly Transaction[],
  every: number,
): { transactions: Transaction[]; replaced: number } {
  const words = JSON.parse(readFileSync(join(DEFAULT_DATA_DIR, 'model', 'corpus-words.json'), 'utf8')) as {
    trade_words: { words: string[] }[];
    neutral_names: string[];
  };
  const trades = words.trade_words.flatMap((t) => t.words);
  const names = words.neutral_names;
  const cities = ['DUBAI', 'RIYADH', 'KUWAIT CITY', 'DOHA', 'MANAMA', 'MUSCAT', 'CAIRO', 'AMMAN', 'BEIRUT'];
  let replaced = 0;
  const out = list.map((t, i) => {
    if (i % every !== every - 1 || t.direction !== 'DEBIT') return t;
    const k = replaced++;
    const text = [
      names[(k * 7) % names.length],
      trades[(k * 13) % trades.length],
      cities[k % cities.length],
    ].join(' ');
    return { ...t, raw_description: text.toUpperCase(), merchant_name: '', mcc: '' };
  });
  return { transactions: out, replaced };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
