// Guarantee: one tenant never changes what every tenant sees (H5). Global corrections from customer
// ids a tenant invents are dead-lettered (NOT_TRANSACTION_OWNER); three real customers of one tenant
// agreeing stay proposals — no global mapping, nothing re-enriched anywhere; the first agreeing
// customer of a second tenant completes the quorum (GLOBAL_CORRECTION_QUORUM customers from
// GLOBAL_CORRECTION_MIN_TENANTS tenants) and the global mapping re-enriches both tenants'
// transactions at that merchant within seconds. The consumer and the relay keep running.
import { afterAll, describe, expect, it } from 'vitest';
import {
  at,
  expectHealthy,
  feedbackConsumed,
  letterCodes,
  startFeedbackRig,
  type FeedbackRig,
} from './feedback-harness.js';

const SHOP = 'BAIT AL QAHWA ROASTERY';

describe('feedback H5: a global quorum needs owners from two tenants', () => {
  let rig: FeedbackRig | null = null;

  afterAll(async () => {
    await rig?.stop();
  });

  it('keeps one tenant’s reports proposals, applies the quorum once a second tenant agrees', async () => {
    rig = await startFeedbackRig('fh5');
    await rig.index('bank-a', [at(SHOP, 'a-1', 'alice'), at(SHOP, 'a-2', 'bob'), at(SHOP, 'a-3', 'dave')]);
    await rig.index('bank-b', [at(SHOP, 'b-1', 'carol')]);
    const report = (id: string, tenant: string, transaction: string, customer: string) =>
      rig!.correction({
        correction_id: id,
        tenant,
        transaction_id: transaction,
        customer_id: customer,
        sub_category_id: '13-13',
        scope: 'global',
      });

    // Invented customers: not counted, dead-lettered.
    await rig.send([1, 2, 3].map((i) => report(`forged-${i}`, 'bank-a', 'a-1', `ghost-${i}`)));
    // Three real customers of one tenant.
    await rig.send([
      report('h5-a1', 'bank-a', 'a-1', 'alice'),
      report('h5-a2', 'bank-a', 'a-2', 'bob'),
      report('h5-a3', 'bank-a', 'a-3', 'dave'),
    ]);
    await feedbackConsumed(rig);
    await rig.letters.until(3, 30_000, `3 dead letters\n${rig.logs()}`);
    const proposals = await rig.db.query<{ status: string }>(
      `SELECT status FROM corrections WHERE correction_id LIKE 'h5-a%' ORDER BY correction_id`,
    );
    expect(proposals.rows.map((r) => r.status)).toEqual(['proposed', 'proposed', 'proposed']);
    expect((await rig.db.query(`SELECT 1 FROM learned_mappings WHERE tenant = '*'`)).rows).toHaveLength(0);
    await rig.reenriched.settle(2_000);
    expect(rig.reenriched.records).toHaveLength(0);
    expect(letterCodes(rig)).toEqual([
      'NOT_TRANSACTION_OWNER',
      'NOT_TRANSACTION_OWNER',
      'NOT_TRANSACTION_OWNER',
    ]);

    // A customer of a second tenant agrees: the quorum is reached.
    const sentAt = Date.now();
    await rig.send([report('h5-b1', 'bank-b', 'b-1', 'carol')]);
    await rig.reenriched.until(4, 30_000, `4 re-enriched records\n${rig.logs()}`);
    process.stderr.write(
      `[feedback-h5] quorum → re-enriched records: ${rig.reenriched.records[3]!.receivedAt - sentAt} ms\n`,
    );
    await rig.reenriched.settle(2_000);
    expect(
      rig.reenriched.records.map((r) => `${r.headers['tenant-id']}/${String(r.value.transaction_id)}`).sort(),
    ).toEqual(['bank-a/a-1', 'bank-a/a-2', 'bank-a/a-3', 'bank-b/b-1']);
    for (const r of rig.reenriched.records) {
      expect(r.value.sub_category_id).toBe('13-13');
      expect(r.headers['x-reenrich-reason']).toBe('correction:global');
    }
    const globals = await rig.db.query<{ correction_id: string }>(
      `SELECT correction_id FROM learned_mappings WHERE tenant = '*'`,
    );
    expect(globals.rows).toEqual([{ correction_id: 'h5-b1' }]);
    expect(expectHealthy(rig)).toEqual({ failing: null, readiness: null });
  }, 240_000);
});
