// Guarantee: a v2 or v3 request whose raw_description or merchant_name is one ~1 MB token (no
// spaces: the input that made glued-word splitting quadratic) is refused with 400 INVALID_FIELD
// naming the field and its limit, before the engine sees it; while such requests are in flight the
// server keeps answering /healthz, and a normal request behind them is enriched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_LIMITS } from '../../src/contract/transaction.js';
import { withTimeout } from '../support/index.js';
import { starbucks, startApi, type TestApi } from './api-harness.js';

/** One token of `length` letters, no separator anywhere (what the engine would try to split). */
function token(length: number): string {
  return 'STARBUCKSDUBAIMALLCOFFEE'.repeat(Math.ceil(length / 24)).slice(0, length);
}

const MEGABYTE_TOKEN = token(1_000_000);

interface ErrorItem {
  code: string;
  index: number | null;
  field: string;
  message: string;
}

describe('one ~1 MB token in a text field over HTTP', () => {
  let api: TestApi;

  beforeAll(async () => {
    // The default body limit (1 MiB) holds a 1,000,000-character token and the rest of the item.
    api = await startApi({ tenants: { acme: {} } });
  });
  afterAll(async () => {
    await api?.close();
  });

  const itemsOf = (version: 'v2' | 'v3', json: unknown): ErrorItem[] =>
    version === 'v3'
      ? (json as { errors: ErrorItem[] }).errors
      : (json as { error: { errors: ErrorItem[] } }).error.errors;

  it.each([
    ['v3', 'raw_description'],
    ['v2', 'raw_description'],
    ['v3', 'merchant_name'],
    ['v2', 'merchant_name'],
  ] as const)('%s: refuses a 1 MB %s with 400 naming the field and its limit', async (version, field) => {
    const response = await withTimeout(
      api.enrich(version, { transactions: [starbucks('long-1', { [field]: MEGABYTE_TOKEN })] }),
      60_000,
      `the ${version} answer to a 1 MB ${field}`,
    );
    expect(response.status).toBe(400);
    const items = itemsOf(version, response.json);
    expect(items).toEqual([
      {
        code: 'INVALID_FIELD',
        index: 0,
        field: `transactions[0].${field}`,
        message: `must be at most ${TEXT_LIMITS[field]} characters`,
      },
    ]);
    // The refusal does not echo the megabyte back.
    expect(JSON.stringify(response.json).length).toBeLessThan(2_000);
  });

  it('answers /healthz while four 1 MB requests are in flight, then enriches a normal request', async () => {
    const inFlight = [
      api.enrich('v3', { transactions: [starbucks('long-a', { raw_description: MEGABYTE_TOKEN })] }),
      api.enrich('v2', { transactions: [starbucks('long-b', { raw_description: MEGABYTE_TOKEN })] }),
      api.enrich('v3', { transactions: [starbucks('long-c', { merchant_name: MEGABYTE_TOKEN })] }),
      api.enrich('v2', { transactions: [starbucks('long-d', { merchant_name: MEGABYTE_TOKEN })] }),
    ];
    const health = await withTimeout(
      fetch(`${api.url}/healthz`),
      10_000,
      '/healthz while 1 MB tokens are being answered',
    );
    expect(health.status).toBe(200);
    const answers = await withTimeout(Promise.all(inFlight), 60_000, 'the four 1 MB requests');
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400]);
    const normal = await api.enrich('v3', { transactions: [starbucks('normal-1')] });
    expect(normal.status).toBe(200);
    expect((normal.json as { data: { brand_name: string }[] }).data[0]?.brand_name).toBe('Starbucks');
  });

  it('enriches a token just under the limit (the engine caps what it splits)', async () => {
    const response = await withTimeout(
      api.enrich('v3', {
        transactions: [starbucks('edge-1', { raw_description: token(TEXT_LIMITS.raw_description) })],
      }),
      60_000,
      'the answer to a raw_description at the limit',
    );
    expect(response.status).toBe(200);
  });
});
