import { beforeAll, describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../../src/data/load.js';
import { CASH_WORDS, isBank } from '../../../src/engine/banks.js';
import { buildSnapshot, type Snapshot } from '../../../src/engine/snapshot.js';
import { tokenize } from '../../../src/engine/text.js';

let snapshot: Snapshot;

beforeAll(() => {
  snapshot = buildSnapshot(loadReferenceData());
});

function brand(slug: string) {
  const b = snapshot.brandsBySlug.get(slug);
  if (!b) throw new Error(`catalog has no brand ${slug}`);
  return b;
}

describe('isBank', () => {
  it('is a bank: Other Financial with a bank’s MCC', () => {
    expect(isBank(brand('hsbc'))).toBe(true);
    expect(isBank(brand('sberbank'))).toBe(true);
  });

  it('is not a bank: a payment service in Other Financial without a bank’s MCC', () => {
    expect(brand('momkn').sub_category_id).toBe('1-4');
    expect(isBank(brand('momkn'))).toBe(false);
  });

  it('is not a bank: a lender or card issuer with a bank’s MCC but another sub-category', () => {
    expect(brand('vanquis').mccs.has('6012')).toBe(true);
    expect(isBank(brand('vanquis'))).toBe(false);
    expect(isBank(brand('souhoola'))).toBe(false);
  });
});

describe('CASH_WORDS', () => {
  it('holds the word for cash in English, Russian and Arabic, folded as texts are', () => {
    for (const word of ['CASH', 'НАЛИЧНЫЕ', 'نقدي']) {
      for (const token of tokenize(word)) expect(CASH_WORDS.has(token)).toBe(true);
    }
    expect(CASH_WORDS.has('card')).toBe(false);
  });
});
