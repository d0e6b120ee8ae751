// Guarantee: a new brand's texts have limits at the door (M4): a 300,000-character Arabic name, a
// 200 KB website and a 121-character name are each dead-lettered once (INVALID_CORRECTION, naming the
// field) and create no brand; a new brand right at the limits (120-character name and Arabic name,
// 512-character website) behind them is created and its re-enriched record published within seconds.
// The consumer and the relay keep running.
import { afterAll, describe, expect, it } from 'vitest';
import { at, expectHealthy, letterCodes, startFeedbackRig, type FeedbackRig } from './feedback-harness.js';

const SHOP = 'SAHARA SILVER JEWELLERY';

describe('feedback M4: limits of new brands', () => {
  let rig: FeedbackRig | null = null;

  afterAll(async () => {
    await rig?.stop();
  });

  it('dead-letters over-long brand texts, applies a brand at the limits', async () => {
    rig = await startFeedbackRig('fm4');
    await rig.index('bank-a', [at(SHOP, 'a-1', 'alice')]);
    const base = { tenant: 'bank-a', transaction_id: 'a-1', customer_id: 'alice', scope: 'merchant' };
    const site = 'https://sahara.example/';
    await rig.send([
      rig.correction({
        ...base,
        correction_id: 'm4-name-ar',
        new_brand: { name: 'Sahara Silver', name_ar: 'ف'.repeat(300_000) },
      }),
      rig.correction({
        ...base,
        correction_id: 'm4-website',
        new_brand: { name: 'Sahara Silver', website: site + 'a'.repeat(200_000) },
      }),
      rig.correction({ ...base, correction_id: 'm4-name', new_brand: { name: 'S'.repeat(121) } }),
      rig.correction({
        ...base,
        correction_id: 'm4-at-limits',
        new_brand: {
          name: 'S'.repeat(120),
          name_ar: 'ف'.repeat(120),
          website: site + 'a'.repeat(512 - site.length),
        },
      }),
    ]);
    await rig.letters.until(3, 30_000, `3 dead letters\n${rig.logs()}`);
    await rig.reenriched.until(1, 30_000, `the brand at the limits\n${rig.logs()}`);
    expect(letterCodes(rig)).toEqual(['INVALID_CORRECTION', 'INVALID_CORRECTION', 'INVALID_CORRECTION']);
    expect(rig.letters.records.map((l) => l.headers['x-dlq-error-field'])).toEqual([
      'new_brand.name_ar',
      'new_brand.website',
      'new_brand.name',
    ]);
    expect(rig.reenriched.records[0]?.value).toMatchObject({
      brand_name: 'S'.repeat(120),
      brand_name_ar: 'ف'.repeat(120),
    });
    expect(String(rig.reenriched.records[0]?.value.brand_url)).toHaveLength(512);
    const brands = await rig.db.query<{ name: string }>(`SELECT name FROM brands WHERE origin = 'feedback'`);
    expect(brands.rows).toEqual([{ name: 'S'.repeat(120) }]);
    expect(expectHealthy(rig)).toEqual({ failing: null, readiness: null });
  }, 240_000);
});
