import { describe, expect, it } from 'vitest';
import { InfrastructureError } from '../../../src/errors/catalog.js';
import { prepareRow, takeWhileFits, toHeaders } from '../../../src/feedback/relay-batch.js';
import type { OutboxRow } from '../../../src/store/outbox.js';

describe('relay batches', () => {
  it('keeps each topic of a transaction under its limit, and always takes at least one record', () => {
    const limit = () => 1_000;
    const items = [
      { topic: 'a', bytes: 400 },
      { topic: 'b', bytes: 900 },
      { topic: 'a', bytes: 400 },
      { topic: 'a', bytes: 400 },
    ];
    expect(takeWhileFits(items, limit)).toBe(3);
    expect(takeWhileFits([{ topic: 'a', bytes: 5_000 }], limit)).toBe(1);
    expect(takeWhileFits([], limit)).toBe(0);
  });

  it('turns a stored header list back into kafkajs headers (a repeated name becomes a list)', () => {
    expect(
      toHeaders([
        ['a', Buffer.from('1')],
        ['a', Buffer.from('2')],
        ['b', Buffer.from('3')],
      ]),
    ).toEqual({ a: [Buffer.from('1'), Buffer.from('2')], b: Buffer.from('3') });
  });
});

describe('prepareRow', () => {
  const row = (over: Partial<OutboxRow> = {}): OutboxRow => ({
    id: '7',
    kind: 'dead-letter',
    key: Buffer.from('k'),
    value: Buffer.from('v'),
    record: null,
    headers: [['x-dlq-error-code', Buffer.from('NOT_JSON')]],
    correctionId: 'c-1',
    ...over,
  });
  const target = (limit: number, encode = async () => Buffer.from('avro')) => ({
    topic: 't',
    limitOf: () => limit,
    encode,
  });

  it('makes the record with its outbox id, and says how large it is', async () => {
    const prepared = await prepareRow(row(), target(1_000_000));
    expect(prepared).toMatchObject({
      topic: 't',
      message: { key: Buffer.from('k'), value: Buffer.from('v') },
    });
    expect('message' in prepared && prepared.message.headers?.['x-outbox-id']).toBe('7');
  });

  it('fails a row larger than its topic accepts, before it is sent (H4)', async () => {
    const prepared = await prepareRow(row({ value: Buffer.alloc(5_000) }), target(4_096));
    expect(prepared).toMatchObject({ failure: { code: 'RECORD_TOO_LARGE', kind: 'data' } });
  });

  it('fails a record our code cannot encode (a bug), and throws when the registry is down', async () => {
    const bug = await prepareRow(
      row({ kind: 'reenriched', record: {} }),
      target(1_000_000, async () => {
        throw new TypeError('invalid "int": undefined');
      }),
    );
    expect(bug).toMatchObject({ failure: { code: 'PROCESSING_FAILED', kind: 'bug' } });
    await expect(
      prepareRow(
        row({ kind: 'reenriched', record: {} }),
        target(1_000_000, async () => {
          throw new InfrastructureError('REGISTRY_UNAVAILABLE', 'no answer');
        }),
      ),
    ).rejects.toThrow(/REGISTRY_UNAVAILABLE/);
  });
});
