// Guarantee: every Avro schema in schemas/ registers in the real schema registry under its
// TopicNameStrategy subject (<topic>-value) without losing structure or defaults, and a record of each
// survives produce -> Kafka -> consume -> decode unchanged in the Confluent wire format
// (magic byte 0, 4-byte schema id, Avro body).
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import avro from 'avsc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  consumeMessages,
  createTopics,
  stackEnv,
  testKafka,
  uniqueName,
  withAdmin,
} from '../support/index.js';

const SCHEMA_DIR = join(import.meta.dirname, '..', '..', 'schemas');
const schemaFiles = readdirSync(SCHEMA_DIR)
  .filter((f) => f.endsWith('.avsc'))
  .sort();

const now = Date.UTC(2026, 0, 15, 9, 30, 0, 123);

/** Records to round-trip, per schema file: a full one and one with every optional field null. */
const SAMPLES: Record<string, Record<string, unknown>[]> = {
  'raw-transaction': [
    {
      raw_description: 'SQ *BLUE BOTTLE COFFEE #1234 SAN FRANCISCO',
      amount: -4.75,
      transaction_id: 'tx-0001',
      customer_id: 'cust-42',
      account_id: 'acc-7',
      card_id: 'card-9',
      card_name: 'Visa Platinum',
      merchant_name: 'Blue Bottle Coffee',
      merchant_id: 'm-5555',
      mcc: '5814',
      direction: 'DEBIT',
      is_self_transaction: false,
      is_transfer: false,
      iso_currency_cd: 'USD',
      occurred_at: '2026-01-15T09:30:00Z',
      pos_id: null,
      pos_entry_mode: null,
      location: {
        iso_country_cd: 'US',
        city: 'San Francisco',
        address: '66 Mint St',
        region: 'CA',
        postal_code: '94103',
      },
      ref_id: null,
    },
    {
      raw_description: 'تحويل إلى حساب 1234',
      amount: 1500,
      transaction_id: 'tx-0002',
      customer_id: 'cust-43',
      account_id: 'acc-8',
      card_id: '',
      card_name: null,
      merchant_name: '',
      merchant_id: '',
      mcc: '6012',
      direction: 'CREDIT',
      is_self_transaction: null,
      is_transfer: true,
      iso_currency_cd: 'SAR',
      occurred_at: '2026-01-15',
      pos_id: 'pos-77',
      pos_entry_mode: 'CHIP',
      location: { iso_country_cd: 'SA', city: null, address: null, region: null, postal_code: null },
      ref_id: 'ref-abc',
    },
  ],
  'enriched-transaction': [
    {
      transaction_id: 'tx-0001',
      customer_id: 'cust-42',
      brand_id: 1017,
      brand_name: 'Blue Bottle Coffee',
      brand_logo: 'logos/blue-bottle.png',
      brand_name_ar: 'بلو بوتل كوفي',
      brand_url: 'https://bluebottlecoffee.com',
      category_id: '4',
      category_name: 'Food and Beverages',
      category_name_ar: 'الأطعمة والمشروبات',
      sub_category_id: '4-3',
      sub_category_name: 'Coffeeshops',
      sub_category_name_ar: 'المقاهي',
      recurring: false,
      ref_id: null,
      revision: 1,
      enriched_at: now,
    },
    {
      transaction_id: 'tx-0002',
      customer_id: 'cust-43',
      brand_id: null,
      brand_name: null,
      brand_logo: null,
      brand_name_ar: null,
      brand_url: null,
      category_id: '14',
      category_name: 'Inward Transfer',
      category_name_ar: 'تحويل وارد',
      sub_category_id: '14-3',
      sub_category_name: 'Account Transfer',
      sub_category_name_ar: 'تحويل حساب',
      recurring: true,
      ref_id: 'ref-abc',
      revision: 2,
      enriched_at: now + 1,
    },
  ],
  'feedback-correction': [
    {
      correction_id: 'corr-1',
      tenant: 'default',
      transaction_id: 'tx-0001',
      customer_id: 'cust-42',
      brand_id: 1017,
      new_brand: null,
      category_id: null,
      sub_category_id: null,
      scope: 'merchant',
      reported_at: now,
    },
    {
      correction_id: 'corr-2',
      tenant: 'bank-a',
      transaction_id: 'tx-0003',
      customer_id: 'cust-44',
      brand_id: null,
      new_brand: { name: 'Corner Bakery', name_ar: 'مخبز الزاوية', website: null },
      category_id: '4',
      sub_category_id: '4-7',
      scope: 'transaction',
      reported_at: now,
    },
  ],
};

/** field path -> JSON of its default, for every field that has one (nested records included). */
function defaultsOf(schema: unknown, path = ''): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (node: unknown, at: string) => {
    if (Array.isArray(node)) node.forEach((n) => visit(n, at));
    else if (node !== null && typeof node === 'object') {
      const record = node as {
        type?: unknown;
        fields?: { name: string; type: unknown; default?: unknown }[];
      };
      if (record.type === 'record' && Array.isArray(record.fields)) {
        for (const field of record.fields) {
          const fieldPath = `${at}${field.name}`;
          if ('default' in field) out[fieldPath] = JSON.stringify(field.default);
          visit(field.type, `${fieldPath}.`);
        }
      } else if (record.type !== undefined) visit(record.type, at);
    }
  };
  visit(schema, path);
  return out;
}

describe('Avro schemas through the real registry and broker', () => {
  const env = stackEnv();
  const kafka = testKafka('schemas-roundtrip');
  const registry = new SchemaRegistry({ host: env.schemaRegistryUrl });
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  const topics: string[] = [];
  const subjects: string[] = [];

  beforeAll(async () => {
    await producer.connect();
  });

  afterAll(async () => {
    await producer.disconnect();
    // Best-effort clean-up, so a shared broker and registry do not fill up with test data.
    await withAdmin(kafka, (admin) => admin.deleteTopics({ topics })).catch(() => undefined);
    for (const subject of subjects) {
      await fetch(`${env.schemaRegistryUrl}/subjects/${encodeURIComponent(subject)}`, {
        method: 'DELETE',
      }).catch(() => undefined);
    }
  });

  it('has a schema directory with samples for every schema', () => {
    expect(schemaFiles.length).toBeGreaterThanOrEqual(3);
    for (const file of schemaFiles) {
      expect(SAMPLES[basename(file, '.avsc')], `samples for ${file}`).toBeDefined();
    }
  });

  it.each(schemaFiles)('%s registers and round-trips through a real topic', async (file) => {
    const name = basename(file, '.avsc');
    const text = readFileSync(join(SCHEMA_DIR, file), 'utf8');
    const local = JSON.parse(text) as avro.Schema;
    const samples = SAMPLES[name] ?? [];
    const topic = uniqueName(`schemas.${name}`);
    const subject = `${topic}-value`;
    topics.push(topic);
    subjects.push(subject);
    await createTopics(kafka, [topic]);

    const { id } = await registry.register({ type: SchemaType.AVRO, schema: text }, { subject });
    expect(await registry.getLatestSchemaId(subject)).toBe(id);
    // Registering the same schema again is idempotent.
    expect((await registry.register({ type: SchemaType.AVRO, schema: text }, { subject })).id).toBe(id);

    // The registry may store a compact or re-ordered form (Apicurio returns compact JSON): compare the
    // Parsing Canonical Form fingerprint, and the defaults (which the canonical form leaves out).
    const stored = (await (await fetch(`${env.schemaRegistryUrl}/schemas/ids/${id}`)).json()) as {
      schema: string;
    };
    const storedSchema = JSON.parse(stored.schema) as avro.Schema;
    expect(avro.Type.forSchema(storedSchema).fingerprint('sha256').toString('hex')).toBe(
      avro.Type.forSchema(local).fingerprint('sha256').toString('hex'),
    );
    expect(defaultsOf(storedSchema)).toEqual(defaultsOf(local));

    await producer.send({
      topic,
      messages: await Promise.all(
        samples.map(async (sample) => ({
          key: String(sample.customer_id ?? sample.transaction_id),
          value: await registry.encode(id, sample),
        })),
      ),
    });

    const messages = await consumeMessages(kafka, { topic, count: samples.length });
    expect(messages).toHaveLength(samples.length);
    for (const [i, message] of messages.entries()) {
      const value = message.value;
      expect(value).not.toBeNull();
      if (value === null) continue;
      expect(value.readUInt8(0)).toBe(0);
      expect(value.readInt32BE(1)).toBe(id);
      expect(await registry.decode(value)).toEqual(samples[i]);
    }
  });
});
