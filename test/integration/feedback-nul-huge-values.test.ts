// Guarantee: a NUL byte or a huge value in a correction never makes the feedback consumer retry (H2 on
// the feedback topic). NUL in an id, in a new brand's name and in the tenant-id header, a 10 KB
// transaction id, invalid UTF-8 inside a JSON value and a brand id past 32 bits are each dead-lettered
// once with their code — before PostgreSQL could refuse them, which today stalls the consumer for
// ever — and the good correction behind them is applied within seconds; no feedback loop is ever
// reported retrying; nothing else is written.
import { afterAll, describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../src/data/load.js';
import { at, expectHealthy, letterCodes, startFeedbackRig, type FeedbackRig } from './feedback-harness.js';

const SHOP = 'MARINA MOBILE ACCESSORIES';
const brand = loadReferenceData().brands.find((b) => b.slug === 'spinneys')!;

describe('feedback: NUL bytes and huge values', () => {
  let rig: FeedbackRig | null = null;

  afterAll(async () => {
    await rig?.stop();
  });

  it('dead-letters each bad value at once and applies the good correction behind them', async () => {
    rig = await startFeedbackRig('fnul');
    await rig.index('bank-a', [at(SHOP, 'a-1', 'alice')]);
    const good = {
      tenant: 'bank-a',
      transaction_id: 'a-1',
      customer_id: 'alice',
      brand_id: brand.id,
      scope: 'merchant',
    };
    let failingSeen = false;
    const watch = setInterval(() => {
      if (rig!.board.longest()) failingSeen = true;
    }, 50);
    const invalidUtf8 = Buffer.concat([
      Buffer.from('{"correction_id":"nul-utf8","tenant":"bank-a","transaction_id":"a-1'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('","customer_id":"alice","brand_id":1,"scope":"merchant","reported_at":1}'),
    ]);
    await rig.send([
      rig.correction({ ...good, correction_id: 'nul-id', transaction_id: 'a-1\u0000' }),
      rig.correction({
        ...good,
        correction_id: 'nul-brand',
        brand_id: null,
        new_brand: { name: 'Marina\u0000Mobile' },
      }),
      {
        ...rig.correction({ ...good, correction_id: 'nul-header' }),
        headers: { 'tenant-id': 'bank-a\u0000' },
      },
      rig.correction({ ...good, correction_id: 'huge-id', transaction_id: 'x'.repeat(10_000) }),
      { key: 'k', value: invalidUtf8, headers: { 'tenant-id': 'bank-a' } },
      rig.correction({ ...good, correction_id: 'huge-brand-id', brand_id: 2 ** 31 }),
      rig.correction({ ...good, correction_id: 'good' }),
    ]);
    try {
      await rig.letters.until(6, 30_000, `6 dead letters\n${rig.logs()}`);
      await rig.reenriched.until(1, 30_000, `the good correction re-enriched\n${rig.logs()}`);
      await rig.letters.settle(2_000);
    } finally {
      clearInterval(watch);
    }
    expect(letterCodes(rig)).toEqual([
      'INVALID_CORRECTION',
      'INVALID_CORRECTION',
      'INVALID_HEADER',
      'INVALID_CORRECTION',
      'INVALID_ENCODING',
      'INVALID_CORRECTION',
    ]);
    expect(rig.letters.records.map((l) => l.headers['x-dlq-error-field'])).toEqual([
      'transaction_id',
      'new_brand.name',
      'tenant-id',
      'transaction_id',
      '',
      'brand_id',
    ]);
    // The original bytes travel with each dead letter.
    expect(rig.letters.records[4]?.raw?.equals(invalidUtf8)).toBe(true);
    expect(rig.reenriched.records[0]?.headers['x-correction-id']).toBe('good');
    expect(failingSeen).toBe(false);
    expect(rig.services.consumer.counts).toMatchObject({ applied: 1, rejected: 6, skipped: 0 });
    expect((await rig.db.query(`SELECT 1 FROM brands WHERE origin = 'feedback'`)).rows).toHaveLength(0);
    expect(expectHealthy(rig)).toEqual({ failing: null, readiness: null });
  }, 240_000);
});
