import { describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../../src/data/load.js';
import { corpusWordsSchema } from '../../../src/data/schemas.js';
import { tokenize } from '../../../src/engine/text.js';
import { loadCorpusWords } from '../../../scripts/model/train.js';
import { isMerchantClass } from '../../../scripts/model/corpus.js';

describe('data/model/corpus-words.json', () => {
  const words = loadCorpusWords();
  const subCategories = new Set(
    loadReferenceData().taxonomy.categories.flatMap((c) => c.sub_categories.map((s) => s.id)),
  );

  it('names only sub-categories that exist and that merchants can have', () => {
    const wrong = words.trade_words
      .map((t) => t.sub_category_id)
      .filter((id) => !subCategories.has(id) || !isMerchantClass(id));
    expect(wrong).toEqual([]);
  });

  it('has trade words in Arabic written in Latin letters, Russian/Kazakh/Serbian Latin and French', () => {
    const langs = new Set(words.trade_words.map((t) => t.lang));
    expect([...langs].sort()).toEqual(expect.arrayContaining(['ar-Latn', 'ru-Latn', 'fr']));
    expect(
      words.trade_words.filter((t) => t.lang === 'ar-Latn').flatMap((t) => t.words).length,
    ).toBeGreaterThan(300);
  });

  it('has words that all fold to tokens, neutral names in Latin and Arabic letters', () => {
    const empty = [...words.trade_words.flatMap((t) => t.words), ...words.neutral_names].filter(
      (w) => tokenize(w).length === 0,
    );
    expect(empty).toEqual([]);
    expect(words.neutral_names.some((n) => /[\u0600-\u06ff]/.test(n))).toBe(true);
    expect(words.neutral_names.some((n) => /^[a-z ]+$/.test(n))).toBe(true);
  });

  it('has alert templates in the languages of our banks, each naming the merchant once', () => {
    expect(new Set(words.alert_templates.map((t) => t.lang))).toEqual(
      new Set(['en', 'ar', 'ru', 'uk', 'be', 'kk', 'fr', 'de', 'es', 'pt', 'tr']),
    );
    for (const t of words.alert_templates) expect(t.template.split('{m}')).toHaveLength(2);
  });

  it('the schema rejects a template without a merchant and an unknown-shaped language tag', () => {
    const bad = corpusWordsSchema.safeParse({
      version: '1',
      trade_words: [{ sub_category_id: '10-2', lang: 'arabizi', words: ['saydaliya'] }],
      neutral_names: ['noor'],
      alert_templates: [{ lang: 'en', template: 'Purchase of {a}' }],
    });
    expect(bad.success).toBe(false);
    const paths = bad.error?.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['trade_words.0.lang', 'alert_templates.0.template']));
  });
});
