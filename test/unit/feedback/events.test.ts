import { describe, expect, it } from 'vitest';
import { brandEvent, mappingEvent } from '../../../src/feedback/events.js';

describe('brand-change events', () => {
  it('keys a mapping event by tenant, kind and key (compaction keeps the latest)', () => {
    const event = mappingEvent(
      {
        tenant: 'bank-a',
        kind: 'merchant_id',
        key: 'M-7',
        brand_id: 5,
        sub_category_id: null,
        correction_id: 'c-1',
        version: 42,
      },
      'c-1',
    );
    expect(event).toMatchObject({
      kind: 'brand-change',
      key: 'mapping/bank-a/merchant_id/M-7',
      correctionId: 'c-1',
    });
    expect(JSON.parse(String(event.value))).toEqual({
      type: 'mapping',
      version: 42,
      tenant: 'bank-a',
      kind: 'merchant_id',
      key: 'M-7',
      brand_id: 5,
      sub_category_id: null,
      correction_id: 'c-1',
    });
    expect(event.headers).toEqual({ 'x-change-type': 'mapping', 'x-correction-id': 'c-1' });
  });

  it('keys a brand event by brand id, with what changed', () => {
    const event = brandEvent(7, 3, 'op-1', 'promoted');
    expect(event.key).toBe('brand/7');
    expect(JSON.parse(String(event.value))).toEqual({
      type: 'brand',
      change: 'promoted',
      version: 3,
      brand_id: 7,
      correction_id: 'op-1',
    });
  });
});
