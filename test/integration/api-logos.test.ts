// Guarantee: the brand_logo of a v3 enrichment is an image the API serves: fetching it answers 200
// with image/png when the logo folder has the brand's file, else image/svg+xml (a generated logo,
// with Arabic initials for a client that reads Arabic); an unknown brand id is a 404.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v3SuccessSchema } from '../../src/api/schemas.js';
import { starbucks, startApi, testSnapshot, type TestApi } from './api-harness.js';

// The first bytes of every PNG file.
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

describe('brand logos over HTTP', () => {
  let api: TestApi;
  let logoDir: string;

  beforeAll(async () => {
    logoDir = mkdtempSync(join(tmpdir(), 'tx-enrich-logo-dir-'));
    api = await startApi({
      logoDir,
      tenants: {
        plain: {},
        arabic: { arabicEnabled: true },
        hosted: { logoBaseUrl: 'https://enrich.example.com' },
      },
    });
  });
  afterAll(async () => {
    await api?.close();
    rmSync(logoDir, { recursive: true, force: true });
  });

  async function logoOf(tenant: string, transaction = starbucks()): Promise<string> {
    const { status, json } = await api.enrich('v3', { transactions: [transaction] }, { tenant });
    expect(status).toBe(200);
    const logo = v3SuccessSchema.parse(json).data[0]?.brand_logo;
    expect(logo, 'the record names a brand, so it has a logo').toBeTruthy();
    return logo as string;
  }

  it('fetching a v3 record’s brand_logo returns a generated SVG when the folder has no file', async () => {
    const logo = await logoOf('plain');
    expect(logo).toMatch(/^\/logos\/\d+\?v=[0-9a-f]{8}$/);
    const response = await fetch(`${api.url}${logo}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    const svg = await response.text();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).toContain('>S</text>');
  });

  it('a client that reads Arabic gets Arabic initials (Accept-Language or ?lang=ar)', async () => {
    const logo = await logoOf('arabic');
    const brand = testSnapshot().brandsById.get(Number(/\/logos\/(\d+)/.exec(logo)?.[1]));
    expect(brand?.name_ar).toMatch(/^[\u0600-\u06ff]/);
    const initial = `>${[...(brand?.name_ar ?? '')][0]}</text>`;
    const byHeader = await fetch(`${api.url}${logo}`, { headers: { 'accept-language': 'ar-AE,ar;q=0.9' } });
    expect(byHeader.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(await byHeader.text()).toContain(initial);
    expect(await (await fetch(`${api.url}/logos/${brand?.id}?lang=ar`)).text()).toContain(initial);
  });

  it('serves the folder’s image when it has the brand’s file', async () => {
    const logo = await logoOf('plain');
    const brand = testSnapshot().brandsById.get(Number(/\/logos\/(\d+)/.exec(logo)?.[1]));
    writeFileSync(join(logoDir, `${brand?.slug}.png`), PNG);
    const response = await fetch(`${api.url}${logo}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await response.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('a hosted tenant gets the full URL under its public base URL', async () => {
    const logo = await logoOf('hosted');
    expect(logo).toMatch(/^https:\/\/enrich\.example\.com\/logos\/\d+\?v=[0-9a-f]{8}$/);
    const { pathname, search } = new URL(logo);
    const response = await fetch(`${api.url}${pathname}${search}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^image\/(png|svg\+xml)/);
  });

  it('an unknown or malformed brand id is an error, not an image', async () => {
    expect((await fetch(`${api.url}/logos/999999999`)).status).toBe(404);
    expect((await fetch(`${api.url}/logos/abc`)).status).toBe(400);
    expect((await fetch(`${api.url}/logos/1?lang=xx`)).status).toBe(400);
  });
});
