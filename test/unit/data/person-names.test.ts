import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DATA_DIR } from '../../../src/data/load.js';
import { personNamesSchema } from '../../../src/data/schemas.js';
import { buildPersonNames, formatPersonNames } from '../../../scripts/import-words.js';

describe('data/person-names.json', () => {
  const text = readFileSync(join(DEFAULT_DATA_DIR, 'person-names.json'), 'utf8');

  it('parses with its schema: folded Latin words, sorted, each once', () => {
    const result = personNamesSchema.safeParse(JSON.parse(text));
    expect(result.success, result.success ? '' : JSON.stringify(result.error.issues.slice(0, 5))).toBe(true);
  });

  it('is what `npm run data:words` makes from the pinned name lists', () => {
    expect(
      text === formatPersonNames(buildPersonNames()),
      'data/person-names.json is stale: run npm run data:words',
    ).toBe(true);
  }, 60_000);

  it('has the common names of English, French, German and Spanish, and leaves out given names that are common words', () => {
    const names = buildPersonNames();
    expect(names.given).toEqual(expect.arrayContaining(['john', 'maria', 'pierre', 'hans']));
    expect(names.surnames).toEqual(expect.arrayContaining(['smith', 'garcia', 'dubois', 'muller']));
    expect(names.given).not.toContain('rose');
    expect(names.given).not.toContain('mark');
  }, 60_000);
});
