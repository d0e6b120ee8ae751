import { beforeAll, describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../../src/data/load.js';
import { globalTransactionId, logoUrl, toV2Record, toV3Record } from '../../../src/engine/records.js';
import { buildSnapshot, type Snapshot } from '../../../src/engine/snapshot.js';
import type { Enrichment } from '../../../src/engine/types.js';
import { enrichOne } from './fixtures.js';
import { V3_FIELDS } from '../../support/v3-fields.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let snapshot: Snapshot;
let branded: Enrichment;
let unknown: Enrichment;
let transfer: Enrichment;

beforeAll(() => {
  snapshot = buildSnapshot(loadReferenceData());
  branded = enrichOne(snapshot, {
    raw_description: 'NETFLIX.COM',
    transaction_id: 'tx-brand',
    tenant: 'acme',
  });
  unknown = enrichOne(snapshot, { raw_description: 'JOES DINER #12 DUBAI AE', transaction_id: 'tx-unknown' });
  transfer = enrichOne(snapshot, { raw_description: 'TRANSFER TO JOHN', transaction_id: 'tx-transfer' });
});

describe('toV3Record', () => {
  it('reports a brand without an Arabic name yet as null, in v3 and v2', () => {
    const noArabic: Enrichment = { ...branded, brand: { ...branded.brand!, name_ar: '' } };
    expect(toV3Record(noArabic, null, { logoBaseUrl: '' }).brand_name_ar).toBeNull();
    expect(
      toV2Record(noArabic, null, { arabicEnabled: true, returnTransactionId: false }).brand_name_ar,
    ).toBeNull();
  });

  it('has exactly the 13 v3 fields', () => {
    const record = toV3Record(branded, 'ref-1', { logoBaseUrl: '' });
    expect(Object.keys(record).sort()).toEqual([...V3_FIELDS].sort());
    expect(Object.keys(record)).toHaveLength(13);
  });

  it('fills the brand, category and recurring fields from the enrichment', () => {
    const record = toV3Record(branded, 'ref-1', { logoBaseUrl: '' });
    expect(record).toEqual({
      brand_id: branded.brand?.id,
      brand_name: 'Netflix',
      brand_logo: expect.stringMatching(new RegExp(`^/logos/${branded.brand?.id}\\?v=[0-9a-f]{8}$`)),
      brand_name_ar: branded.brand?.name_ar,
      brand_url: branded.brand?.website,
      category_id: '3',
      category_name: 'Entertainment',
      category_name_ar: branded.category.name_ar,
      sub_category_id: '3-6',
      sub_category_name: 'Video Streaming & Movies',
      sub_category_name_ar: branded.sub_category.name_ar,
      recurring: true,
      ref_id: 'ref-1',
    });
    expect(typeof record.brand_id).toBe('number');
    expect(record.brand_name_ar).toMatch(/[\u0600-\u06ff]/);
  });

  it('points brand_logo at GET /logos/{brand_id} under the public base URL, with exactly one slash', () => {
    const id = branded.brand?.id;
    const logo = toV3Record(branded, null, { logoBaseUrl: '' }).brand_logo;
    expect(logo).toMatch(new RegExp(`^/logos/${id}\\?v=[0-9a-f]{8}$`));
    const version = logo?.slice(logo.indexOf('?'));
    const expected = `https://enrich.example.com/logos/${id}${version}`;
    expect(toV3Record(branded, null, { logoBaseUrl: 'https://enrich.example.com' }).brand_logo).toBe(
      expected,
    );
    expect(toV3Record(branded, null, { logoBaseUrl: 'https://enrich.example.com/' }).brand_logo).toBe(
      expected,
    );
  });

  it('changes the logo URL when the brand’s logo changes (caches and re-enriched records follow)', () => {
    const before = logoUrl({ id: 7, logo: 'brands/starbucks.png' }, { logoBaseUrl: '' });
    const after = logoUrl({ id: 7, logo: 'brands/starbucks-2027.png' }, { logoBaseUrl: '' });
    expect(before).not.toBe(after);
    expect(logoUrl({ id: 7, logo: 'brands/starbucks.png' }, { logoBaseUrl: '' })).toBe(before);
  });

  it('echoes the request ref_id, else falls back to the transaction_id', () => {
    expect(toV3Record(branded, 'ref-42', { logoBaseUrl: '' }).ref_id).toBe('ref-42');
    expect(toV3Record(branded, null, { logoBaseUrl: '' }).ref_id).toBe('tx-brand');
    expect(toV3Record(branded, undefined, { logoBaseUrl: '' }).ref_id).toBe('tx-brand');
  });

  it('an unknown merchant has no brand fields but a cleaned brand_name', () => {
    const record = toV3Record(unknown, null, { logoBaseUrl: 'https://cdn.example.com' });
    expect(record.brand_id).toBeNull();
    expect(record.brand_name).toBe('Joes Diner');
    expect(record.brand_logo).toBeNull();
    expect(record.brand_name_ar).toBeNull();
    expect(record.brand_url).toBeNull();
  });

  it('a non-merchant row has no brand at all', () => {
    const record = toV3Record(transfer, null, { logoBaseUrl: '' });
    expect(record.brand_id).toBeNull();
    expect(record.brand_name).toBeNull();
    expect(record.sub_category_id).toBe('15-2');
    expect(record.recurring).toBe(false);
  });
});

describe('toV2Record', () => {
  it('returns ref_id (echo or fallback) and no transaction_id by default', () => {
    const record = toV2Record(branded, 'ref-7', { arabicEnabled: true, returnTransactionId: false });
    expect(record.ref_id).toBe('ref-7');
    expect('transaction_id' in record).toBe(false);
    expect(toV2Record(branded, null, { arabicEnabled: true, returnTransactionId: false }).ref_id).toBe(
      'tx-brand',
    );
  });

  it('returns transaction_id in place of ref_id when configured', () => {
    const record = toV2Record(branded, 'ref-7', { arabicEnabled: true, returnTransactionId: true });
    expect(record.transaction_id).toBe('tx-brand');
    expect('ref_id' in record).toBe(false);
  });

  it('includes the Arabic fields only when Arabic is enabled', () => {
    const arabic = toV2Record(branded, null, { arabicEnabled: true, returnTransactionId: false });
    expect(arabic.brand_name_ar).toBe(branded.brand?.name_ar);
    expect(arabic.category_name_ar).toBe(branded.category.name_ar);
    expect(arabic.sub_category_name_ar).toBe(branded.sub_category.name_ar);

    const plain = toV2Record(branded, null, { arabicEnabled: false, returnTransactionId: false });
    for (const key of ['brand_name_ar', 'category_name_ar', 'sub_category_name_ar']) {
      expect(key in plain, key).toBe(false);
    }
  });

  it('uses the relative logo path and has no brand_id or recurring', () => {
    const record = toV2Record(branded, null, { arabicEnabled: false, returnTransactionId: false });
    expect(record.brand_logo).toBe('brands/netflix.png');
    expect(record.brand_name).toBe('Netflix');
    expect(record.brand_url).toBe(branded.brand?.website);
    expect(record.category_id).toBe('3');
    expect(record.sub_category_id).toBe('3-6');
    expect('brand_id' in record).toBe(false);
    expect('recurring' in record).toBe(false);
    expect(Object.keys(record).sort()).toEqual(
      [
        'ref_id',
        'global_tx_id',
        'brand_name',
        'brand_logo',
        'brand_url',
        'category_id',
        'category_name',
        'sub_category_id',
        'sub_category_name',
      ].sort(),
    );
  });

  it('Arabic brand name is null for a row without a brand', () => {
    const record = toV2Record(transfer, null, { arabicEnabled: true, returnTransactionId: false });
    expect(record.brand_name_ar).toBeNull();
    expect(record.brand_logo).toBeNull();
    expect(record.category_name_ar).toMatch(/[\u0600-\u06ff]/);
  });

  it('global_tx_id is the tenant-scoped global transaction id', () => {
    const record = toV2Record(branded, null, { arabicEnabled: false, returnTransactionId: false });
    expect(record.global_tx_id).toBe(globalTransactionId('acme', 'tx-brand'));
    expect(record.global_tx_id).toMatch(UUID);
  });
});

describe('globalTransactionId', () => {
  it('is UUID-shaped (version 8, RFC variant)', () => {
    for (const id of ['t1', 'a-much-longer-transaction-identifier-0001', '', 'معاملة']) {
      expect(globalTransactionId('default', id)).toMatch(UUID);
    }
  });

  it('is stable for the same tenant and transaction id', () => {
    expect(globalTransactionId('acme', 'tx-1')).toBe(globalTransactionId('acme', 'tx-1'));
  });

  it('differs per tenant and per transaction id', () => {
    const ids = new Set([
      globalTransactionId('acme', 'tx-1'),
      globalTransactionId('globex', 'tx-1'),
      globalTransactionId('acme', 'tx-2'),
      // The separator keeps (tenant, id) pairs apart that would concatenate to the same string.
      globalTransactionId('acme-', 'tx-1'),
      globalTransactionId('acme', '-tx-1'),
    ]);
    expect(ids.size).toBe(5);
  });

  it('spreads the variant nibble over all four allowed values', () => {
    const variants = new Set<string>();
    for (let i = 0; i < 200; i++) variants.add(globalTransactionId('t', `tx-${i}`).charAt(19));
    expect([...variants].sort()).toEqual(['8', '9', 'a', 'b']);
  });
});
