// Guarantee: the batch encoder of the pipeline writes each record in the Confluent wire format
// (magic byte 0, schema id, Avro body) with the same bytes as encoding it alone, whatever the record
// sizes, and no value overlaps another.
import avro from 'avsc';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AvroType } from '../../../src/schema-registry/avro-writer.js';
import { framedEncoder } from '../../../src/schema-registry/codec.js';

const type = avro.Type.forSchema(
  JSON.parse(readFileSync('schemas/enriched-transaction.avsc', 'utf8')) as avro.Schema,
);

function record(i: number, nameLength: number) {
  return {
    transaction_id: `tx-${i}`,
    customer_id: `cust-${i % 97}`,
    brand_id: i % 3 === 0 ? null : 300_000 + i,
    brand_name: i % 3 === 0 ? null : 'B'.repeat(nameLength),
    brand_logo: null,
    brand_name_ar: i % 2 === 0 ? 'البوابة الوطنية' : null,
    brand_url: null,
    category_id: '5',
    category_name: 'Government and Non-Profit',
    category_name_ar: 'الجهات الحكومية والخيرية',
    sub_category_id: '5-2',
    sub_category_name: 'Government Departments and Agencies',
    sub_category_name_ar: 'الدوائر والهيئات الحكومية',
    recurring: i % 5 === 0,
    ref_id: `tx-${i}`,
    revision: 1,
    enriched_at: 1_795_663_410_564,
  };
}

describe('framedEncoder', () => {
  it('frames each record like encoding it alone, across buffers and for records larger than one', () => {
    const encode = framedEncoder(type as unknown as AvroType, 4242);
    const records = Array.from({ length: 3_000 }, (_, i) => record(i, i % 500 === 7 ? 200_000 : i % 40));
    const values = records.map((r) => encode(r));
    for (let i = 0; i < records.length; i++) {
      const value = values[i]!;
      expect(value[0]).toBe(0);
      expect(value.readInt32BE(1)).toBe(4242);
      expect(Buffer.compare(value.subarray(5), type.toBuffer(records[i]))).toBe(0);
    }
    // Writing later records never changed earlier ones.
    for (let i = 0; i < records.length; i++)
      expect(type.fromBuffer(values[i]!.subarray(5))).toEqual(records[i]);
  });

  it('throws for a record that does not fit the schema, like avsc', () => {
    const encode = framedEncoder(type as unknown as AvroType, 1);
    expect(() => encode({ ...record(1, 3), category_id: 5 })).toThrow();
  });
});
