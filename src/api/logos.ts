/**
 * GET /logos/{brand_id}: a brand's logo, the image v3's `brand_logo` points at. In order: the
 * brand's `logo` path in the logo folder (an operator's edit), `<slug>.<ext>` there (an operator's
 * file or one mirrored from Wikimedia Commons; a product line falls back to its brand's), an
 * operator's external logo URL (a redirect), else a generated SVG (initials on the brand's colour;
 * Arabic initials for `?lang=ar` or `Accept-Language: ar`). Public, like any image a client shows:
 * it names only a catalog brand.
 */
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { findLogo, findLogoPath } from '../logos/folder.js';
import { generatedLogo } from '../logos/generated.js';
import { ApiError } from './errors.js';
import type { SnapshotProvider } from './snapshot-provider.js';

export const LOGO_ROUTE = '/logos/:brand_id';

export interface LogoRouteDeps {
  readonly snapshots: SnapshotProvider;
  /** LOGO_DIR. */
  readonly logoDir: string;
}

const CACHE = 'public, max-age=86400';

export async function logoRoutes(app: FastifyInstance, deps: LogoRouteDeps): Promise<void> {
  app.get<{ Params: { brand_id: string }; Querystring: { lang?: string } }>(
    LOGO_ROUTE,
    async (request, reply) => {
      const raw = request.params.brand_id;
      if (!/^[1-9]\d{0,9}$/.test(raw)) {
        throw new ApiError(
          400,
          'INVALID_BRAND_ID',
          `brand_id must be a positive integer, got "${raw.slice(0, 40)}"`,
          {
            field: 'brand_id',
          },
        );
      }
      const lang = request.query.lang;
      const arabic =
        lang === 'ar' || (lang === undefined && /^ar\b/i.test(request.headers['accept-language'] ?? ''));
      if (lang !== undefined && lang !== 'ar' && lang !== 'en') {
        throw new ApiError(400, 'INVALID_LANG', `lang must be "ar" or "en", got "${lang.slice(0, 20)}"`, {
          field: 'lang',
        });
      }
      const snapshot = deps.snapshots.current();
      if (snapshot === null) {
        throw new ApiError(503, 'STORE_UNAVAILABLE', 'the brand store is unavailable; retry later', {
          field: '',
          headers: { 'retry-after': '5' },
        });
      }
      const brand = snapshot.brandsById.get(Number(raw));
      if (!brand)
        throw new ApiError(404, 'BRAND_NOT_FOUND', `no brand with id ${raw}`, { field: 'brand_id' });
      // A product line without its own image shows its brand's.
      const parent = brand.parent_id !== null ? snapshot.brandsById.get(brand.parent_id) : undefined;
      const file =
        findLogoPath(deps.logoDir, brand.logo) ??
        findLogo(deps.logoDir, brand.slug) ??
        (parent ? findLogo(deps.logoDir, parent.slug) : null);
      if (file) {
        return reply
          .type(file.contentType)
          .header('cache-control', CACHE)
          .send(await readFile(file.path));
      }
      if (/^https?:\/\//.test(brand.logo)) return reply.redirect(brand.logo, 302);
      return reply
        .type('image/svg+xml; charset=utf-8')
        .header('cache-control', CACHE)
        .header('vary', 'accept-language')
        .send(generatedLogo(brand, arabic));
    },
  );
}
