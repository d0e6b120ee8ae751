import { describe, expect, it } from 'vitest';
import { locate } from '../../../../src/feedback/steps/locate.js';
import { correction, indexed, setup, SHOP } from '../../../fakes/feedback-fixtures.js';

const rows = [
  indexed('bank-a', 'tx-1', 'cust-1', `POS ${SHOP} DUBAI`, { merchant_id: ' M-7 ' }),
  indexed('bank-a', 'tx-2', 'cust-1', '123456'),
];

async function run(c: ReturnType<typeof correction>) {
  const { store } = setup(rows);
  return store.change(async (tx) => locate(tx, c, (await tx.view()).snapshot));
}

describe('locate step', () => {
  it('finds the transaction of the tenant, its merchant text key and merchant id', async () => {
    const result = await run(correction({ transaction_id: 'tx-1' }));
    expect(result).toMatchObject({ ok: true, value: { merchantId: 'M-7' } });
    expect(result.ok && result.value.textKey).toMatch(/zahrat/);
  });

  it('names a transaction the index lacks, and the same id in another tenant', async () => {
    for (const c of [
      correction({ transaction_id: 'nope' }),
      correction({ tenant: 'bank-b', transaction_id: 'tx-1' }),
    ]) {
      expect(await run(c)).toMatchObject({
        ok: false,
        error: { code: 'UNKNOWN_TRANSACTION', field: 'transaction_id' },
      });
    }
  });

  it('refuses a merchant or global correction of a transaction that names no merchant', async () => {
    for (const scope of ['merchant', 'global'] as const) {
      expect(await run(correction({ transaction_id: 'tx-2', scope }))).toMatchObject({
        ok: false,
        error: { code: 'INVALID_CORRECTION', field: 'scope' },
      });
    }
    expect(await run(correction({ transaction_id: 'tx-2', scope: 'transaction' }))).toMatchObject({
      ok: true,
    });
  });
});
