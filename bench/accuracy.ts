/**
 * `npm run bench:accuracy`: brand precision and recall, category and sub-category accuracy (overall,
 * per category, and for rows from MENA countries apart), the top category and sub-category confusions, and which
 * step answered (catalog, rule, MCC, keyword, model, Miscellaneous), for our own labeled set and each
 * shared real-world dev set. Prints JSON (to stdout, or --json FILE) and a readable table (to stderr
 * when JSON goes to stdout).
 *
 * The dev sets measure and never teach: only aggregates are reported for them. `--misses` lists the
 * misses of our own set only.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadReferenceData } from '../src/data/load.js';
import { enrichBatch } from '../src/engine/enrich.js';
import { buildSnapshot } from '../src/engine/snapshot.js';
import { brandSpellings, readLabeledRows, rowToTransaction, score, type Score } from './eval-set.js';

const root = join(import.meta.dirname, '..');
const shared = join(root, '..', 'shared', 'eval');
const sets: Record<string, { path: string; misses: boolean }> = {
  own: { path: join(root, 'bench', 'eval', 'labeled-descriptors.jsonl'), misses: true },
  dev: { path: process.env.EVAL_DEV_SET ?? join(shared, 'dev-descriptors.jsonl'), misses: false },
  'dev-2': { path: process.env.EVAL_DEV_SET_2 ?? join(shared, 'dev-descriptors-2.jsonl'), misses: false },
};
const showMisses = process.argv.includes('--misses');
const withoutModel = process.argv.includes('--no-model');
const jsonFile = process.argv.includes('--json')
  ? process.argv[process.argv.indexOf('--json') + 1]
  : undefined;

const data = loadReferenceData();
const snapshot = buildSnapshot(withoutModel ? { ...data, model: undefined } : data);
const spellings = brandSpellings(data.brands);
const report: Record<string, Score> = {};
for (const [name, set] of Object.entries(sets)) {
  if (!existsSync(set.path)) {
    console.error(`skipping ${name}: ${set.path} not found`);
    continue;
  }
  const rows = readLabeledRows(set.path);
  const results = enrichBatch(rows.map(rowToTransaction), snapshot);
  const s = score(rows, results, snapshot, spellings);
  // Rows of a dev set never leave this process: a listed miss would invite fitting to it.
  report[name] = set.misses ? s : { ...s, misses: [] };
}

const table = (lines: string[][]): string => {
  const widths = lines[0]!.map((_, c) => Math.max(...lines.map((l) => (l[c] ?? '').length)));
  return lines.map((l) => l.map((cell, c) => cell.padEnd(widths[c]!)).join('  ')).join('\n');
};
const f3 = (x: number): string => x.toFixed(3);
const out: string[] = [];
out.push(
  table([
    ['set', 'rows', 'brand P', 'brand R', 'category', 'sub-category', 'Misc share'],
    ...Object.entries(report).flatMap(([name, s]) => [
      [
        name,
        String(s.rows),
        f3(s.brandPrecision),
        f3(s.brandRecall),
        f3(s.categoryAccuracy),
        f3(s.subCategoryAccuracy),
        f3(s.miscellaneousShare),
      ],
      [
        `  ${name} MENA`,
        String(s.mena.rows),
        f3(s.mena.brandPrecision),
        f3(s.mena.brandRecall),
        f3(s.mena.categoryAccuracy),
        f3(s.mena.subCategoryAccuracy),
        '',
      ],
    ]),
  ]),
);
out.push(
  '',
  'answered by (share of rows; in brackets: category accuracy of those rows). miscellaneous: the model',
  'declined; misc-no-words: no merchant words for it to read; other: Other Transfer In for a credit:',
);
const steps = ['catalog', 'rule', 'mcc', 'keyword', 'model', 'miscellaneous', 'misc-no-words', 'other'];
out.push(
  table([
    ['set', ...steps],
    ...Object.entries(report).map(([name, s]) => [
      name,
      ...steps.map((st) => {
        const d = s.answeredBy[st];
        return d ? `${(d.rows / s.rows).toFixed(2)} (${(d.category / d.rows).toFixed(2)})` : '-';
      }),
    ]),
  ]),
);
for (const [name, s] of Object.entries(report)) {
  out.push('', `per category (${name}):`);
  out.push(
    table([
      ['category', 'rows', 'category', 'sub-category'],
      ...Object.entries(s.perCategory)
        .sort((a, b) => b[1].rows - a[1].rows)
        .map(([cat, v]) => [
          cat,
          String(v.rows),
          (v.category / v.rows).toFixed(2),
          (v.subCategory / v.rows).toFixed(2),
        ]),
    ]),
  );
  out.push('', `top category confusions (${name}): expected -> got, rows`);
  for (const c of s.confusions.slice(0, 10)) out.push(`  ${c.expected} -> ${c.got}: ${c.rows}`);
  out.push('', `top sub-category confusions, category right (${name}): expected -> got, rows`);
  for (const c of s.subConfusions.slice(0, 8)) out.push(`  ${c.expected} -> ${c.got}: ${c.rows}`);
  out.push(
    '',
    `misses (${name}): ${s.missCount}${sets[name]?.misses ? (showMisses ? '' : ' (list with --misses)') : ' (a dev set: never listed)'}`,
  );
  if (showMisses) {
    for (const m of s.misses)
      out.push(`  ${m.id}: ${m.description}\n      want ${m.expected}\n      got  ${m.got}  [${m.reasons}]`);
  }
}
const json = JSON.stringify(
  { catalog_version: snapshot.catalogVersion, engine_version: snapshot.engineVersion, sets: report },
  null,
  2,
);
if (jsonFile) {
  writeFileSync(jsonFile, json);
  console.log(out.join('\n'));
} else {
  console.log(json);
  console.error(out.join('\n'));
}
