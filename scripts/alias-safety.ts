/**
 * `npm run data:alias-safety [-- --fix]`: lists every one-token alias that is matched as strong but
 * is an ordinary word (data/alias-rules.json and scripts/word-lists.ts say which), and with --fix
 * declares it weak in its brand file. The data test fails on any such alias, so this is how a
 * catalog change is made safe.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_DATA_DIR, brandFiles } from '../src/data/load.js';
import { brandFileSchema, type Brand, type ProductLine } from '../src/data/schemas.js';
import { tokenize } from '../src/engine/text.js';
import { loadWordLists, weakness, type DictionaryClass } from './word-lists.js';

export interface UnsafeAlias {
  readonly file: string;
  readonly slug: string;
  readonly alias: string;
  readonly why: Exclude<DictionaryClass, 'short'>;
}

type Entry = (Brand | ProductLine) & { weak_aliases?: string[] };

/** Aliases the engine matches as strong: the name (unless `name_alias` is off) and `aliases`, minus declared weak ones. */
function strongAliases(entry: Entry): string[] {
  const weak = new Set((entry.weak_aliases ?? []).map((a) => tokenize(a).join(' ')));
  return [...(entry.name_alias ? [entry.name] : []), ...entry.aliases].filter(
    (a) => !weak.has(tokenize(a).join(' ')),
  );
}

/**
 * Every strong one-token alias that is a dictionary word or a given name. Short ones are not listed:
 * the engine treats every alias of three letters or fewer as weak by itself.
 */
export function findUnsafeAliases(dataDir: string = DEFAULT_DATA_DIR): UnsafeAlias[] {
  const lists = loadWordLists();
  const found: UnsafeAlias[] = [];
  for (const file of brandFiles(dataDir)) {
    const parsed = brandFileSchema.parse(JSON.parse(readFileSync(join(dataDir, 'brands', file), 'utf8')));
    for (const brand of parsed.brands) {
      for (const entry of [brand, ...(brand.product_lines ?? [])] as Entry[]) {
        for (const alias of strongAliases(entry)) {
          const why = weakness(alias, lists);
          if (why && why !== 'short') found.push({ file, slug: entry.slug, alias, why });
        }
      }
    }
  }
  return found;
}

function fix(unsafe: readonly UnsafeAlias[], dataDir: string): void {
  const byFile = new Map<string, UnsafeAlias[]>();
  for (const u of unsafe) byFile.set(u.file, [...(byFile.get(u.file) ?? []), u]);
  for (const [file, list] of byFile) {
    const path = join(dataDir, 'brands', file);
    const text = readFileSync(path, 'utf8');
    const json = JSON.parse(text) as { brands: Entry[] & { product_lines?: Entry[] }[] };
    for (const brand of json.brands as (Entry & { product_lines?: Entry[] })[]) {
      for (const entry of [brand, ...(brand.product_lines ?? [])]) {
        for (const u of list.filter((x) => x.slug === entry.slug)) {
          const weak = entry.weak_aliases ?? [];
          if (!weak.some((w) => tokenize(w).join(' ') === tokenize(u.alias).join(' '))) weak.push(u.alias);
          entry.weak_aliases = weak;
        }
      }
    }
    writeFileSync(path, `${JSON.stringify(json, null, indentOf(text))}\n`);
  }
}

/** The file's own indentation, so a fix changes only the lines it must. */
export function indentOf(json: string): number {
  return /\n( +)"/.exec(json)?.[1]?.length ?? 2;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const unsafe = findUnsafeAliases();
  for (const u of unsafe) console.log(`${u.why}\t${u.slug}\t${u.alias}\t${u.file}`);
  const counts = unsafe.reduce<Record<string, number>>(
    (acc, u) => ({ ...acc, [u.why]: (acc[u.why] ?? 0) + 1 }),
    {},
  );
  console.error(`${unsafe.length} strong one-token aliases are ordinary words: ${JSON.stringify(counts)}`);
  if (process.argv.includes('--fix')) {
    fix(unsafe, DEFAULT_DATA_DIR);
    console.error('declared them weak');
  }
}
