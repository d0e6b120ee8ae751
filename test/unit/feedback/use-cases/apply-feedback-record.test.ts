import { describe, expect, it } from 'vitest';
import {
  checkRecord,
  applyFeedbackRecord,
} from '../../../../src/feedback/use-cases/apply-feedback-record.js';
import { correction, indexed, setup, SHOP, source, spinneys } from '../../../fakes/feedback-fixtures.js';

const body = { ...correction({ transaction_id: 'a-1', customer_id: 'alice', brand_id: spinneys.id }) };
const decoded = (value: unknown) => ({ ok: true as const, value });

describe('checkRecord', () => {
  it('takes the tenant from the tenant-id header, DEFAULT_TENANT when there is none', () => {
    expect(
      checkRecord(decoded(body), source(1, { headers: { 'tenant-id': Buffer.from('bank-a') } }), 'default'),
    ).toMatchObject({
      ok: true,
    });
    expect(checkRecord(decoded({ ...body, tenant: 'default' }), source(1), 'default')).toMatchObject({
      ok: true,
    });
  });

  it('refuses a body whose tenant is not the header’s (M2)', () => {
    const checked = checkRecord(decoded(body), source(3, { headers: { 'tenant-id': 'bank-b' } }), 'default');
    expect(checked).toMatchObject({
      ok: false,
      error: { code: 'TENANT_MISMATCH', field: 'tenant' },
      identity: { tenant: 'bank-b', correctionId: 'feedback:0:3' },
    });
    expect(checkRecord(decoded(body), source(3), 'default')).toMatchObject({
      ok: false,
      error: { code: 'TENANT_MISMATCH' },
    });
  });

  it('refuses the global marker, a NUL byte or two different tenants in the header (H2, H6)', () => {
    for (const tenant of ['*', 'bank\u0000a', ['bank-a', 'bank-b']]) {
      expect(
        checkRecord(decoded(body), source(4, { headers: { 'tenant-id': tenant } }), 'default'),
      ).toMatchObject({
        ok: false,
        error: { code: 'INVALID_HEADER', field: 'tenant-id' },
        identity: { tenant: null },
      });
    }
  });

  it('passes on what decoding or validation found, keyed by the record’s place', () => {
    const headers = { 'tenant-id': 'bank-a' };
    expect(
      checkRecord(
        { ok: false, error: { code: 'NOT_JSON', field: '', message: 'x' } },
        source(5, { headers }),
        'default',
      ),
    ).toMatchObject({
      ok: false,
      error: { code: 'NOT_JSON' },
      identity: { tenant: 'bank-a', correctionId: 'feedback:0:5' },
    });
    expect(checkRecord(decoded({ ...body, tenant: '*' }), source(6, { headers }), 'default')).toMatchObject({
      ok: false,
      error: { code: 'INVALID_CORRECTION', field: 'tenant' },
    });
  });
});

describe('applyFeedbackRecord', () => {
  it('applies a record whose header and body agree, dead-letters one that lies about its tenant', async () => {
    const { store, ctx } = setup([indexed('bank-a', 'a-1', 'alice', `POS ${SHOP}`)]);
    const liar = await applyFeedbackRecord(
      ctx,
      decoded(body),
      source(1, { headers: { 'tenant-id': 'bank-b' } }),
      'default',
    );
    expect(liar).toMatchObject({ status: 'rejected', error: { code: 'TENANT_MISMATCH' } });
    const honest = await applyFeedbackRecord(
      ctx,
      decoded(body),
      source(2, { headers: { 'tenant-id': 'bank-a' } }),
      'default',
    );
    expect(honest).toMatchObject({ status: 'applied' });
    expect(
      store.outbox.filter((m) => m.kind === 'dead-letter').map((m) => m.headers['x-dlq-error-code']),
    ).toEqual(['TENANT_MISMATCH']);
    // The rejected record read again is a duplicate.
    expect(
      await applyFeedbackRecord(
        ctx,
        decoded(body),
        source(1, { headers: { 'tenant-id': 'bank-b' } }),
        'default',
      ),
    ).toMatchObject({ status: 'duplicate' });
  });
});
