// Guarantee: a correction id is unique per tenant (M3). The same id from two tenants is two
// corrections, both applied (two audit rows, each tenant's records re-enriched); the same record again
// is a duplicate (nothing more); the same id with other content is dead-lettered once
// (CORRECTION_ID_REUSED) — never dropped silently — and a replay of the whole feedback topic changes
// and publishes nothing more. The consumer and the relay keep running.
import { afterAll, describe, expect, it } from 'vitest';
import { withAdmin } from '../support/index.js';
import {
  at,
  expectHealthy,
  feedbackConsumed,
  letterCodes,
  startFeedbackRig,
  type FeedbackRig,
} from './feedback-harness.js';
import { bounded } from './store-harness.js';

const SHOP = 'DANA PLAZA FLOWERS';

describe('feedback M3: correction ids per tenant', () => {
  let rig: FeedbackRig | null = null;

  afterAll(async () => {
    await rig?.stop();
  });

  it('applies one id from two tenants twice, dead-letters a re-used id once, replays change nothing', async () => {
    rig = await startFeedbackRig('fm3');
    await rig.index('bank-a', [at(SHOP, 'a-1', 'alice')]);
    await rig.index('bank-b', [at(SHOP, 'b-1', 'carol')]);
    const a = rig.correction({
      correction_id: 'c-1',
      tenant: 'bank-a',
      transaction_id: 'a-1',
      customer_id: 'alice',
      sub_category_id: '13-4',
      scope: 'merchant',
    });
    const b = rig.correction({
      correction_id: 'c-1',
      tenant: 'bank-b',
      transaction_id: 'b-1',
      customer_id: 'carol',
      sub_category_id: '13-4',
      scope: 'merchant',
    });
    const reused = rig.correction({
      correction_id: 'c-1',
      tenant: 'bank-a',
      transaction_id: 'a-1',
      customer_id: 'alice',
      sub_category_id: '13-8',
      scope: 'merchant',
    });
    await rig.send([a, b, a, reused]);
    await rig.reenriched.until(2, 30_000, `both tenants re-enriched\n${rig.logs()}`);
    await rig.letters.until(1, 30_000, `the re-used id dead-lettered\n${rig.logs()}`);
    await feedbackConsumed(rig);
    await Promise.all([rig.reenriched.settle(2_000), rig.letters.settle(2_000), rig.changes.settle(2_000)]);

    expect(rig.reenriched.records.map((r) => r.headers['tenant-id']).sort()).toEqual(['bank-a', 'bank-b']);
    expect(letterCodes(rig)).toEqual(['CORRECTION_ID_REUSED']);
    expect(rig.letters.records[0]?.headers['x-dlq-error-field']).toBe('correction_id');
    const audit = await rig.db.query<{ tenant: string; correction_id: string; status: string }>(
      'SELECT tenant, correction_id, status FROM corrections ORDER BY tenant, correction_id',
    );
    expect(audit.rows).toEqual([
      { tenant: 'bank-a', correction_id: 'c-1', status: 'applied' },
      // A re-used id cannot take the first correction's key: the record's topic:partition:offset.
      {
        tenant: 'bank-a',
        correction_id: expect.stringMatching(/^fm3\.feedback-.*:\d+:\d+$/),
        status: 'rejected',
      },
      { tenant: 'bank-b', correction_id: 'c-1', status: 'applied' },
    ]);

    // Replay the whole topic: nothing changes, nothing more is published.
    const published = [rig.reenriched.records.length, rig.letters.records.length, rig.changes.records.length];
    const digest = async () =>
      (
        await rig!.db.query<{ d: string }>(
          `SELECT md5(string_agg(c::text, '|' ORDER BY correction_id, tenant)) AS d FROM corrections c`,
        )
      ).rows[0]?.d;
    const before = await digest();
    await rig.services.consumer.stop();
    await bounded(
      'resetting the feedback offsets',
      withAdmin(rig.kafka, (admin) =>
        admin.resetOffsets({
          groupId: `${rig!.group}-feedback`,
          topic: rig!.topics.feedback,
          earliest: true,
        }),
      ),
    );
    await bounded('restarting the feedback consumer', rig.services.consumer.start(), 60_000);
    await feedbackConsumed(rig);
    await Promise.all([rig.reenriched.settle(3_000), rig.letters.settle(3_000), rig.changes.settle(3_000)]);
    expect([rig.reenriched.records.length, rig.letters.records.length, rig.changes.records.length]).toEqual(
      published,
    );
    expect(await digest()).toBe(before);
    expect(rig.services.consumer.counts.duplicate).toBeGreaterThanOrEqual(4);
    expect(expectHealthy(rig)).toEqual({ failing: null, readiness: null });
  }, 240_000);
});
