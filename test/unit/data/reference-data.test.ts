import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DATA_DIR, brandFiles, loadReferenceData } from '../../../src/data/load.js';
import {
  brandFileSchema,
  businessLinesSchema,
  intermediariesSchema,
  locationsSchema,
  mccMapSchema,
  rulesSchema,
  taxonomySchema,
  type ReferenceData,
} from '../../../src/data/schemas.js';
import { tokenize } from '../../../src/engine/text.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const MCC_CSV = join(ROOT, '..', 'shared', 'data', 'mcc_codes.csv');

/** The v3 taxonomy of ../shared/spec/enrichment-interface.md, in listed order. */
const SPEC_CATEGORIES: readonly string[] = [
  'Financial Services',
  'ATM',
  'Entertainment',
  'Food and Beverages',
  'Government and Non-Profit',
  'Groceries & Markets',
  'Household',
  'Income',
  'Loan & Credit Payments',
  'Medical',
  'Rent and Utilities',
  'Services',
  'Shopping',
  'Inward Transfer',
  'Outward Transfer',
  'Transportation',
  'Travel',
  'Personal Care',
  'Education',
  'Miscellaneous',
  'Currency Exchange',
];

const MENA = new Set(['AE', 'SA', 'EG', 'KW', 'QA', 'BH', 'OM', 'JO']);

/** A brand or product line, with the countries it trades in (product lines inherit them). */
interface CatalogEntry {
  readonly id: number;
  readonly slug: string;
  readonly file: string;
  readonly sub_category_id: string;
  readonly countries: readonly string[];
  readonly aliases: readonly string[];
}

let data: ReferenceData;
let entries: CatalogEntry[];
let subCategoryIds: Set<string>;

beforeAll(() => {
  data = loadReferenceData();
  entries = [];
  for (const file of brandFiles()) {
    const parsed = brandFileSchema.parse(
      JSON.parse(readFileSync(join(DEFAULT_DATA_DIR, 'brands', file), 'utf8')),
    );
    for (const b of parsed.brands) {
      entries.push({
        id: b.id,
        slug: b.slug,
        file,
        sub_category_id: b.sub_category_id,
        countries: b.countries,
        // The engine matches a display name only when `name_alias` is on (snapshot.ts).
        aliases: [...(b.name_alias ? [b.name] : []), ...b.aliases, ...b.weak_aliases],
      });
      const parentForms = new Set(
        [b.name, ...b.aliases, ...b.weak_aliases].map((a) => tokenize(a).join(' ')),
      );
      for (const line of b.product_lines ?? []) {
        // A line's name that folds to its parent's (`Walmart+`) is not matched as the line's alias.
        const lineName =
          line.name_alias && !parentForms.has(tokenize(line.name).join(' ')) ? [line.name] : [];
        entries.push({
          id: line.id,
          slug: line.slug,
          file,
          sub_category_id: line.sub_category_id,
          countries: b.countries,
          aliases: [...lineName, ...line.aliases],
        });
      }
    }
  }
  subCategoryIds = new Set(data.taxonomy.categories.flatMap((c) => c.sub_categories.map((s) => s.id)));
});

function duplicates<T>(values: readonly T[]): T[] {
  const seen = new Set<T>();
  const dup = new Set<T>();
  for (const v of values) (seen.has(v) ? dup : seen).add(v);
  return [...dup];
}

describe('schemas', () => {
  it('loadReferenceData validates every data file', () => {
    expect(() => loadReferenceData()).not.toThrow();
    expect(data.version).toMatch(
      new RegExp(`^${data.taxonomy.version.replace(/\./g, '\\.')}\\+[0-9a-f]{12}$`),
    );
  });

  it.each([
    ['taxonomy.json', taxonomySchema],
    ['mcc-map.json', mccMapSchema],
    ['intermediaries.json', intermediariesSchema],
    ['rules.json', rulesSchema],
    ['locations.json', locationsSchema],
    ['business-lines.json', businessLinesSchema],
  ] as const)('%s parses with its schema', (file, schema) => {
    const json: unknown = JSON.parse(readFileSync(join(DEFAULT_DATA_DIR, file), 'utf8'));
    const result = schema.safeParse(json);
    expect(result.success, result.success ? '' : JSON.stringify(result.error.issues.slice(0, 5))).toBe(true);
  });

  it('every brand file parses with the brand file schema', () => {
    const files = brandFiles();
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const file of files) {
      const json: unknown = JSON.parse(readFileSync(join(DEFAULT_DATA_DIR, 'brands', file), 'utf8'));
      const result = brandFileSchema.safeParse(json);
      expect(
        result.success,
        `${file}: ${result.success ? '' : JSON.stringify(result.error.issues.slice(0, 5))}`,
      ).toBe(true);
    }
  });

  it('the schemas reject a broken file (so the checks above can fail)', () => {
    expect(taxonomySchema.safeParse({ version: '1', categories: [] }).success).toBe(false);
    expect(
      mccMapSchema.safeParse({ version: '1', map: { '58': { sub_category_id: '4-1', description: '' } } })
        .success,
    ).toBe(false);
  });
});

describe('taxonomy', () => {
  it('has exactly the 21 categories of the spec, in spec order, with ids "1".."21"', () => {
    expect(data.taxonomy.categories.map((c) => c.name)).toEqual(SPEC_CATEGORIES);
    expect(data.taxonomy.categories.map((c) => c.id)).toEqual(SPEC_CATEGORIES.map((_, i) => String(i + 1)));
  });

  it('numbers sub-categories "N-M" contiguously from 1 within each category', () => {
    for (const c of data.taxonomy.categories) {
      expect(
        c.sub_categories.map((s) => s.id),
        c.name,
      ).toEqual(c.sub_categories.map((_, i) => `${c.id}-${i + 1}`));
    }
  });

  it('has 120 sub-categories, including 21-1 Currency Exchange and 20-1 Miscellaneous', () => {
    expect(subCategoryIds.size).toBe(120);
    const all = data.taxonomy.categories.flatMap((c) => c.sub_categories);
    expect(all.find((s) => s.id === '21-1')?.name).toBe('Currency Exchange');
    expect(all.find((s) => s.id === '20-1')?.name).toBe('Miscellaneous');
  });

  it('has an Arabic name for every category and sub-category', () => {
    for (const c of data.taxonomy.categories) {
      expect(c.name_ar).toMatch(/[\u0600-\u06ff]/);
      for (const s of c.sub_categories) expect(s.name_ar, s.id).toMatch(/[\u0600-\u06ff]/);
    }
  });
});

describe('brand catalog', () => {
  it('brand ids are unique across all files, product lines included', () => {
    const dup = duplicates(entries.map((e) => e.id));
    const where = dup.map(
      (id) =>
        `${id}: ${entries
          .filter((e) => e.id === id)
          .map((e) => `${e.slug} (${e.file})`)
          .join(', ')}`,
    );
    expect(dup, `duplicate ids:\n${where.join('\n')}`).toEqual([]);
  });

  it('slugs are unique across all files, product lines included', () => {
    const dup = duplicates(entries.map((e) => e.slug));
    const where = dup.map(
      (slug) =>
        `${slug}: ${entries
          .filter((e) => e.slug === slug)
          .map((e) => `${e.id} (${e.file})`)
          .join(', ')}`,
    );
    expect(dup, `duplicate slugs:\n${where.join('\n')}`).toEqual([]);
  });

  it('every brand logo is brands/<slug>.png', () => {
    const wrong = data.brands
      .filter((b) => b.logo !== `brands/${b.slug}.png`)
      .map((b) => `${b.slug}: ${b.logo}`);
    expect(wrong).toEqual([]);
  });

  it('every sub_category_id exists in the taxonomy', () => {
    const unknown = entries
      .filter((e) => !subCategoryIds.has(e.sub_category_id))
      .map((e) => `${e.slug}: ${e.sub_category_id}`);
    expect(unknown).toEqual([]);
  });

  it('no alias is shared by two brands unless their countries are disjoint', () => {
    const byAlias = new Map<string, CatalogEntry[]>();
    for (const e of entries) {
      for (const folded of new Set(e.aliases.map((a) => tokenize(a).join(' ')))) {
        const list = byAlias.get(folded) ?? [];
        list.push(e);
        byAlias.set(folded, list);
      }
    }
    const overlap = (a: readonly string[], b: readonly string[]): boolean =>
      a.includes('*') || b.includes('*') || a.some((c) => b.includes(c));
    const conflicts: string[] = [];
    for (const [alias, list] of byAlias) {
      for (let i = 0; i < list.length; i++) {
        for (let j = i + 1; j < list.length; j++) {
          const a = list[i] as CatalogEntry;
          const b = list[j] as CatalogEntry;
          if (a.id !== b.id && overlap(a.countries, b.countries)) {
            conflicts.push(`"${alias}": ${a.slug}#${a.id} (${a.file}) and ${b.slug}#${b.id} (${b.file})`);
          }
        }
      }
    }
    expect(conflicts, `aliases shared by brands in the same countries:\n${conflicts.join('\n')}`).toEqual([]);
  });

  it('no alias folds to nothing', () => {
    const empty = entries.flatMap((e) =>
      e.aliases.filter((a) => tokenize(a).length === 0).map((a) => `${e.slug}: "${a}"`),
    );
    expect(empty).toEqual([]);
  });

  it('has at least 2000 brands, 700 of them in a MENA country', () => {
    expect(data.brands.length).toBeGreaterThanOrEqual(2000);
    const mena = data.brands.filter((b) => b.countries.some((c) => MENA.has(c)));
    expect(mena.length).toBeGreaterThanOrEqual(700);
  });

  it('every curated brand and product line has an Arabic name; an imported one has one or none, said honestly', () => {
    const missing: string[] = [];
    const dishonest: string[] = [];
    for (const b of data.brands) {
      for (const x of [b, ...(b.product_lines ?? [])]) {
        if (x.name_ar === undefined) {
          if (!b.nsi_id) missing.push(x.slug);
          if (x.name_ar_source !== undefined) dishonest.push(`${x.slug}: a source for no name`);
        } else if (!/[\u0600-\u06ff]/.test(x.name_ar) || x.name_ar_source === undefined) {
          dishonest.push(`${x.slug}: ${x.name_ar} (${x.name_ar_source ?? 'no source'})`);
        }
        // The index states a brand's Arabic name; nothing is transliterated on import.
        if (b.nsi_id && x.name_ar !== undefined && x.name_ar_source !== 'official') dishonest.push(x.slug);
      }
    }
    expect({ missing, dishonest }).toEqual({ missing: [], dishonest: [] });
  });
});

describe('lines of business', () => {
  it('every line has a known sub-category, known MCCs and words that fold to tokens', () => {
    for (const line of data.businessLines.lines) {
      expect(subCategoryIds.has(line.sub_category_id), line.id).toBe(true);
      for (const m of line.mccs) expect(data.mccMap.map[m], `${line.id}: MCC ${m}`).toBeDefined();
      for (const w of line.words) expect(tokenize(w).length, `${line.id}: "${w}"`).toBeGreaterThan(0);
    }
    expect(duplicates(data.businessLines.lines.map((l) => l.id))).toEqual([]);
  });

  it('every brand names only known lines, none of them its own main trade', () => {
    const lines = new Map(data.businessLines.lines.map((l) => [l.id, l]));
    const wrong = data.brands.flatMap((b) =>
      b.lines
        .filter((id) => !lines.has(id) || lines.get(id)?.sub_category_id === b.sub_category_id)
        .map((id) => `${b.slug}: ${id}`),
    );
    expect(wrong).toEqual([]);
    expect(data.brands.filter((b) => b.lines.length > 0).length).toBeGreaterThan(0);
  });
});

describe('malls', () => {
  /** One sub-category for every mall: Shopping › Other Shopping. */
  const MALLS = '13-14';
  const DUTY_FREE = /duty free/i;

  it('every mall-like venue brand (a shopping venue that is not a duty-free shop) uses the mall sub-category', () => {
    const venues = data.brands.filter(
      (b) => b.venue && b.sub_category_id.startsWith('13-') && !DUTY_FREE.test(b.name),
    );
    expect(venues.length).toBeGreaterThan(30);
    const wrong = venues
      .filter((b) => b.sub_category_id !== MALLS)
      .map((b) => `${b.slug}: ${b.sub_category_id}`);
    expect(wrong).toEqual([]);
  });

  it('every ticket prefix belongs to one airline (Flights), and no two airlines share one', () => {
    const withPrefix = data.brands.filter((b) => b.ticket_prefix !== undefined);
    expect(withPrefix.length).toBeGreaterThan(50);
    expect(withPrefix.filter((b) => b.sub_category_id !== '17-3').map((b) => b.slug)).toEqual([]);
    const prefixes = withPrefix.map((b) => b.ticket_prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });

  it('every venue named a mall is a shopping venue', () => {
    const wrong = data.brands
      .filter((b) => b.venue && /\bmall\b|مول/i.test(`${b.name} ${b.name_ar}`) && b.sub_category_id !== MALLS)
      .map((b) => `${b.slug}: ${b.sub_category_id}`);
    expect(wrong).toEqual([]);
  });
});

describe('MCC map', () => {
  it('maps every code to a known sub-category', () => {
    const unknown = Object.entries(data.mccMap.map)
      .filter(([, v]) => !subCategoryIds.has(v.sub_category_id))
      .map(([code, v]) => `${code} → ${v.sub_category_id}`);
    expect(unknown).toEqual([]);
    expect(Object.keys(data.mccMap.map).length).toBeGreaterThan(0);
  });

  it('covers exactly the codes of ../shared/data/mcc_codes.csv', (ctx) => {
    if (!existsSync(MCC_CSV)) {
      ctx.skip(`${MCC_CSV} is absent: cannot compare the MCC map with the reference code list`);
      return;
    }
    const codes = readFileSync(MCC_CSV, 'utf8')
      .split(/\r?\n/)
      .slice(1)
      .filter((line) => line.trim() !== '')
      .map((line) => line.split(',')[0]?.replace(/"/g, '').trim() ?? '');
    expect(codes.length).toBeGreaterThan(0);
    const mapped = Object.keys(data.mccMap.map);
    const missing = codes.filter((c) => !(c in data.mccMap.map));
    const extra = mapped.filter((c) => !codes.includes(c));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  });
});

describe('intermediaries, rules and locations', () => {
  it('every intermediary has prefixes that fold to tokens', () => {
    for (const i of data.intermediaries.intermediaries) {
      expect(i.prefixes.length, i.id).toBeGreaterThan(0);
      for (const p of i.prefixes) expect(tokenize(p).length, `${i.id}: "${p}"`).toBeGreaterThan(0);
    }
    expect(duplicates(data.intermediaries.intermediaries.map((i) => i.id))).toEqual([]);
  });

  it('every fallback brand of an intermediary exists', () => {
    const slugs = new Set(entries.map((e) => e.slug));
    for (const i of data.intermediaries.intermediaries) {
      if (i.fallback_brand !== null)
        expect(slugs.has(i.fallback_brand), `${i.id} → ${i.fallback_brand}`).toBe(true);
    }
  });

  it('every rule phrase, keyword and noise word folds to tokens', () => {
    const empty = [
      ...data.rules.patterns.flatMap((p) =>
        p.phrases.filter((x) => tokenize(x).length === 0).map((x) => `${p.kind}: "${x}"`),
      ),
      ...data.rules.keywords.flatMap((k) =>
        k.words.filter((w) => tokenize(w).length === 0).map((w) => `${k.sub_category_id}: "${w}"`),
      ),
      ...data.rules.noise_words.filter((w) => tokenize(w).length === 0).map((w) => `noise: "${w}"`),
    ];
    expect(empty).toEqual([]);
  });

  it('every venue word is one of the keywords, and every tenant trade a known category or sub-category', () => {
    const words = new Set(data.rules.keywords.flatMap((k) => k.words.map((w) => tokenize(w).join(' '))));
    expect(data.rules.venues.words.length).toBeGreaterThan(0);
    expect(data.rules.venues.words.filter((w) => !words.has(tokenize(w).join(' ')))).toEqual([]);
    const ids = new Set(
      data.taxonomy.categories.flatMap((c) => [c.id, ...c.sub_categories.map((s) => s.id)]),
    );
    expect(data.rules.venues.tenant_trades.filter((t) => !ids.has(t))).toEqual([]);
  });

  it("every sole proprietor's legal form is one word, and no keyword (a trade word must stay one)", () => {
    const forms = data.rules.sole_proprietor_forms;
    expect(forms.length).toBeGreaterThan(0);
    expect(forms.filter((f) => tokenize(f).length !== 1)).toEqual([]);
    const words = new Set(data.rules.keywords.flatMap((k) => k.words.map((w) => tokenize(w).join(' '))));
    expect(forms.filter((f) => words.has(tokenize(f).join(' ')))).toEqual([]);
  });

  it('every trade modifier is one of the keywords', () => {
    const words = new Set(data.rules.keywords.flatMap((k) => k.words.map((w) => tokenize(w).join(' '))));
    expect(data.rules.trade_modifiers.length).toBeGreaterThan(0);
    expect(data.rules.trade_modifiers.filter((m) => !words.has(tokenize(m).join(' ')))).toEqual([]);
  });

  it('every keyword points at a known sub-category', () => {
    const unknown = data.rules.keywords
      .filter((k) => !subCategoryIds.has(k.sub_category_id))
      .map((k) => k.sub_category_id);
    expect(unknown).toEqual([]);
  });

  it('rules cover every non-merchant kind the brief lists, with Arabic phrases where banks use them', () => {
    const kinds = new Set(data.rules.patterns.map((p) => p.kind));
    for (const kind of [
      'salary',
      'pension',
      'atm_withdrawal',
      'atm_deposit',
      'bank_fee',
      'interest',
      'card_payment',
      'loan_mortgage',
      'loan_car',
      'loan_student',
      'loan_personal',
      'loan_other',
      'refund',
      'transfer',
      'remittance',
      'cheque',
      'tax',
      'currency_exchange',
    ] as const) {
      expect(kinds.has(kind), kind).toBe(true);
    }
    const arabicKinds = new Set(
      data.rules.patterns.filter((p) => p.phrases.some((x) => /[\u0600-\u06ff]/.test(x))).map((p) => p.kind),
    );
    for (const kind of [
      'salary',
      'atm_withdrawal',
      'bank_fee',
      'transfer',
      'remittance',
      'refund',
    ] as const) {
      expect(arabicKinds.has(kind), kind).toBe(true);
    }
  });

  it('locations list countries and cities that fold to tokens', () => {
    expect(data.locations.countries.length).toBeGreaterThan(0);
    expect(data.locations.cities.length).toBeGreaterThan(0);
    const empty = [...data.locations.countries, ...data.locations.cities].filter(
      (x) => tokenize(x).length === 0,
    );
    expect(empty).toEqual([]);
  });

  it('markets group neighbouring countries, each country in one market at most', () => {
    const markets = Object.entries(data.locations.markets);
    expect(markets.length).toBeGreaterThan(0);
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [market, countries] of markets) {
      for (const c of countries) {
        const other = seen.get(c);
        if (other !== undefined) twice.push(`${c} in ${other} and ${market}`);
        seen.set(c, market);
      }
    }
    expect(twice).toEqual([]);
    // Each market holds countries the catalog has brands in: a market of strangers matches nothing.
    const branded = new Set(data.brands.flatMap((b) => b.countries ?? []));
    for (const [market, countries] of markets)
      expect(countries.filter((c) => branded.has(c)).length, market).toBeGreaterThanOrEqual(3);
  });
});
