// Guarantee: a request body is accepted only as {"transactions": [1..max_batch valid records]}; every
// problem is reported with its item index and full field path, the list is capped with the total in
// the message, and accepted records come back in request order.
import { describe, expect, it } from 'vitest';
import { MAX_LISTED_ERRORS, parseEnrichRequest } from '../../../src/api/enrich.js';
import { ApiError } from '../../../src/api/errors.js';

const valid = (id: string) => ({
  raw_description: 'NETFLIX.COM',
  amount: 15.99,
  transaction_id: id,
  customer_id: 'c-1',
  account_id: '',
  card_id: '',
  merchant_name: '',
  merchant_id: '',
  mcc: '',
  direction: 'DEBIT',
  is_transfer: false,
  iso_currency_cd: 'USD',
  occurred_at: '2025-01-31',
  location: { iso_country_cd: 'US' },
});

function rejection(body: unknown, maxBatch = 1000): ApiError {
  try {
    parseEnrichRequest(body, maxBatch);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('accepted');
}

describe('parseEnrichRequest', () => {
  it('returns the validated records in order', () => {
    const out = parseEnrichRequest({ transactions: [valid('a'), valid('b'), valid('c')] }, 3);
    expect(out.map((t) => t.transaction_id)).toEqual(['a', 'b', 'c']);
  });

  it.each([
    [null, 'INVALID_BODY', 'body'],
    ['text', 'INVALID_BODY', 'body'],
    [[valid('a')], 'INVALID_BODY', 'body'],
    [{}, 'INVALID_BODY', 'transactions'],
    [{ transactions: 'x' }, 'INVALID_BODY', 'transactions'],
    [{ transactions: [] }, 'EMPTY_ENVELOPE', 'transactions'],
  ])('rejects %j with %s at %s', (body, code, field) => {
    const error = rejection(body);
    expect(error.statusCode).toBe(400);
    expect(error.code).toBe(code);
    expect(error.errors).toEqual([expect.objectContaining({ code, index: null, field })]);
  });

  it('answers 413 over the batch limit, before looking at the items', () => {
    const error = rejection({ transactions: [1, 2, 3] }, 2);
    expect(error).toMatchObject({ statusCode: 413, code: 'BATCH_TOO_LARGE' });
  });

  it('reports every problem with index and path; one problem is the message', () => {
    const one = rejection({
      transactions: [valid('a'), { ...valid('b'), location: { iso_country_cd: 'ARE' } }],
    });
    expect(one.message).toBe(
      'transactions[1].location.iso_country_cd must be an ISO 3166-1 alpha-2 country code',
    );
    const { amount: _amount, ...noAmount } = valid('c');
    const many = rejection({ transactions: [noAmount, 7, { ...valid('d'), direction: 'UP' }] });
    expect(many.errors).toEqual([
      { code: 'INVALID_FIELD', index: 0, field: 'transactions[0].amount', message: 'is required' },
      {
        code: 'INVALID_FIELD',
        index: 1,
        field: 'transactions[1]',
        message: 'must be a JSON object (one transaction record), got a number',
      },
      {
        code: 'INVALID_FIELD',
        index: 2,
        field: 'transactions[2].direction',
        message: 'must be DEBIT or CREDIT',
      },
    ]);
    expect(many.message).toMatch(
      /^3 problems in 3 of 3 transactions; the first: transactions\[0\]\.amount is required$/,
    );
  });

  it(`lists at most ${MAX_LISTED_ERRORS} problems and counts them all`, () => {
    const error = rejection({ transactions: Array.from({ length: 1000 }, () => ({})) });
    expect(error.errors).toHaveLength(MAX_LISTED_ERRORS);
    expect(error.message).toMatch(/^\d+ problems in 1000 of 1000 transactions \(the first 1000 are listed\)/);
  });
});
