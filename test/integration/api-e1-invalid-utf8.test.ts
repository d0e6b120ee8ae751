// Guarantee: a request body that is not valid UTF-8 — bytes that break inside a JSON value such as a
// transaction id — is refused with 400 INVALID_ENCODING naming where the bytes break, on v3 and v2,
// never decoded with U+FFFD in their place and enriched under an altered id; the body limit still
// applies, and valid UTF-8 (Arabic included) is enriched as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { starbucks, startApi, type TestApi } from './api-harness.js';

/** A JSON body with `bytes` spliced into the first transaction's id: `txn-<bytes>-1`. */
function bodyWithIdBytes(bytes: number[]): Buffer {
  const json = JSON.stringify({ transactions: [starbucks('txn-MARK-1')] });
  const [before = '', after = ''] = json.split('MARK');
  return Buffer.concat([Buffer.from(before, 'utf8'), Buffer.from(bytes), Buffer.from(after, 'utf8')]);
}

describe('strict UTF-8 request bodies', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi({ tenants: { acme: { limits: { max_body_bytes: 4096 } } } });
  });
  afterAll(async () => {
    await api?.close();
  });

  const post = async (version: 'v2' | 'v3', body: Buffer) => {
    const secret = api.secrets.acme;
    const headers: Record<string, string> =
      version === 'v3'
        ? { authorization: `Bearer ${secret?.v3 ?? ''}`, 'content-type': 'application/json' }
        : { 'api-key': secret?.v2 ?? '', 'content-type': 'application/json' };
    const response = await fetch(`${api.url}/api/${version}/transaction/enrich?response-type=consumer`, {
      method: 'POST',
      headers,
      body,
    });
    return { status: response.status, text: await response.text() };
  };

  it.each([
    ['a lone continuation byte', [0x80]],
    ['a truncated two-byte sequence', [0xc3]],
    ['an overlong encoding of "/"', [0xc0, 0xaf]],
    ['an encoded UTF-16 surrogate', [0xed, 0xa0, 0x80]],
    ['a byte that is never UTF-8', [0xff]],
  ])('refuses %s inside a transaction id with 400 INVALID_ENCODING (v3 and v2)', async (_what, bytes) => {
    const body = bodyWithIdBytes(bytes);
    const offset = body.indexOf(Buffer.from(bytes));
    const v3 = await post('v3', body);
    expect(v3.status).toBe(400);
    const v3Body = JSON.parse(v3.text) as { success: boolean; errors: { code: string; field: string }[] };
    expect(v3Body.success).toBe(false);
    expect(v3Body.errors).toEqual([
      expect.objectContaining({ code: 'INVALID_ENCODING', field: 'body', index: null }),
    ]);
    expect(v3.text).toContain(`offset ${offset}`);
    expect(v3.text).not.toContain('\ufffd');
    const v2 = await post('v2', body);
    expect(v2.status).toBe(400);
    expect(JSON.parse(v2.text)).toMatchObject({ error: { code: 'INVALID_ENCODING' } });
    expect(v2.text).not.toContain('\ufffd');
  });

  it('still refuses a body over the limit with 413, before decoding it', async () => {
    const body = Buffer.concat([bodyWithIdBytes([0xff]), Buffer.alloc(8192, 0x20)]);
    expect((await post('v3', body)).status).toBe(413);
  });

  it('enriches valid UTF-8, multi-byte characters included, with the id unchanged', async () => {
    const id = 'txn-عربي-😀-1';
    const response = await api.enrich('v3', {
      transactions: [starbucks(id, { raw_description: 'ستاربكس STARBUCKS DUBAI MALL' })],
    });
    expect(response.status).toBe(200);
    expect((response.json as { data: { ref_id: string }[] }).data[0]?.ref_id).toBe(id);
  });

  it('keeps refusing a JSON-escaped lone surrogate, which UTF-8 cannot hold, as an invalid field', async () => {
    const text = JSON.stringify({ transactions: [starbucks('txn-SURROGATE-1')] }).replace(
      'SURROGATE',
      '\\ud800',
    );
    const response = await post('v3', Buffer.from(text, 'utf8'));
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toMatchObject({
      errors: [{ code: 'INVALID_FIELD', field: 'transactions[0].transaction_id' }],
    });
  });
});
