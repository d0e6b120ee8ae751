/**
 * Words that name a trade or a shop in general rather than one chain, for the index import: a brand
 * alias made only of them is weak (it names the brand only with a second signal, such as the
 * account's country). Ordinary Russian words (`dictionary-ru`, BSD-3-Clause: stems of the Hunspell
 * dictionary, lower-case entries only, so place and person names do not count) in the Latin letters
 * statements print them in, and the repository's own generic words: category keywords, noise words
 * and non-merchant phrases (data/rules.json), alert words (data/alerts.json), and the model corpus's
 * neutral shop-name words (data/model/corpus-words.json).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DEFAULT_DATA_DIR } from '../../src/data/load.js';
import { tokenize } from '../../src/engine/text.js';

const require = createRequire(import.meta.url);

let cached: ReadonlySet<string> | null = null;

/** Folded one-token and multi-token generic words (`magnit`, `vino`, `red cross`). */
export function genericWords(dataDir: string = DEFAULT_DATA_DIR): ReadonlySet<string> {
  if (cached) return cached;
  const out = new Set<string>();
  const add = (w: string): void => {
    const key = tokenize(w).join(' ');
    if (key) out.add(key);
  };
  // The package exports only its loader; the dictionary sits beside it.
  const dir = dirname(require.resolve('dictionary-ru'));
  for (const line of readFileSync(join(dir, 'index.dic'), 'utf8').split('\n').slice(1)) {
    const stem = line.split('/')[0]?.trim() ?? '';
    // Lower case only: capitalised entries are names of places and people, and abbreviations.
    if (stem.length >= 3 && stem === stem.toLowerCase()) add(stem);
  }
  const rules = JSON.parse(readFileSync(join(dataDir, 'rules.json'), 'utf8')) as {
    patterns: { phrases: string[] }[];
    keywords: { words: string[] }[];
    noise_words: string[];
  };
  for (const p of rules.patterns) p.phrases.forEach(add);
  for (const k of rules.keywords) k.words.forEach(add);
  rules.noise_words.forEach(add);
  const alerts = JSON.parse(readFileSync(join(dataDir, 'alerts.json'), 'utf8')) as Record<string, unknown>;
  for (const v of Object.values(alerts)) if (Array.isArray(v)) (v as string[]).forEach(add);
  const corpus = JSON.parse(readFileSync(join(dataDir, 'model', 'corpus-words.json'), 'utf8')) as {
    neutral_names: string[];
  };
  corpus.neutral_names.forEach(add);
  cached = out;
  return out;
}

let cachedTrade: ReadonlySet<string> | null = null;

/**
 * The category keywords of data/rules.json (`market`, `farmacia`, `garage`), folded: a brand named
 * by one of them is named by its trade, and the word alone cannot tell it from any other shop.
 */
export function tradeKeywords(dataDir: string = DEFAULT_DATA_DIR): ReadonlySet<string> {
  if (cachedTrade) return cachedTrade;
  const rules = JSON.parse(readFileSync(join(dataDir, 'rules.json'), 'utf8')) as {
    keywords: { words: string[] }[];
  };
  cachedTrade = new Set(rules.keywords.flatMap((k) => k.words.map((w) => tokenize(w).join(' '))));
  return cachedTrade;
}
