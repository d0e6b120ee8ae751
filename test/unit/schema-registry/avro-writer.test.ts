// Guarantee: the flat-record writer writes enriched records byte for byte as avsc does (repeated and
// unique strings, Arabic and astral text, nulls, ints and longs of every size), before and after it
// decides which fields' strings to keep; it throws for a value that does not fit the schema, reports
// missing room like avsc, and declines schemas it does not handle.
import avro from 'avsc';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileFlatRecordWriter } from '../../../src/schema-registry/avro-writer.js';
import { framedEncoder } from '../../../src/schema-registry/codec.js';
import { seededRandom as random } from '../../../src/samples/generate.js';

const schema = JSON.parse(readFileSync('schemas/enriched-transaction.avsc', 'utf8')) as avro.Schema;
const type = avro.Type.forSchema(schema);

const PIECES = ['a', 'Z', '7', ' ', '-', '"', 'é', 'ك', 'ة', '٣', '€', '😀', '\n', '\u0000'];

function text(rnd: () => number, max: number): string {
  let s = '';
  const n = Math.floor(rnd() * max);
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(rnd() * PIECES.length)];
  return s;
}

/** A few hundred "brands" and "categories" repeat; ids and references are unique. */
function records(count: number, seed: number) {
  const rnd = random(seed);
  const names = Array.from({ length: 300 }, () => text(rnd, 40));
  const ints = [
    0,
    1,
    -1,
    63,
    64,
    -64,
    -65,
    8191,
    8192,
    2 ** 30 - 1,
    2 ** 30,
    -(2 ** 30),
    2 ** 31 - 1,
    -(2 ** 31),
  ];
  const longs = [0, 1_795_663_410_564, 2 ** 53 - 2, -(2 ** 52), 2 ** 31, -(2 ** 31) - 1, 1_073_741_824];
  return Array.from({ length: count }, (_, i) => {
    const pick = () => names[Math.floor(rnd() * names.length)] as string;
    const nullOr = <T>(v: T) => (rnd() < 0.2 ? null : v);
    return {
      transaction_id: rnd() < 0.9 ? `tx-${seed}-${i}` : text(rnd, 30),
      customer_id: `cust-${Math.floor(rnd() * 5000)}`,
      brand_id: nullOr(ints[Math.floor(rnd() * ints.length)] as number),
      brand_name: nullOr(pick()),
      brand_logo: nullOr(rnd() < 0.5 ? `https://logo.example/${pick()}.png` : ''),
      brand_name_ar: nullOr(pick()),
      brand_url: nullOr(pick()),
      category_id: String(Math.floor(rnd() * 20)),
      category_name: pick(),
      category_name_ar: pick(),
      sub_category_id: `${Math.floor(rnd() * 20)}-${Math.floor(rnd() * 9)}`,
      sub_category_name: rnd() < 0.01 ? text(rnd, 400) : pick(),
      sub_category_name_ar: pick(),
      recurring: rnd() < 0.3,
      ref_id: nullOr(rnd() < 0.5 ? `ref-${i}` : text(rnd, 20)),
      revision: ints[Math.floor(rnd() * ints.length)] as number,
      enriched_at: longs[Math.floor(rnd() * longs.length)] as number,
    };
  });
}

describe('compileFlatRecordWriter', () => {
  it('writes the bytes avsc writes, for 20,000 varied records through the trial and after it', () => {
    const writer = compileFlatRecordWriter(type.schema());
    expect(writer).not.toBeNull();
    const buf = Buffer.alloc(1 << 20);
    for (const r of records(20_000, 11)) {
      const end = writer!.encode(r, buf, 3);
      expect(Buffer.compare(buf.subarray(3, end), type.toBuffer(r))).toBe(0);
    }
  });

  it('gives the same values through the framed encoder, across buffers, as avsc decodes them', () => {
    const encode = framedEncoder(compileFlatRecordWriter(type.schema())!, 77);
    const all = records(6_000, 12);
    const values = all.map((r) => encode(r));
    all.forEach((r, i) => {
      expect(values[i]!.readInt32BE(1)).toBe(77);
      expect({ ...type.fromBuffer(values[i]!.subarray(5)) }).toStrictEqual(r);
    });
  });

  it('reports the bytes missing when the record does not fit, as avsc does', () => {
    const writer = compileFlatRecordWriter(type.schema())!;
    const huge = { ...records(1, 15)[0]!, brand_name: 'ك'.repeat(100_000) };
    for (const r of [...records(200, 13), huge]) {
      const size = type.toBuffer(r).length;
      for (const room of [0, 1, Math.floor(size / 2), size - 1]) {
        const buf = Buffer.alloc(10 + room);
        expect(writer.encode(r, buf, 10)).toBe(type.encode(r, Buffer.alloc(10 + room), 10));
      }
      expect(writer.encode(r, Buffer.alloc(size), 0)).toBe(size);
    }
  });

  it('throws for values that do not fit the schema, naming the field', () => {
    const writer = compileFlatRecordWriter(type.schema())!;
    const good = records(1, 14)[0]!;
    const buf = Buffer.alloc(4096);
    for (const [field, value] of [
      ['category_id', 5],
      ['category_id', null],
      ['brand_name', 7],
      ['revision', 1.5],
      ['revision', 2 ** 31],
      ['enriched_at', 2 ** 53 - 1],
      ['enriched_at', '1'],
      ['recurring', 'yes'],
      ['brand_id', 'x'],
    ] as const) {
      expect(() => writer.encode({ ...good, [field]: value }, buf, 0)).toThrow(field);
      expect(() => type.encode({ ...good, [field]: value }, buf, 0)).toThrow();
    }
  });

  it('handles a union with null second, and declines shapes it does not write', () => {
    const nullLast = { type: 'record', name: 'R', fields: [{ name: 'a', type: ['string', 'null'] }] };
    const writer = compileFlatRecordWriter(nullLast)!;
    const t = avro.Type.forSchema(nullLast as avro.Schema);
    const buf = Buffer.alloc(64);
    for (const a of ['x', null])
      expect(buf.subarray(0, writer.encode({ a }, buf, 0))).toEqual(t.toBuffer({ a }));
    for (const declined of [
      { type: 'record', name: 'R', fields: [{ name: 'a', type: 'double' }] },
      { type: 'record', name: 'R', fields: [{ name: 'a', type: ['null', 'string', 'int'] }] },
      { type: 'record', name: 'R', fields: [{ name: 'a', type: { type: 'array', items: 'string' } }] },
      { type: 'enum', name: 'E', symbols: ['A'] },
      null,
    ])
      expect(compileFlatRecordWriter(declined)).toBeNull();
  });
});
