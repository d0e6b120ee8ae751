// Guarantee (issue 12, H1): a megabyte-long token in raw_description or merchant_name cannot stall
// the worker: the record is dead-lettered at once (INVALID_FIELD naming the field and the limit),
// a record at the limit is enriched, the records around them are enriched, and the worker stays ready.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_LIMITS } from '../../src/contract/transaction.js';
import { goodTransaction, reason, startHostileRun, type HostileRun } from './hostile-input-harness.js';

describe('worker: long tokens (H1)', () => {
  let run: HostileRun;
  beforeAll(async () => {
    run = await startHostileRun('h1');
  });
  afterAll(async () => {
    await run?.stop();
  });

  it('dead-letters over-long texts and enriches the rest without delay', async () => {
    const token = 'CAREEM'.repeat(165_000); // ~1 MB, no spaces (under the broker's limit with the rest)
    const atLimit = 'TALABAT'.repeat(Math.floor(TEXT_LIMITS.raw_description / 7));
    await run.send([
      { case: 'before', value: JSON.stringify(goodTransaction('h1-before')) },
      {
        case: 'long-description',
        value: JSON.stringify(goodTransaction('h1-long-d', { raw_description: token })),
      },
      {
        case: 'long-merchant',
        value: JSON.stringify(goodTransaction('h1-long-m', { merchant_name: token })),
      },
      {
        case: 'at-limit',
        value: JSON.stringify(goodTransaction('h1-at-limit', { raw_description: atLimit })),
      },
      { case: 'after', value: JSON.stringify(goodTransaction('h1-after')) },
    ]);
    const letters = await run.deadLetters(2);
    expect(reason(letters.get('long-description'))).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'raw_description',
      message: `must be at most ${TEXT_LIMITS.raw_description} characters`,
    });
    expect(reason(letters.get('long-merchant'))).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'merchant_name',
    });
    const enriched = await run.enriched(['h1-before', 'h1-at-limit', 'h1-after']);
    expect(enriched.map((r) => r.transactionId).sort()).toEqual(['h1-after', 'h1-at-limit', 'h1-before']);
    expect((await run.readiness()).status).toBe(200);
  });
});
