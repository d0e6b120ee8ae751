// Guarantee: a correction counts only when it comes from the customer who owns the transaction, under
// the tenant its record's tenant-id header names. A correction by another customer of the same tenant
// (NOT_TRANSACTION_OWNER) and one whose body names another tenant than its header (TENANT_MISMATCH)
// are each dead-lettered once with their code and change nothing; the owner's correction behind them
// is applied and re-enriched within seconds; the consumer and the relay keep running (M2).
import { afterAll, describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../src/data/load.js';
import { at, expectHealthy, letterCodes, startFeedbackRig, type FeedbackRig } from './feedback-harness.js';

const SHOP = 'AL FANAR PERFUMES';
const brand = loadReferenceData().brands.find((b) => b.slug === 'spinneys')!;

describe('feedback M2: the transaction’s customer, under its own tenant', () => {
  let rig: FeedbackRig | null = null;

  afterAll(async () => {
    await rig?.stop();
  });

  it('dead-letters a non-owner’s and a mislabelled correction, applies the owner’s', async () => {
    rig = await startFeedbackRig('fm2');
    await rig.index('bank-a', [
      at(SHOP, 'a-1', 'alice'),
      at(SHOP, 'a-2', 'bob', { occurred_at: '2026-10-02' }),
    ]);
    const base = { tenant: 'bank-a', transaction_id: 'a-1', brand_id: brand.id, scope: 'merchant' };
    await rig.send([
      rig.correction({ ...base, correction_id: 'm2-not-owner', customer_id: 'bob' }),
      // The body says bank-a, the header bank-b.
      {
        ...rig.correction({ ...base, correction_id: 'm2-mislabelled', customer_id: 'alice' }),
        headers: { 'tenant-id': 'bank-b' },
      },
      rig.correction({ ...base, correction_id: 'm2-owner', customer_id: 'alice' }),
    ]);

    await rig.letters.until(2, 30_000, `2 dead letters\n${rig.logs()}`);
    await rig.reenriched.until(2, 30_000, `the owner's correction re-enriched\n${rig.logs()}`);
    await Promise.all([rig.letters.settle(2_000), rig.reenriched.settle(2_000)]);

    expect(letterCodes(rig)).toEqual(['NOT_TRANSACTION_OWNER', 'TENANT_MISMATCH']);
    expect(rig.letters.records.map((l) => l.headers['x-dlq-error-field'])).toEqual(['customer_id', 'tenant']);
    expect(rig.reenriched.records.map((r) => r.value.transaction_id).sort()).toEqual(['a-1', 'a-2']);
    for (const r of rig.reenriched.records) {
      expect(r.value.brand_id).toBe(brand.id);
      expect(r.headers['x-correction-id']).toBe('m2-owner');
    }
    const { rows } = await rig.db.query<{ correction_id: string; status: string }>(
      'SELECT correction_id, status FROM corrections ORDER BY received_at',
    );
    expect(rows).toEqual([
      { correction_id: expect.stringMatching(/^m2-not-owner$/), status: 'rejected' },
      { correction_id: expect.stringMatching(/:1$/), status: 'rejected' },
      { correction_id: 'm2-owner', status: 'applied' },
    ]);
    const mappings = await rig.db.query<{ correction_id: string }>(
      'SELECT correction_id FROM learned_mappings',
    );
    expect(mappings.rows.map((m) => m.correction_id)).toEqual(['m2-owner']);
    expect(expectHealthy(rig)).toEqual({ failing: null, readiness: null });
  }, 240_000);
});
