// Guarantee (issue 12, M5): an Avro record whose registered schema has an array of nulls cannot make
// the worker build millions of items from a few bytes: the body is refused before decoding
// (AVRO_DECODE_FAILED naming the field), the records around it are enriched, the worker stays ready.
import { COMPATIBILITY, SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stackEnv } from '../support/index.js';
import { goodTransaction, reason, startHostileRun, type HostileRun } from './hostile-input-harness.js';

describe('worker: Avro collections announcing millions of items (M5)', () => {
  let run: HostileRun;
  beforeAll(async () => {
    run = await startHostileRun('m5');
  });
  afterAll(async () => {
    await run?.stop();
  });

  it('refuses the body before decoding it', async () => {
    const registry = new SchemaRegistry({ host: stackEnv().schemaRegistryUrl });
    const { id } = await registry.register(
      {
        type: SchemaType.AVRO,
        schema: JSON.stringify({
          type: 'record',
          name: 'Hostile',
          fields: [{ name: 'xs', type: { type: 'array', items: 'null' } }],
        }),
      },
      { subject: `${run.raw}-hostile-value`, compatibility: COMPATIBILITY.NONE },
    );
    const header = Buffer.alloc(5);
    header.writeInt32BE(id, 1);
    // A block of 30,000,000 null items (zig-zag varint), then the end of the array.
    const value = Buffer.concat([header, Buffer.from([0x80, 0x9b, 0xee, 0x1c, 0x00])]);
    await run.send([
      { case: 'before', value: JSON.stringify(goodTransaction('m5-before')) },
      { case: 'hostile', value },
      { case: 'after', value: JSON.stringify(goodTransaction('m5-after')) },
    ]);
    const letters = await run.deadLetters(1);
    expect(reason(letters.get('hostile'))).toMatchObject({ code: 'AVRO_DECODE_FAILED', field: 'xs' });
    expect(reason(letters.get('hostile')).message).toContain('announces more than');
    const enriched = await run.enriched(['m5-before', 'm5-after']);
    expect(enriched.map((r) => r.transactionId).sort()).toEqual(['m5-after', 'm5-before']);
    expect((await run.readiness()).status).toBe(200);
  });
});
