import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommonsUnreachable, mirrorLogos } from '../../../src/logos/mirror.js';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>';

/** Plays Wikimedia Commons: the imageinfo API and the upload server, for three files. */
function fakeCommons(): Server {
  const files: Record<string, { licence?: string; body: string; type: string }> = {
    'Careem logo.svg': { licence: 'Public domain', body: SVG, type: 'image/svg+xml' },
    'Talabat.png': { licence: 'CC BY-SA 4.0', body: 'PNGDATA', type: 'image/png' },
    'Unlicensed.svg': { body: SVG, type: 'image/svg+xml' },
  };
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://commons.test');
    if (url.pathname === '/w/api.php') {
      const name = (url.searchParams.get('titles') ?? '').replace(/^File:/, '');
      const file = files[name];
      const pages = file
        ? {
            '1': {
              imageinfo: [
                {
                  url: `http://${req.headers.host}/upload/${encodeURIComponent(name)}`,
                  extmetadata: {
                    ...(file.licence ? { LicenseShortName: { value: file.licence } } : {}),
                    Artist: { value: '<a href="x">Someone</a>' },
                  },
                },
              ],
            },
          }
        : { '-1': { missing: '' } };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ query: { pages } }));
      return;
    }
    const name = decodeURIComponent(url.pathname.replace(/^\/upload\//, ''));
    const file = files[name];
    if (!file) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': file.type }).end(file.body);
  });
}

describe('logos mirror', () => {
  let server: Server;
  let base: string;
  let dir: string;

  beforeAll(async () => {
    server = fakeCommons();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    dir = mkdtempSync(join(tmpdir(), 'tx-enrich-logos-'));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('downloads each file with its licence beside it, and reports what it could not keep', async () => {
    writeFileSync(join(dir, 'noon.png'), 'OPERATOR');
    const result = await mirrorLogos(
      [
        { slug: 'careem', logo_source: 'Careem logo.svg' },
        { slug: 'talabat', logo_source: 'Talabat.png' },
        { slug: 'noon', logo_source: 'Noon.svg' },
        { slug: 'ghost', logo_source: 'Missing.svg' },
        { slug: 'nolicence', logo_source: 'Unlicensed.svg' },
        { slug: 'pdf', logo_source: 'Brochure.pdf' },
      ],
      { commonsUrl: base, dir, now: () => new Date('2026-01-02T03:04:05Z') },
    );
    expect(result.downloaded).toEqual(['careem', 'talabat']);
    expect(result.present).toEqual(['noon']);
    expect(result.failed.map((f) => [f.slug, f.reason])).toEqual([
      ['ghost', 'no such file on Commons'],
      ['nolicence', 'Commons states no licence for the file'],
      ['pdf', 'not an image type the API serves'],
    ]);
    expect(readFileSync(join(dir, 'careem.svg'), 'utf8')).toBe(SVG);
    expect(JSON.parse(readFileSync(join(dir, 'careem.svg.licence.json'), 'utf8'))).toEqual({
      file: 'Careem logo.svg',
      source: `${base}/wiki/File:Careem_logo.svg`,
      licence: 'Public domain',
      licence_url: null,
      artist: 'Someone',
      retrieved_at: '2026-01-02T03:04:05.000Z',
    });
    expect(readFileSync(join(dir, 'noon.png'), 'utf8')).toBe('OPERATOR');
  });

  it('offline, fails at once with a clear error naming Commons and what to do', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const attempt = mirrorLogos([{ slug: 'x', logo_source: 'X.svg' }], {
      commonsUrl: `http://127.0.0.1:${port}`,
      dir,
      timeoutMs: 2_000,
    });
    await expect(attempt).rejects.toBeInstanceOf(CommonsUnreachable);
    await expect(attempt).rejects.toThrow(
      /cannot reach Wikimedia Commons at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
    );
  });
});
