// Guarantee: the hand-written x-enrich and x-source headers are exactly the JSON of an EnrichHeader
// and a SourceHeader (the documented formats), for any text the engine can put in them.
import { describe, expect, it } from 'vitest';
import type { Enrichment } from '../../../src/engine/types.js';
import {
  enrichHeader,
  sourceHeaderOf,
  type EnrichHeader,
  type SourceHeader,
} from '../../../src/kafka/headers.js';

function enrichment(overrides: Partial<Enrichment> & { reasons?: Enrichment['reasons'] }): Enrichment {
  return {
    confidence: 0.95,
    reasons: { brand: 'alias:"CAREEM HALA"@description', category: 'brand:careem', recurring: 'no-history' },
    intermediary: null,
    catalog_version: '2026.11.1+733f81668400',
    engine_version: '1.0.0',
    ...overrides,
  } as Enrichment;
}

function expected(e: Enrichment): string {
  const value: EnrichHeader = {
    confidence: e.confidence,
    brand: e.reasons.brand,
    category: e.reasons.category,
    recurring: e.reasons.recurring,
    intermediary: e.intermediary?.id ?? null,
    catalog: e.catalog_version,
    engine: e.engine_version,
  };
  return JSON.stringify(value);
}

const TEXTS = [
  'none',
  'alias:"CAREEM HALA"@description',
  'alias:"كريم"@merchant_name',
  'keyword:"café\\bar"',
  'tab\there, newline\n, nul\u0000, del\u007f',
  'emoji 🚕 and a lone surrogate \ud800',
  '',
];

describe('enrichHeader', () => {
  it('is the JSON of an EnrichHeader, key for key', () => {
    for (const text of TEXTS) {
      for (const confidence of [0, 1, 0.5, 0.95, 0.07]) {
        for (const intermediary of [null, { id: 'paypal', name: 'PayPal' }, { id: 'x"y', name: 'q' }]) {
          const e = enrichment({
            confidence,
            intermediary,
            reasons: { brand: text, category: `pattern:salary:${text}`, recurring: text || 'no-history' },
          });
          expect(enrichHeader(e)).toBe(expected(e));
          expect(JSON.parse(enrichHeader(e))).toEqual(JSON.parse(expected(e)));
        }
      }
    }
  });

  it('follows a change of catalog or engine version', () => {
    const a = enrichment({});
    const b = enrichment({ catalog_version: '2026.12.0+0123456789ab', engine_version: '1.1.0' });
    expect(enrichHeader(a)).toBe(expected(a));
    expect(enrichHeader(b)).toBe(expected(b));
    expect(enrichHeader(a)).toBe(expected(a));
  });
});

describe('sourceHeaderOf', () => {
  it('is the JSON of a SourceHeader, with the envelope item when there is one', () => {
    for (const [topic, partition] of [
      ['transactions.raw', 2],
      ['odd "topic" \\ ü', 0],
    ] as const) {
      const source = sourceHeaderOf(topic, partition);
      for (const [offset, item] of [
        ['18231', null],
        ['0', 0],
        ['9007199254740993', 3],
      ] as const) {
        const value: SourceHeader =
          item === null ? { topic, partition, offset } : { topic, partition, offset, item };
        expect(source(offset, item)).toBe(JSON.stringify(value));
      }
    }
  });
});
