/**
 * Reads the pinned name-suggestion-index package (BSD-3-Clause; its Wikidata extract is CC0): every
 * brand and operator item with its OSM tag, the countries of its location set, and the Wikidata
 * facts the catalog takes (website, Commons logo file). Nothing here decides what to import.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { featuresIn } from '@rapideditor/country-coder';

const require = createRequire(import.meta.url);

export interface NsiItem {
  /** The index's own id (`marjane-dc016e`): stable across releases, it keys our brand ids. */
  readonly id: string;
  readonly displayName: string;
  /** `amenity=bank`, `shop=supermarket`: the primary tag of the item's category. */
  readonly tag: string;
  readonly kind: 'brands' | 'operators';
  readonly tags: Readonly<Record<string, string>>;
  readonly matchNames: readonly string[];
  /** ISO 3166-1 alpha-2 codes (upper case) the item is in; empty for worldwide items. */
  readonly countries: readonly string[];
  /** True when the location set is the whole world (`001`), less its exclusions. */
  readonly worldwide: boolean;
  readonly wikidata: string | null;
}

export interface WikidataFacts {
  readonly label: string | null;
  readonly website: string | null;
  /** The Commons file name of the logo (`Careem logo.svg`), when Wikidata names one. */
  readonly logoFile: string | null;
}

export interface NsiIndex {
  readonly version: string;
  readonly items: readonly NsiItem[];
  wikidata(id: string): WikidataFacts | null;
}

interface RawItem {
  id: string;
  displayName: string;
  locationSet?: { include?: (string | number)[]; exclude?: (string | number)[] };
  matchNames?: string[];
  tags: Record<string, string>;
}

interface RawWikidata {
  label?: string;
  logos?: { wikidata?: string };
  identities?: { website?: string };
  officialWebsites?: string[];
}

/** The package exports its code only: its folder is three levels above the entry (dist/js/nsi.cjs). */
function packageDir(): string {
  return dirname(dirname(dirname(require.resolve('name-suggestion-index'))));
}

/** Country codes of a location set entry: a country, or a UN M49 region of countries. */
function countriesOf(code: string): string[] {
  if (/^[a-z]{2}$/i.test(code)) return [code.toUpperCase()];
  if (/^\d{3}$/.test(code) && code !== '001') {
    return featuresIn(code, true)
      .map((f) => f.properties.iso1A2)
      .filter((c): c is string => typeof c === 'string' && /^[A-Z]{2}$/.test(c));
  }
  // Sub-national areas (`gb-eng`, `us-ca.geojson`) say nothing about a whole country.
  return [];
}

export function loadNsi(): NsiIndex {
  const dir = packageDir();
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
  const nsi = JSON.parse(readFileSync(join(dir, 'dist', 'json', 'nsi.json'), 'utf8')) as {
    nsi: Record<string, { items: RawItem[] }>;
  };
  const wd = JSON.parse(readFileSync(join(dir, 'dist', 'wikidata', 'wikidata.json'), 'utf8')) as {
    wikidata: Record<string, RawWikidata>;
  };
  const items: NsiItem[] = [];
  for (const [path, category] of Object.entries(nsi.nsi)) {
    const [kind, key, value] = path.split('/');
    if ((kind !== 'brands' && kind !== 'operators') || !key || !value) continue;
    for (const raw of category.items) {
      const include = (raw.locationSet?.include ?? []).map(String);
      const exclude = new Set((raw.locationSet?.exclude ?? []).map(String).flatMap(countriesOf));
      const countries = [...new Set(include.flatMap(countriesOf))].filter((c) => !exclude.has(c)).sort();
      items.push({
        id: raw.id,
        displayName: raw.displayName,
        tag: `${key}=${value}`,
        kind,
        tags: raw.tags,
        matchNames: raw.matchNames ?? [],
        countries,
        worldwide: include.includes('001'),
        wikidata: raw.tags[`${kind === 'brands' ? 'brand' : 'operator'}:wikidata`] ?? null,
      });
    }
  }
  return {
    version: pkg.version,
    items,
    wikidata(id) {
      const w = wd.wikidata[id];
      if (!w) return null;
      return {
        label: w.label ?? null,
        website: w.officialWebsites?.[0] ?? w.identities?.website ?? null,
        logoFile: commonsFile(w.logos?.wikidata),
      };
    },
  };
}

/**
 * The file name in a Commons URL (`…/Special:FilePath/Careem%20logo.svg`,
 * `…Special%3ARedirect%2Ffile%2FCareem%20logo.svg&width=150`), else null.
 */
export function commonsFile(url: string | undefined): string | null {
  if (!url || !url.startsWith('https://commons.wikimedia.org/')) return null;
  const decoded = decodeURIComponent(url.replace(/\+/g, ' '));
  const m = /(?:Special:FilePath\/|Special:Redirect\/file\/)([^?&]+)/.exec(decoded);
  const file = m?.[1]?.trim() || null;
  // Wikidata's logo property sometimes holds a document (a PDF, a DjVu scan): not a logo to show.
  return file && IMAGE_FILE.test(file) ? file : null;
}

const IMAGE_FILE = /\.(svg|png|jpe?g|gif|webp)$/i;
