/**
 * Alias safety (issue 14): a one-token alias that is an ordinary word, a given name or shorter than
 * four letters is weak, and no such word alone, without a second signal, yields a brand.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakerAR } from '@faker-js/faker';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DATA_DIR, loadReferenceData } from '../../../src/data/load.js';
import { aliasRulesSchema, type ReferenceData } from '../../../src/data/schemas.js';
import { enrichBatch } from '../../../src/engine/enrich.js';
import { buildSnapshot, type Snapshot } from '../../../src/engine/snapshot.js';
import { tokenize } from '../../../src/engine/text.js';
import { findUnsafeAliases } from '../../../scripts/alias-safety.js';
import { buildWords, formatWords } from '../../../scripts/import-words.js';
import { loadWordLists, weakness } from '../../../scripts/word-lists.js';
import { txn } from '../engine/fixtures.js';

let data: ReferenceData;
let snapshot: Snapshot;

beforeAll(() => {
  data = loadReferenceData();
  snapshot = buildSnapshot(data);
});

describe('alias rules', () => {
  it('data/alias-rules.json parses with its schema and names institution words that fold to tokens', () => {
    const json: unknown = JSON.parse(readFileSync(join(DEFAULT_DATA_DIR, 'alias-rules.json'), 'utf8'));
    const parsed = aliasRulesSchema.safeParse(json);
    expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 5))).toBe(true);
    for (const w of data.aliasRules.institution_words) expect(tokenize(w).length, w).toBe(1);
  });

  it('no strong one-token alias is an ordinary word or a given name (`npm run data:alias-safety -- --fix`)', () => {
    const unsafe = findUnsafeAliases().map((u) => `${u.why}: ${u.slug} "${u.alias}" (${u.file})`);
    expect(unsafe, `declare these weak_aliases:\n${unsafe.join('\n')}`).toEqual([]);
  }, 60_000);

  it('the check recognises each kind of unsafe alias (so the test above can fail)', () => {
    const lists = loadWordLists();
    expect(weakness('TIME', lists)).toBe('english');
    expect(weakness('Discovery', lists)).toBe('english');
    expect(weakness('HILTON', lists)).toBe('given-name');
    expect(weakness('كريم', lists)).toBe('given-name');
    expect(weakness('طلبات', lists)).toBe('arabic');
    expect(weakness('PIA', lists)).toBe('short');
    expect(weakness('CARREFOUR', lists)).toBeNull();
    expect(weakness('TIME OUT', lists)).toBeNull();
  }, 60_000);
});

describe('city names never hide a merchant’s name', () => {
  // Place words are dropped from the end of a merchant's name and count as filler before and after a
  // brand's name: a city that is also an ordinary word (`SALT` in Jordan, `TYRE` in Lebanon) or a
  // given name would cut shop names short. Only these world cities, known by everyone, are kept.
  const WELL_KNOWN = new Set([
    'hail',
    'alexandria',
    'london',
    'camden',
    'cork',
    'limerick',
    'paris',
    'geneva',
    'roma',
    'milan',
    'florence',
    'houston',
    'dallas',
    'sydney',
    'samara',
    'odessa',
  ]);

  it('no one-token city is a common English word or a given name, but for a few world cities', () => {
    const lists = loadWordLists();
    const clashes = data.locations.cities
      .map((c) => tokenize(c))
      .filter(
        (t) => t.length === 1 && (lists.english.has(t[0] as string) || lists.givenNames.has(t[0] as string)),
      )
      .map((t) => t[0] as string)
      .filter((t) => !WELL_KNOWN.has(t));
    expect(clashes).toEqual([]);
  }, 60_000);
});

describe('data/words.json', () => {
  it('is what `npm run data:words` makes from the pinned word lists', () => {
    const file = readFileSync(join(DEFAULT_DATA_DIR, 'words.json'), 'utf8');
    expect(file === formatWords(buildWords()), 'data/words.json is stale: run npm run data:words').toBe(true);
  }, 60_000);
});

describe('property: no dictionary word alone yields a brand', () => {
  /**
   * "Alone": the word is the whole description, with no MCC, no processor prefix and an account in
   * a country no brand trades in (Antarctica), so no second signal can speak for it.
   */
  function brandsFor(words: readonly string[]): string[] {
    // One customer each: the recurring check would otherwise compare every pair of them.
    const results = enrichBatch(
      words.map((w, i) => txn({ raw_description: w, country: 'AQ', customer_id: `c${i}` })),
      snapshot,
    );
    return results.flatMap((r, i) => (r.brand ? [`${words[i]} → ${r.brand.name}`] : []));
  }

  it('holds for every common English word and English given name', () => {
    const lists = loadWordLists();
    const words = [...new Set([...lists.english, ...lists.givenNames])].filter((w) => /^[a-z]+$/.test(w));
    expect(words.length).toBeGreaterThan(30_000);
    const found = brandsFor(words);
    expect(found, found.slice(0, 50).join('\n')).toEqual([]);
  }, 120_000);

  it('holds for every Arabic given name and every Arabic one-word alias that is a dictionary word', () => {
    const lists = loadWordLists();
    const arabicNames = [...lists.givenNames].filter((w) => /[\u0600-\u06ff]/.test(w));
    const arabicAliases = data.brands.flatMap((b) =>
      [b.name_ar ?? '', ...b.aliases, ...b.weak_aliases].filter(
        (a) => /[\u0600-\u06ff]/.test(a) && tokenize(a).length === 1 && lists.arabicWord(a.trim()),
      ),
    );
    expect(arabicNames.length).toBeGreaterThan(1_000);
    expect(arabicAliases.length).toBeGreaterThan(50);
    const fakerNames = Object.values(fakerAR.definitions.person?.first_name ?? {}).flat();
    const found = brandsFor([...arabicNames, ...arabicAliases, ...fakerNames]);
    expect(found, found.slice(0, 50).join('\n')).toEqual([]);
  }, 120_000);

  it('can fail: the same words with the brand’s own MCC do yield it', () => {
    const [r] = enrichBatch([txn({ raw_description: 'TIME', country: 'AQ', mcc: '5192' })], snapshot);
    expect(r?.brand?.name).toBe('TIME');
  });
});
