import avro from 'avsc';
import { describe, expect, it } from 'vitest';
import {
  AvroBoundsError,
  checkAvroBounds,
  hasCollections,
  type AvroTypeLike,
} from '../../../src/schema-registry/avro-bounds.js';

const typeOf = (schema: object) =>
  avro.Type.forSchema(schema as avro.Schema) as unknown as AvroTypeLike & avro.Type;

const nested = typeOf({
  type: 'record',
  name: 'Outer',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'tags', type: { type: 'map', values: { type: 'array', items: 'int' } } },
    { name: 'maybe', type: ['null', { type: 'fixed', name: 'F', size: 3 }] },
    { name: 'kind', type: { type: 'enum', name: 'K', symbols: ['A', 'B'] } },
    { name: 'score', type: 'double' },
  ],
});

describe('checkAvroBounds', () => {
  it('passes what avsc writes, for every type it walks', () => {
    const value = {
      id: 'x',
      tags: { a: [1, 2, 3], b: [] },
      maybe: Buffer.from('abc'),
      kind: 'B',
      score: 1.5,
    };
    expect(() => checkAvroBounds(nested, (nested as avro.Type).toBuffer(value))).not.toThrow();
    expect(hasCollections(nested)).toBe(true);
  });

  it('refuses a body announcing more items than the bound, naming where', () => {
    const value = {
      id: 'x',
      tags: { a: Array.from({ length: 50 }, (_, i) => i) },
      maybe: null,
      kind: 'A',
      score: 0,
    };
    const body = (nested as avro.Type).toBuffer(value);
    expect(() => checkAvroBounds(nested, body, { maxItems: 10, maxDepth: 32 })).toThrow(
      new AvroBoundsError('tags[0]', 'announces more than 10 array or map items'),
    );
  });

  it('refuses counts and lengths that run past the end, and out-of-range branches', () => {
    const strings = typeOf({ type: 'record', name: 'S', fields: [{ name: 's', type: 'string' }] });
    expect(() => checkAvroBounds(strings, Buffer.from([0x20, 0x61]))).toThrow(/needs 16 bytes/);
    const union = typeOf({ type: 'record', name: 'U', fields: [{ name: 'u', type: ['null', 'int'] }] });
    expect(() => checkAvroBounds(union, Buffer.from([0x08]))).toThrow(/union branch 4 out of range/);
    expect(() =>
      checkAvroBounds(
        strings,
        Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]),
      ),
    ).toThrow(/longer than 10 bytes|out of range/);
  });

  it('a schema without arrays or maps needs no walk', () => {
    expect(hasCollections(typeOf({ type: 'record', name: 'P', fields: [{ name: 'a', type: 'long' }] }))).toBe(
      false,
    );
  });
});
