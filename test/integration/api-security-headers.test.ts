// Guarantee: every API response — success, error, unknown route, docs — carries
// `X-Content-Type-Options: nosniff` and, unless the route is meant to be cached, `Cache-Control:
// no-store`; GET /logos/{id} keeps its own caching; /docs is served with a Content-Security-Policy
// that lets nothing load from elsewhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { starbucks, startApi, testSnapshot, type TestApi } from './api-harness.js';

function expectNoStore(response: { headers: Headers }, what: string): void {
  expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(response.headers.get('cache-control'), what).toBe('no-store');
}

describe('security headers', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi({ tenants: { acme: {} } });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('marks enrichment answers, v3 and v2, and their errors no-store and nosniff', async () => {
    for (const version of ['v3', 'v2'] as const) {
      expectNoStore(await api.enrich(version, { transactions: [starbucks()] }), `${version} 200`);
      expectNoStore(await api.enrich(version, { transactions: [] }), `${version} 400`);
      expectNoStore(
        await api.enrich(version, { transactions: [starbucks()] }, { headers: {} }),
        `${version} 401`,
      );
      expectNoStore(await api.enrich(version, '{', { raw: true }), `${version} NOT_JSON`);
    }
  });

  it('marks operational and documentation routes and unknown routes the same', async () => {
    for (const path of ['/healthz', '/readyz', '/openapi.json', '/docs', '/nowhere', '/metrics']) {
      const response = await fetch(`${api.url}${path}`);
      await response.arrayBuffer();
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('cache-control'), path).toBe('no-store');
    }
    const wrongMethod = await fetch(`${api.url}/api/v3/transaction/enrich`);
    expectNoStore(wrongMethod, 'GET on an enrichment route');
    expect(wrongMethod.status).toBe(405);
  });

  it('keeps the cache headers of a logo (its URL is versioned) and adds nosniff', async () => {
    const brand = [...testSnapshot().brandsById.values()][0];
    expect(brand).toBeDefined();
    const response = await fetch(`${api.url}/logos/${brand?.id}`);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    // A refused logo request is not cached.
    expectNoStore(await fetch(`${api.url}/logos/not-a-number`), 'logo 400');
  });

  it('serves /docs with a Content-Security-Policy that allows only this origin', async () => {
    for (const path of ['/docs', '/docs/static/index.html', '/docs/static/swagger-initializer.js']) {
      const response = await fetch(`${api.url}${path}`);
      expect(response.status, path).toBe(200);
      await response.arrayBuffer();
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("default-src 'self'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).toContain("object-src 'none'");
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).not.toMatch(/https?:|'unsafe-eval'/);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
    // The page's scripts are files of this origin, so script-src 'self' lets it run.
    const html = await (await fetch(`${api.url}/docs/static/index.html`)).text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('does not put the documentation policy on the enrichment routes', async () => {
    const response = await api.enrich('v3', { transactions: [starbucks()] });
    expect(response.headers.get('content-security-policy')).toBeNull();
  });
});
