import { describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../../src/data/load.js';
import { enrichBatch } from '../../../src/engine/enrich.js';
import { buildSnapshot } from '../../../src/engine/snapshot.js';
import { brandMatches, brandSpellings, rowToTransaction, type LabeledRow } from '../../../bench/eval-set.js';

const data = loadReferenceData();
const snapshot = buildSnapshot(data);
const spellings = brandSpellings(data.brands);

function labeled(raw: string, country: string, expectedBrand: string, expectedCategory: string): LabeledRow {
  return {
    raw_description: raw,
    merchant_name: null,
    mcc: null,
    direction: 'DEBIT',
    amount: 12,
    iso_currency_cd: 'USD',
    country,
    expected_brand: expectedBrand,
    expected_category: expectedCategory,
    expected_sub_category: '',
  };
}

describe('brandMatches', () => {
  const row = labeled('EWA BILL PAYMENT', 'BH', 'EWA', 'Rent and Utilities');
  const [e] = enrichBatch([rowToTransaction(row, 0)], snapshot);

  it('reads the engine as naming the brand the label names by another catalog spelling', () => {
    expect(e?.brand?.name).toBe('Electricity & Water Authority');
    expect(e?.category.name).toBe('Rent and Utilities');
    expect(brandMatches(row, e!, snapshot, spellings)).toBe(true);
    // Without the catalog's spellings only the brand's own name counts.
    expect(brandMatches(row, e!, snapshot)).toBe(false);
  });

  it('takes a spelling only when the category agrees: a namesake in another trade stays wrong', () => {
    const otherTrade = { ...row, expected_category: 'Shopping' };
    expect(brandMatches(otherTrade, e!, snapshot, spellings)).toBe(false);
  });

  it('takes the name itself, folded, whatever the category', () => {
    const byName = labeled('EWA BILL PAYMENT', 'BH', 'ELECTRICITY & WATER AUTHORITY', 'Shopping');
    expect(brandMatches(byName, e!, snapshot)).toBe(true);
  });
});
