import { beforeAll, describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../../src/data/load.js';
import {
  merchantTypeWords,
  modelDecision,
  namesOnlyAnOwner,
  namesOnlyAPerson,
} from '../../../src/engine/merchant-type.js';
import { normalizeText } from '../../../src/engine/normalize.js';
import { buildSnapshot, type Snapshot } from '../../../src/engine/snapshot.js';
import { enrichOne } from './fixtures.js';

let snapshot: Snapshot;

beforeAll(() => {
  snapshot = buildSnapshot(loadReferenceData());
});

const words = (description: string, merchant = ''): string[] =>
  merchantTypeWords(normalizeText(description, merchant, snapshot), snapshot);

describe('merchantTypeWords', () => {
  it('keeps the merchant words and drops filler words, store numbers and country codes', () => {
    expect(words('POS PURCHASE AL SHIFA PHARMACY 0045 AE')).toEqual(['al', 'shifa', 'pharmacy']);
  });

  it('reads the merchant part of an alert sentence, and the bank-supplied name first', () => {
    expect(words('Purchase of AED 45.00 with Card ending 1234 at GOLDEN BAKERY on 12/03/2025')).toEqual([
      'golden',
      'bakery',
    ]);
    expect(words('POS', 'GOLDEN BAKERY')).toEqual(['golden', 'bakery']);
  });

  it('strips the Arabic article so that الصيدلية and صيدلية read alike', () => {
    expect(words('الصيدلية الحديثة')).toEqual(['صيدليه', 'حديثه']);
  });

  it('skips the words of non-merchant rules: a refund is not a trade', () => {
    expect(words('REFUND GOLDEN BAKERY')).toEqual(['golden', 'bakery']);
    expect(words('POS', 'REVERSAL GOLDEN BAKERY')).toEqual(['golden', 'bakery']);
  });

  it('drops card masks and codes with a run of digits: they name no trade', () => {
    expect(words('VISA PURCHASE GOLDEN BAKERY CARD XXXX1234')).not.toContain('xxxx');
    expect(words('GOLDEN BAKERY S43813274')).toEqual(['golden', 'bakery']);
  });

  it('drops the city, region and country a descriptor prints after the merchant, not a name before it', () => {
    expect(words('GOLDEN BAKERY SAN FRANCISCO CA')).toEqual(['golden', 'bakery']);
    expect(words('POS', 'GOLDEN BAKERY LONDON GBR')).toEqual(['golden', 'bakery']);
    expect(words('ABU DHABI GOLDEN BAKERY')).toEqual(['abu', 'dhabi', 'golden', 'bakery']);
    expect(words('GOLDEN CITY BAKERY')).toEqual(['golden', 'city', 'bakery']);
  });

  it('skips a processor prefix', () => {
    expect(words('SQ *GOLDEN BAKERY')).toEqual(['golden', 'bakery']);
  });
});

describe('modelDecision and categorize', () => {
  it('answers a trade word the catalog does not know, naming the model and its strongest features', () => {
    const e = enrichOne(snapshot, { raw_description: 'SAIDALIAT AL SHIFA' });
    expect(e.brand).toBeNull();
    expect(e.category.name).toBe('Medical');
    expect(e.reasons.category).toMatch(/^model:merchant-type@[0-9a-f]{8} p=(?:0\.\d+|1) \[[a-z]+:[^\]]+\]$/);
    expect(e.confidence).toBeGreaterThan(0);
    expect(e.confidence).toBeLessThanOrEqual(0.75);
  });

  it('declines below its threshold: Miscellaneous, with a reason that says so', () => {
    const d = modelDecision(normalizeText('ZQXV KLMT', '', snapshot), snapshot);
    expect(d?.sub_category_id).toBeNull();
    expect(d?.reason).toMatch(/:below-threshold \d+-\d+ p=[\d.]+<[\d.]+ no-trade=[\d.]+ \[/);
    const e = enrichOne(snapshot, { raw_description: 'ZQXV KLMT' });
    expect(e.category.name).toBe('Miscellaneous');
    expect(e.reasons.category).toMatch(/^fallback:miscellaneous; model:/);
  });

  it('never decides over a catalog brand, a non-merchant rule or an MCC', () => {
    expect(enrichOne(snapshot, { raw_description: 'CARREFOUR PHARMACY' }).reasons.category).toMatch(
      /^brand:/,
    );
    expect(
      enrichOne(snapshot, { raw_description: 'ATM WITHDRAWAL AL SHIFA PHARMACY' }).reasons.category,
    ).toMatch(/^pattern:atm_withdrawal/);
    expect(enrichOne(snapshot, { raw_description: 'SAIDALIAT AL SHIFA', mcc: '5812' }).reasons.category).toBe(
      'mcc:5812',
    );
  });

  it("declines a sole proprietor's owner name: a person's name is no trade word", () => {
    const owner = (description: string, merchant = ''): boolean =>
      namesOnlyAnOwner(normalizeText(description, merchant, snapshot), snapshot);
    // Initials or a patronymic after the legal form, in Cyrillic or Latin letters, with filler around.
    expect(owner('IP PETROVA A.V.')).toBe(true);
    expect(owner('ИП Петрова Анна Владимировна')).toBe(true);
    expect(owner('POS FOP SHEVCHENKO TARAS IVANOVYCH')).toBe(true);
    expect(owner('', 'ЧП Коваленко О.')).toBe(true);
    // A surname alone may be a shop's name; a trade word or more words name more than a person.
    expect(owner('IP IVANOV')).toBe(false);
    expect(owner('IP SIDOROV A A AVTOSERVIS SHINOMONTAZH')).toBe(false);
    expect(owner('ROMASHKA A.V.')).toBe(false);
    const e = enrichOne(snapshot, { raw_description: 'IP PETROVA A.V.' });
    expect(e.category.name).toBe('Miscellaneous');
    expect(e.reasons.category).toMatch(
      /^fallback:miscellaneous; model:merchant-type@[0-9a-f]{8}:declined owner-name$/,
    );
    // A trade word beside the owner's name still names the trade (a keyword, before the model).
    expect(enrichOne(snapshot, { raw_description: 'IP PETROVA A.V. PEKARNYA' }).category.name).toBe(
      'Food and Beverages',
    );
  });

  it("declines a person's name read through a card reader or payment link: a name tells no trade", () => {
    const person = (description: string): boolean => namesOnlyAPerson(words(description), snapshot);
    expect(person('SQ *JOHN SMITH')).toBe(true);
    expect(person('SUMUP *PIERRE DUBOIS')).toBe(true);
    expect(person('ZETTLE_*MARIA ELENA GARCIA')).toBe(true);
    // One name alone may be a shop's; a trade's word (`DDS`) or a place's beside the name says more.
    expect(person('SQ *JOHN')).toBe(false);
    expect(person('JOHN SMITH DDS')).toBe(false);
    expect(person('JOHN SMITH AUTOMOTIVE')).toBe(false);
    // A given name that is a common English word (`Rose`) begins a business's name as often.
    expect(person('SQ *ROSE HILL')).toBe(false);
    // The surname must come last: `SMITH JOHN` reads as a business, as statements print people first-name first.
    expect(person('MARIA GARCIA SMITH JOHN')).toBe(false);
    const e = enrichOne(snapshot, { raw_description: 'SQ *JOHN SMITH' });
    expect(e.category.name).toBe('Miscellaneous');
    expect(e.brand).toBeNull();
    expect(e.reasons.category).toMatch(
      /^fallback:miscellaneous; model:merchant-type@[0-9a-f]{8}:declined person-name$/,
    );
  });

  it('gives no answer without words to read', () => {
    expect(modelDecision(normalizeText('0045 #12', '', snapshot), snapshot)).toBeNull();
  });
});
