/**
 * `npm run bench:accuracy`: brand precision and recall, category and sub-category accuracy (overall
 * and per category) on our own labeled set and on the shared real-world dev set, plus the misses.
 * Prints JSON (to stdout, or --json FILE) and a readable table (to stderr when JSON goes to stdout).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadReferenceData } from '../src/data/load.js';
import { enrichBatch } from '../src/engine/enrich.js';
import { buildSnapshot } from '../src/engine/snapshot.js';
import { readLabeledRows, rowToTransaction, score, type Score } from './eval-set.js';

const root = join(import.meta.dirname, '..');
const sets: Record<string, string> = {
  own: join(root, 'bench', 'eval', 'labeled-descriptors.jsonl'),
  dev: process.env.EVAL_DEV_SET ?? join(root, '..', 'shared', 'eval', 'dev-descriptors.jsonl'),
};
const showMisses = process.argv.includes('--misses');
const jsonFile = process.argv.includes('--json')
  ? process.argv[process.argv.indexOf('--json') + 1]
  : undefined;

const snapshot = buildSnapshot(loadReferenceData());
const report: Record<string, Score> = {};
for (const [name, path] of Object.entries(sets)) {
  if (!existsSync(path)) {
    console.error(`skipping ${name}: ${path} not found`);
    continue;
  }
  const rows = readLabeledRows(path);
  const results = enrichBatch(rows.map(rowToTransaction), snapshot);
  report[name] = score(rows, results, snapshot);
}

const table = (lines: string[][]): string => {
  const widths = lines[0]!.map((_, c) => Math.max(...lines.map((l) => (l[c] ?? '').length)));
  return lines.map((l) => l.map((cell, c) => cell.padEnd(widths[c]!)).join('  ')).join('\n');
};
const out: string[] = [];
out.push(
  table([
    ['set', 'rows', 'brand P', 'brand R', 'category', 'sub-category'],
    ...Object.entries(report).map(([name, s]) => [
      name,
      String(s.rows),
      s.brandPrecision.toFixed(3),
      s.brandRecall.toFixed(3),
      s.categoryAccuracy.toFixed(3),
      s.subCategoryAccuracy.toFixed(3),
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
  out.push('', `misses (${name}): ${s.misses.length}${showMisses ? '' : ' (list with --misses)'}`);
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
