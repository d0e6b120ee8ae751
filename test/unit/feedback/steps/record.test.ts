import { describe, expect, it } from 'vitest';
import { offsetKey, recordRejection } from '../../../../src/feedback/steps/record.js';
import { correction, setup, source } from '../../../fakes/feedback-fixtures.js';

describe('record step', () => {
  it('writes a rejection’s audit row and its dead letter in the same change', async () => {
    const { store } = setup();
    const c = correction({ brand_id: 5 });
    const from = source(7, { headers: { 'tenant-id': 'bank-a' } });
    await store.change((tx) =>
      recordRejection(
        tx,
        from,
        { tenant: 'bank-a', correctionId: 'c-1', correction: c },
        {
          code: 'UNKNOWN_BRAND',
          field: 'brand_id',
          message: 'brand 5 is not in the brand store',
        },
      ),
    );
    expect(store.corrections).toEqual([
      expect.objectContaining({
        correction_id: 'c-1',
        tenant: 'bank-a',
        status: 'rejected',
        reason: 'UNKNOWN_BRAND brand_id: brand 5 is not in the brand store',
        source: 'feedback:0:7',
      }),
    ]);
    expect(store.corrections[0]?.content_digest).toMatch(/^[0-9a-f]{32}$/);
    expect(store.outbox.map((m) => [m.kind, m.headers['x-dlq-error-code']])).toEqual([
      ['dead-letter', 'UNKNOWN_BRAND'],
    ]);
    // The audit keeps no customer id.
    expect(JSON.stringify(store.corrections)).not.toContain('cust-1');
  });

  it('keys a record without a trustworthy id by its place on the topic', () => {
    expect(offsetKey(source(42, { topic: 'fb', partition: 2 }))).toBe('fb:2:42');
  });
});
