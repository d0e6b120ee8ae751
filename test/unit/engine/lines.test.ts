import { beforeAll, describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../../src/data/load.js';
import { buildSnapshot, type Snapshot } from '../../../src/engine/snapshot.js';
import { enrichOne, slugOf } from './fixtures.js';

let snapshot: Snapshot;

beforeAll(() => {
  snapshot = buildSnapshot(loadReferenceData());
});

function outcome(raw_description: string, overrides: { mcc?: string; country?: string } = {}) {
  const e = enrichOne(snapshot, { raw_description, ...overrides });
  return { brand: slugOf(snapshot, e), sub: e.sub_category.id, reason: e.reasons.category };
}

describe('lines of business', () => {
  it('a warehouse club’s fuel station is fuel, by a line word or by the MCC', () => {
    expect(outcome('COSTCO GAS #0123', { country: 'US' })).toMatchObject({ brand: 'costco', sub: '16-6' });
    expect(outcome('COSTCO WHSE #0123', { country: 'US', mcc: '5542' })).toMatchObject({
      brand: 'costco',
      sub: '16-6',
    });
    expect(outcome('COSTCO WHSE #0123', { country: 'US' })).toMatchObject({ brand: 'costco', sub: '6-1' });
  });

  it('a supermarket’s station named in Arabic is fuel', () => {
    expect(outcome('كارفور محطة الوقود', { country: 'AE' })).toMatchObject({
      brand: 'carrefour',
      sub: '16-6',
    });
  });

  it('a ride app charged as a restaurant is its food delivery line', () => {
    const e = outcome('CAREEM', { mcc: '5814' });
    expect(e).toMatchObject({ brand: 'careem', sub: '4-2' });
    expect(e.reason).toContain('line:food-delivery+mcc:5814');
    expect(outcome('CAREEM', {})).toMatchObject({ brand: 'careem', sub: '16-4' });
  });

  it('a marketplace’s grocery arm and an airline’s duty free', () => {
    expect(outcome('JUMIA MART CAIRO', { country: 'EG' })).toMatchObject({ brand: 'jumia', sub: '6-2' });
    expect(outcome('EMIRATES AIRLINE DUTY FREE')).toMatchObject({ brand: 'emirates', sub: '13-10' });
    expect(outcome('EMIRATES AIRLINE DXB')).toMatchObject({ brand: 'emirates', sub: '17-3' });
  });

  it('a charity’s shop sells second-hand goods; a payment with the donations MCC or word is a donation', () => {
    const slug = [...snapshot.brandsBySlug.values()].find((b) => b.name === 'British Red Cross')?.slug;
    expect(slug).toBeDefined();
    expect(outcome('BRITISH RED CROSS 0412 LONDON', { country: 'GB' })).toMatchObject({
      brand: slug,
      sub: '13-2',
    });
    const e = outcome('BRITISH RED CROSS 0412 LONDON', { country: 'GB', mcc: '8398' });
    expect(e).toMatchObject({ brand: slug, sub: '5-3' });
    expect(e.reason).toContain('line:donation+mcc:8398');
    expect(outcome('BRITISH RED CROSS DONATION', { country: 'GB' })).toMatchObject({
      brand: slug,
      sub: '5-3',
    });
  });

  it('a brand without the line keeps its trade whatever the words', () => {
    expect(outcome('STARBUCKS FOOD', { country: 'AE' })).toMatchObject({ brand: 'starbucks', sub: '4-3' });
  });
});
