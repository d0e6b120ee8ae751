/**
 * The logo folder (LOGO_DIR): an operator's image of a brand, or one `tx-enrich logos mirror`
 * downloaded from Wikimedia Commons, named after the brand's slug. The licence of a mirrored file
 * sits beside it (`<file>.licence.json`).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const LOGO_TYPES: Readonly<Record<string, string>> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

export interface LogoFile {
  readonly path: string;
  readonly contentType: string;
}

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The first `<slug>.<ext>` in the folder, in LOGO_TYPES order, or null. */
export function findLogo(dir: string, slug: string): LogoFile | null {
  if (!SLUG.test(slug)) return null;
  for (const [ext, contentType] of Object.entries(LOGO_TYPES)) {
    const path = join(dir, `${slug}.${ext}`);
    if (existsSync(path)) return { path, contentType };
  }
  return null;
}

/**
 * A brand's `logo` path (`brands/starbucks-2027.png`, as an operator may set it) inside the folder,
 * or null: absent, a URL, or a path that would leave the folder.
 */
export function findLogoPath(dir: string, logo: string): LogoFile | null {
  if (!/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/.test(logo) || logo.split('/').some((p) => p.startsWith('.'))) {
    return null;
  }
  const contentType = LOGO_TYPES[/\.([a-z0-9]+)$/i.exec(logo)?.[1]?.toLowerCase() ?? ''];
  const path = join(dir, logo);
  return contentType && existsSync(path) ? { path, contentType } : null;
}

/** The extension a Commons file keeps in the folder (`Careem logo.SVG` → `svg`), or null if not an image type. */
export function extensionOf(fileName: string): string | null {
  const ext = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return ext && ext in LOGO_TYPES ? ext : null;
}
