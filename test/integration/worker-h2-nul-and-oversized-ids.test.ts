// Guarantee (issue 12, H2): a NUL byte in any field or in the tenant-id header, a 10 KB
// transaction_id, or a tenant-id header outside the tenant rule (such as `*`, the store's mark for
// "every tenant") never reaches PostgreSQL: each is dead-lettered once with its catalog code, the
// good records around them are enriched and indexed, the partition never stalls, /readyz stays 200.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goodTransaction, reason, startHostileRun, type HostileRun } from './hostile-input-harness.js';

describe('worker: NUL bytes, oversized ids, bad tenant headers (H2)', () => {
  let run: HostileRun;
  beforeAll(async () => {
    run = await startHostileRun('h2');
  });
  afterAll(async () => {
    await run?.stop();
  });

  it('dead-letters each with its code and keeps enriching and indexing', async () => {
    await run.send([
      { case: 'before', value: JSON.stringify(goodTransaction('h2-before')) },
      {
        case: 'nul-description',
        value: JSON.stringify(goodTransaction('h2-nul-d', { raw_description: 'SPINNEYS\u0000DUBAI' })),
      },
      {
        case: 'nul-city',
        value: JSON.stringify(
          goodTransaction('h2-nul-c', { location: { iso_country_cd: 'AE', city: 'Du\u0000bai' } }),
        ),
      },
      { case: 'nul-id', value: JSON.stringify(goodTransaction('h2-nul\u0000id')) },
      { case: 'long-id', value: JSON.stringify(goodTransaction('x'.repeat(10_240))) },
      {
        case: 'nul-tenant',
        value: JSON.stringify(goodTransaction('h2-nul-t')),
        headers: { 'tenant-id': 'bank\u0000a' },
      },
      {
        case: 'star-tenant',
        value: JSON.stringify(goodTransaction('h2-star')),
        headers: { 'tenant-id': '*' },
      },
      {
        case: 'after',
        value: JSON.stringify(goodTransaction('h2-after')),
        headers: { 'tenant-id': 'bank-a' },
      },
    ]);
    const letters = await run.deadLetters(6);
    expect(reason(letters.get('nul-description'))).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'raw_description',
    });
    expect(reason(letters.get('nul-description')).message).toContain('NUL');
    expect(reason(letters.get('nul-city'))).toMatchObject({ code: 'INVALID_FIELD', field: 'location.city' });
    expect(reason(letters.get('nul-id'))).toMatchObject({ code: 'INVALID_FIELD', field: 'transaction_id' });
    expect(reason(letters.get('long-id'))).toMatchObject({ code: 'INVALID_FIELD', field: 'transaction_id' });
    expect(reason(letters.get('nul-tenant'))).toMatchObject({
      code: 'INVALID_HEADER',
      field: 'headers.tenant-id',
    });
    expect(reason(letters.get('star-tenant'))).toMatchObject({
      code: 'INVALID_HEADER',
      field: 'headers.tenant-id',
    });

    const enriched = await run.enriched(['h2-before', 'h2-after']);
    expect(enriched.map((r) => r.transactionId).sort()).toEqual(['h2-after', 'h2-before']);
    expect((await run.readiness()).status).toBe(200);

    // Both good records reached the store's index; nothing of the bad ones did.
    const db = await run.store.open();
    try {
      const { rows } = await db.query<{ transaction_id: string }>(
        "SELECT transaction_id FROM enriched_index WHERE transaction_id LIKE 'h2-%' ORDER BY transaction_id",
      );
      expect(rows.map((r) => r.transaction_id)).toEqual(['h2-after', 'h2-before']);
    } finally {
      await db.close();
    }
  });
});
