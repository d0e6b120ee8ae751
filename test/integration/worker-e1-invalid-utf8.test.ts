// Guarantee (issue 12, E1): a JSON value with bytes that are not UTF-8 is dead-lettered
// (INVALID_ENCODING, where the bytes break) instead of being decoded with U+FFFD in place of the
// bytes, which altered the transaction id of an enriched record. Good records around it are enriched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goodTransaction, reason, startHostileRun, type HostileRun } from './hostile-input-harness.js';

describe('worker: invalid UTF-8 in JSON (E1)', () => {
  let run: HostileRun;
  beforeAll(async () => {
    run = await startHostileRun('e1');
  });
  afterAll(async () => {
    await run?.stop();
  });

  it('dead-letters it with INVALID_ENCODING and enriches the rest unchanged', async () => {
    const bad = Buffer.from(JSON.stringify(goodTransaction('e1-idXX')));
    bad[bad.indexOf('XX')] = 0xff;
    await run.send([
      { case: 'before', value: JSON.stringify(goodTransaction('e1-before')) },
      { case: 'invalid-utf8', value: bad },
      { case: 'after', value: JSON.stringify(goodTransaction('e1-after')) },
    ]);
    const letters = await run.deadLetters(1);
    expect(reason(letters.get('invalid-utf8'))).toMatchObject({ code: 'INVALID_ENCODING', field: '' });
    expect(letters.get('invalid-utf8')?.value?.equals(bad)).toBe(true);
    const enriched = await run.enriched(['e1-before', 'e1-after']);
    expect(enriched.map((r) => r.transactionId).sort()).toEqual(['e1-after', 'e1-before']);
  });
});
