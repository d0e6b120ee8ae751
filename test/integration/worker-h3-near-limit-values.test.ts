// Guarantee (issue 12, H3): a record near the broker's size limit (accepted on the input topic) is
// dead-lettered with its value cut to fit the dead-letter topic and a header giving its original
// length, instead of a dead letter the broker refuses (which crashed the worker at every restart).
// The records around it are enriched and the worker keeps running, ready.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRUNCATION_HEADER } from '../../src/kafka/dead-letter.js';
import { headerText } from '../../src/kafka/headers.js';
import { goodTransaction, reason, startHostileRun, type HostileRun } from './hostile-input-harness.js';

describe('worker: values near the broker limit (H3)', () => {
  let run: HostileRun;
  beforeAll(async () => {
    run = await startHostileRun('h3');
  });
  afterAll(async () => {
    const exit = await run?.stop();
    expect(exit?.code).toBe(0);
  });

  it('dead-letters a ~1 MB record cut to fit, with its original length in a header', async () => {
    // As large as the broker's default message.max.bytes (1,048,588) lets the input be: its dead
    // letter, with the reason and source headers added, would be over the dead-letter topic's limit.
    const value = Buffer.alloc(1_046_200, 0x61);
    value.write('{"raw_description": "', 0);
    await run.send([
      { case: 'before', value: JSON.stringify(goodTransaction('h3-before')) },
      { case: 'near-limit', value, headers: { 'tenant-id': 'bank-a', 'x-producer': 'p'.repeat(2_000) } },
      { case: 'after', value: JSON.stringify(goodTransaction('h3-after')) },
    ]);
    const letters = await run.deadLetters(1);
    const letter = letters.get('near-limit');
    expect(reason(letter).code).toBe('NOT_JSON');
    expect(headerText(letter?.headers, TRUNCATION_HEADER.value)).toBe(String(value.length));
    expect(letter?.value?.length).toBeLessThan(value.length);
    expect(letter?.value?.equals(value.subarray(0, letter.value.length))).toBe(true);
    expect(headerText(letter?.headers, 'tenant-id')).toBe('bank-a');

    const enriched = await run.enriched(['h3-before', 'h3-after']);
    expect(enriched.map((r) => r.transactionId).sort()).toEqual(['h3-after', 'h3-before']);
    expect((await run.readiness()).status).toBe(200);
  });
});
