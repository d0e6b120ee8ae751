/**
 * Mirrors brand logos from Wikimedia Commons into the logo folder: for each brand with a
 * `logo_source`, the file itself and, beside it, its licence as Commons states it (`<file>.licence
 * .json`). Commons files carry their own licences (many are trademarks under a non-free or
 * public-domain-textlogo rationale), so the catalog names files and never ships them. A file whose
 * licence Commons does not state is not kept.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { extensionOf, findLogo } from './folder.js';

export interface MirrorSubject {
  readonly slug: string;
  readonly logo_source: string;
}

export interface MirrorOptions {
  readonly commonsUrl: string;
  readonly dir: string;
  /** Per request (default 15 s). */
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
  /** When the file was fetched, recorded with its licence. */
  readonly now?: () => Date;
}

export interface MirrorResult {
  readonly downloaded: string[];
  /** Brands whose folder already had an image (an operator's, or an earlier mirror's). */
  readonly present: string[];
  readonly failed: { readonly slug: string; readonly file: string; readonly reason: string }[];
}

export interface LicenceRecord {
  readonly file: string;
  readonly source: string;
  readonly licence: string;
  readonly licence_url: string | null;
  readonly artist: string | null;
  readonly retrieved_at: string;
}

/** Commons could not be reached at all: nothing can be mirrored (offline, DNS, proxy). */
export class CommonsUnreachable extends Error {
  constructor(url: string, cause: unknown) {
    super(
      `cannot reach Wikimedia Commons at ${url} (${describe(cause)}): 'logos mirror' needs network access to it; set COMMONS_URL to a reachable mirror, or put logo files in the logo folder by hand`,
    );
    this.name = 'CommonsUnreachable';
  }
}

function describe(error: unknown): string {
  const e = error as { cause?: { code?: string; message?: string }; message?: string; name?: string };
  return (
    e.cause?.code ??
    e.cause?.message ??
    (e.name === 'TimeoutError' ? 'timed out' : (e.message ?? String(error)))
  );
}

interface ImageInfo {
  url?: string;
  mime?: string;
  extmetadata?: Record<string, { value?: string } | undefined>;
}

function plain(html: string | undefined): string | null {
  const text = html
    ?.replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text ? text : null;
}

export async function mirrorLogos(
  subjects: readonly MirrorSubject[],
  options: MirrorOptions,
): Promise<MirrorResult> {
  const get = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const base = options.commonsUrl.replace(/\/+$/, '');
  const result: MirrorResult = { downloaded: [], present: [], failed: [] };
  mkdirSync(options.dir, { recursive: true });
  let reached = false;

  const request = async (url: string): Promise<Response> => {
    try {
      const response = await get(url, {
        signal: AbortSignal.timeout(timeoutMs),
        headers: { 'user-agent': 'tx-enrich logos mirror' },
      });
      reached = true;
      return response;
    } catch (error) {
      // Before any answer, a network failure means Commons is out of reach: stop with one clear error.
      if (!reached) throw new CommonsUnreachable(base, error);
      throw error;
    }
  };

  for (const s of subjects) {
    const fail = (reason: string): void => {
      result.failed.push({ slug: s.slug, file: s.logo_source, reason });
    };
    if (findLogo(options.dir, s.slug)) {
      result.present.push(s.slug);
      continue;
    }
    const ext = extensionOf(s.logo_source);
    if (!ext) {
      fail('not an image type the API serves');
      continue;
    }
    try {
      const query = new URLSearchParams({
        action: 'query',
        format: 'json',
        prop: 'imageinfo',
        iiprop: 'url|mime|extmetadata',
        titles: `File:${s.logo_source}`,
      });
      const info = await request(`${base}/w/api.php?${query}`);
      if (!info.ok) {
        fail(`Commons API answered ${info.status}`);
        continue;
      }
      const body = (await info.json()) as { query?: { pages?: Record<string, { imageinfo?: ImageInfo[] }> } };
      const image = Object.values(body.query?.pages ?? {})[0]?.imageinfo?.[0];
      const licence = plain(image?.extmetadata?.LicenseShortName?.value);
      if (!image?.url) {
        fail('no such file on Commons');
        continue;
      }
      if (!licence) {
        fail('Commons states no licence for the file');
        continue;
      }
      const file = await request(image.url);
      const type = file.headers.get('content-type') ?? '';
      if (!file.ok || !type.startsWith('image/')) {
        fail(`download answered ${file.status} ${type}`.trim());
        continue;
      }
      const name = `${s.slug}.${ext}`;
      writeFileSync(join(options.dir, name), Buffer.from(await file.arrayBuffer()));
      const record: LicenceRecord = {
        file: s.logo_source,
        source: `${base}/wiki/File:${encodeURIComponent(s.logo_source.replace(/ /g, '_'))}`,
        licence,
        licence_url: plain(image.extmetadata?.LicenseUrl?.value),
        artist: plain(image.extmetadata?.Artist?.value),
        retrieved_at: (options.now ?? (() => new Date()))().toISOString(),
      };
      writeFileSync(join(options.dir, `${name}.licence.json`), `${JSON.stringify(record, null, 2)}\n`);
      result.downloaded.push(s.slug);
    } catch (error) {
      if (error instanceof CommonsUnreachable) throw error;
      fail(describe(error));
    }
  }
  return result;
}

/** True when the folder has the licence record of a mirrored file (for reports and tests). */
export function hasLicence(dir: string, slug: string, ext: string): boolean {
  return existsSync(join(dir, `${slug}.${ext}.licence.json`));
}
