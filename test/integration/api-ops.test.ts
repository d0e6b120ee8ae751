// Guarantee: the API describes and reports itself: /openapi.json is an OpenAPI 3.1 document with
// both enrichment paths whose record schemas are the zod response schemas, /docs renders it as HTML
// from assets served locally (no CDN), /healthz and /readyz answer on the API port, and /metrics on
// the operations port reports requests by route and status, request duration and transactions
// enriched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v2RecordSchema, v3RecordSchema } from '../../src/api/schemas.js';
import { sampleTransactions, starbucks, startApi, type TestApi } from './api-harness.js';

interface OpenApi {
  openapi: string;
  paths: Record<
    string,
    Record<string, { parameters?: { name: string }[]; responses: Record<string, unknown> }>
  >;
  components: {
    schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }>;
    securitySchemes: Record<string, Record<string, string>>;
  };
}

describe('OpenAPI, docs, health and metrics', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi({ tenants: { acme: {} } });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('serves an OpenAPI 3.1 document with both paths, generated from the zod schemas', async () => {
    const response = await fetch(`${api.url}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = (await response.json()) as OpenApi;
    expect(doc.openapi).toMatch(/^3\.1\./);
    for (const path of ['/api/v3/transaction/enrich', '/api/v2/transaction/enrich']) {
      const post = doc.paths[path]?.post;
      expect(post, path).toBeDefined();
      expect(post?.parameters?.map((p) => p.name)).toEqual(['response-type']);
      expect(Object.keys(post?.responses ?? {}).sort()).toEqual([
        '200',
        '400',
        '401',
        '413',
        '415',
        '429',
        '503',
      ]);
    }
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.V3Record?.properties ?? {}).sort()).toEqual(
      Object.keys(v3RecordSchema.shape).sort(),
    );
    expect(Object.keys(schemas.V2Record?.properties ?? {}).sort()).toEqual(
      Object.keys(v2RecordSchema.shape).sort(),
    );
    expect(schemas.Transaction?.required).toEqual(
      expect.arrayContaining(['raw_description', 'amount', 'location']),
    );
    expect(JSON.stringify(doc)).not.toMatch(/"\$ref":"(?!#\/components\/schemas\/)/);
    expect(doc.components.securitySchemes.bearerToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.apiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'Api-key',
    });
  });

  it('renders /docs as HTML whose scripts and styles are served here', async () => {
    const response = await fetch(`${api.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) expect(asset, asset).not.toMatch(/^(https?:)?\/\//);
    const bundle = await fetch(`${api.url}/docs/static/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    const spec = (await (await fetch(`${api.url}/docs/json`)).json()) as OpenApi;
    expect(Object.keys(spec.paths)).toContain('/api/v3/transaction/enrich');
  });

  it('answers /healthz and /readyz', async () => {
    expect(await (await fetch(`${api.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${api.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  it('counts requests by route and status, their duration, and transactions enriched', async () => {
    expect((await api.enrich('v3', { transactions: sampleTransactions(7) })).status).toBe(200);
    expect((await api.enrich('v2', { transactions: [starbucks(), starbucks('sb-2')] })).status).toBe(200);
    expect((await api.enrich('v3', { transactions: [starbucks()] }, { headers: {} })).status).toBe(401);
    const response = await fetch(`${api.opsUrl}/metrics`);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toContain(
      'txenrich_api_requests_total{route="/api/v3/transaction/enrich",method="POST",status="200"} 1',
    );
    expect(text).toContain(
      'txenrich_api_requests_total{route="/api/v3/transaction/enrich",method="POST",status="401"} 1',
    );
    expect(text).toContain(
      'txenrich_api_requests_total{route="/api/v2/transaction/enrich",method="POST",status="200"} 1',
    );
    expect(text).toMatch(
      /txenrich_api_request_duration_seconds_bucket\{le="0\.1",route="\/api\/v3\/transaction\/enrich",method="POST"\} [1-9]/,
    );
    expect(text).toMatch(
      /txenrich_api_request_duration_seconds_count\{route="\/api\/v3\/transaction\/enrich",method="POST"\} 2/,
    );
    expect(text).toContain('txenrich_api_transactions_enriched_total{version="v3",tenant="acme"} 7');
    expect(text).toContain('txenrich_api_transactions_enriched_total{version="v2",tenant="acme"} 2');
  });
});
