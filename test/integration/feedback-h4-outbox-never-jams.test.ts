// Guarantee: the outbox can never jam (H4). A ~1 MB feedback record is dead-lettered with its value cut
// to 64 KiB (x-dlq-value-truncated gives the original size) and published; a dead letter larger than the
// dead-letter topic accepts is set aside in the outbox before it is sent (RECORD_TOO_LARGE), and one
// the broker refuses is set aside too (RECORD_REJECTED, after the topic's limit was lowered under the
// relay); each is counted in txenrich_outbox_dead_lettered_total, and after each the relay publishes
// the next correction's records within seconds. The consumer and relay keep running; nothing else is
// set aside.
import { afterAll, describe, expect, it } from 'vitest';
import kafkajs from 'kafkajs';
import { loadReferenceData } from '../../src/data/load.js';
import { withAdmin } from '../support/index.js';
import { at, expectHealthy, letterCodes, startFeedbackRig, type FeedbackRig } from './feedback-harness.js';
import { bounded } from './store-harness.js';

const SHOP = 'JUMEIRAH TAILORING HOUSE';
const brands = loadReferenceData().brands;
const DLQ_LIMIT = 100_000;

describe('feedback H4: the outbox never jams', () => {
  let rig: FeedbackRig | null = null;

  afterAll(async () => {
    await rig?.stop();
  });

  it('publishes a cut dead letter, sets aside what Kafka will not take, and keeps publishing', async () => {
    rig = await startFeedbackRig('fh4', {
      beforeStart: (kafka, topics) =>
        bounded(
          'creating the dead-letter topic',
          withAdmin(kafka, (admin) =>
            admin.createTopics({
              waitForLeaders: true,
              topics: [
                {
                  topic: topics.dlq,
                  numPartitions: 1,
                  configEntries: [{ name: 'max.message.bytes', value: String(DLQ_LIMIT) }],
                },
              ],
            }),
          ),
        ).then(() => undefined),
    });
    await rig.index(
      'bank-a',
      [1, 2, 3].map((i) => at(SHOP, `a-${i}`, `cust-${i}`)),
    );
    const good = (i: number) =>
      rig!.correction({
        correction_id: `h4-good-${i}`,
        tenant: 'bank-a',
        transaction_id: `a-${i}`,
        customer_id: `cust-${i}`,
        brand_id: brands[i]!.id,
        scope: 'transaction',
      });
    const setAside = async () =>
      (
        await rig!.db.query<{ kind: string; failure_code: string }>(
          'SELECT kind, failure_code FROM outbox WHERE failed_at IS NOT NULL ORDER BY id',
        )
      ).rows;

    // 1. A ~1 MB record: its dead letter carries the first 64 KiB.
    const huge = JSON.stringify({
      correction_id: 'h4-huge',
      tenant: 'bank-a',
      transaction_id: 'x'.repeat(1_000_000),
    });
    await rig.send([{ key: 'k', value: huge, headers: { 'tenant-id': 'bank-a' } }, good(1)]);
    await rig.letters.until(1, 30_000, `the cut dead letter\n${rig.logs()}`);
    await rig.reenriched.until(1, 30_000, `the first good correction\n${rig.logs()}`);
    expect(rig.letters.records[0]?.headers['x-dlq-value-truncated']).toBe(String(Buffer.byteLength(huge)));
    expect(rig.letters.records[0]?.raw?.length).toBe(64 * 1024);

    // 2. A dead letter over the topic's limit (its original headers alone are 150 KB): set aside unsent.
    await rig.send([
      { key: 'k', value: 'not json', headers: { 'tenant-id': 'bank-a', 'x-fat': 'h'.repeat(150_000) } },
      good(2),
    ]);
    await rig.reenriched.until(2, 30_000, `the second good correction\n${rig.logs()}`);
    expect(await setAside()).toEqual([{ kind: 'dead-letter', failure_code: 'RECORD_TOO_LARGE' }]);

    // 3. The topic's limit lowered under the relay: the broker refuses the letter; it is set aside.
    await bounded(
      'lowering the dead-letter topic limit',
      withAdmin(rig.kafka, (admin) =>
        admin.alterConfigs({
          validateOnly: false,
          resources: [
            {
              type: kafkajs.ConfigResourceTypes.TOPIC,
              name: rig!.topics.dlq,
              configEntries: [{ name: 'max.message.bytes', value: '4096' }],
            },
          ],
        }),
      ),
    );
    await rig.send([{ key: 'k', value: 'w'.repeat(20_000), headers: { 'tenant-id': 'bank-a' } }, good(3)]);
    await rig.reenriched.until(3, 60_000, `the third good correction\n${rig.logs()}`);
    expect(await setAside()).toEqual([
      { kind: 'dead-letter', failure_code: 'RECORD_TOO_LARGE' },
      { kind: 'dead-letter', failure_code: 'RECORD_REJECTED' },
    ]);

    expect(letterCodes(rig)).toEqual(['INVALID_CORRECTION']);
    expect(rig.reenriched.records.map((r) => r.headers['x-correction-id'])).toEqual([
      'h4-good-1',
      'h4-good-2',
      'h4-good-3',
    ]);
    const metric = await rig.metrics.getSingleMetric('txenrich_outbox_dead_lettered_total')?.get();
    expect(metric?.values.map((v) => [v.labels.code, v.value]).sort()).toEqual([
      ['RECORD_REJECTED', 1],
      ['RECORD_TOO_LARGE', 1],
    ]);
    const pending = await rig.db.query('SELECT 1 FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL');
    expect(pending.rows).toHaveLength(0);
    expect(expectHealthy(rig)).toEqual({ failing: null, readiness: null });
  }, 240_000);
});
