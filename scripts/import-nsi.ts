/**
 * `npm run data:import-nsi [-- --osm-tags FILE]`: regenerates the catalog's name-suggestion-index
 * data from the pinned package version (docs/data-sources.md):
 * - links curated brands to index items (Wikidata id, a missing website, the Commons logo file),
 *   written into data/brands/*.json;
 * - imports the MENA and CIS brands the curated catalog lacks into data/brands/nsi-mena.json (the
 *   file keeps its first name so brand ids and diffs stay stable);
 * - then the notable brands of the world's main card markets (WORLD, worldwide and continent-wide
 *   items) that neither the curated catalog nor the first import has into data/brands/nsi-world.json.
 * Updating the index is `npm install -E name-suggestion-index@NEW` and this command.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_DATA_DIR, brandFiles } from '../src/data/load.js';
import {
  brandFileSchema,
  businessLinesSchema,
  osmTagMapSchema,
  type Brand,
  type OsmTagMap,
} from '../src/data/schemas.js';
import { indentOf } from './alias-safety.js';
import { FIRST_WORLD_ID, IMPORTED_REGIONS, WORLD, importBrands, type ImportedBrand } from './nsi/import.js';
import { loadNsi } from './nsi/index-data.js';
import { linkBrands } from './nsi/link.js';

export const IMPORT_FILE = 'nsi-mena.json';
export const WORLD_FILE = 'nsi-world.json';

type RawBrand = Record<string, unknown> & { id: number; website?: string };

/**
 * The brand with the import's fields in fixed places (website after the Arabic name, the links
 * last), so a second run writes the same bytes.
 */
function placed(
  b: RawBrand,
  fields: { website?: string; wikidata_id?: string; logo_source?: string },
): RawBrand {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(b)) {
    if (k === 'website' || k === 'wikidata_id' || k === 'logo_source') continue;
    out[k] = v;
    if (k === 'name_ar_source' && fields.website) out.website = fields.website;
  }
  if (fields.website && !('website' in out)) out.website = fields.website;
  if (fields.wikidata_id) out.wikidata_id = fields.wikidata_id;
  if (fields.logo_source) out.logo_source = fields.logo_source;
  return out as RawBrand;
}

export function readOsmTags(path: string): OsmTagMap {
  if (!existsSync(path)) {
    throw new Error(
      `${path} not found: the OSM tag → sub-category map (data/osm-tags.json) decides each imported brand's category`,
    );
  }
  const parsed = osmTagMapSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) throw new Error(`${path}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

/** OSM tag → the business lines (data/business-lines.json `osm_tags`) its imported brands carry. */
function readLineTags(path: string): Map<string, string[]> {
  const { lines } = businessLinesSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  const byTag = new Map<string, string[]>();
  for (const line of lines)
    for (const tag of line.osm_tags) byTag.set(tag, [...(byTag.get(tag) ?? []), line.id]);
  return byTag;
}

/**
 * Computes every file the import writes (path → text) and a summary; writes them only when asked,
 * so a test can compare them with the committed files.
 */
export function runImport(
  dataDir: string,
  osmTagsPath: string,
  write: boolean,
): { files: Map<string, string>; summary: Record<string, unknown> } {
  const files = new Map<string, string>();
  // The map first: without it nothing can be imported, and the index takes seconds to read.
  const osmMap = readOsmTags(osmTagsPath);
  const osmTags = osmMap.tags;
  const osmRefinements = osmMap.refinements;
  const index = loadNsi();
  const curatedFiles = brandFiles(dataDir).filter((f) => f !== IMPORT_FILE && f !== WORLD_FILE);
  const raw = new Map<string, { text: string; json: { piece: string; brands: RawBrand[] } }>();
  const curated: Brand[] = [];
  for (const file of curatedFiles) {
    const text = readFileSync(join(dataDir, 'brands', file), 'utf8');
    raw.set(file, { text, json: JSON.parse(text) as { piece: string; brands: RawBrand[] } });
    curated.push(...brandFileSchema.parse(JSON.parse(text)).brands);
  }

  // Links are the import's to write: each run replaces them; a website is only ever filled in. A
  // filled-in website is evidence for the next link, so link until nothing changes: running the
  // import twice gives the same files.
  let links = linkBrands(curated, index);
  for (let pass = 0; pass < 5; pass++) {
    let filled = 0;
    for (const b of curated) {
      const website = links.get(b.id)?.website;
      if (!b.website && website) {
        Object.assign(b, { website });
        filled++;
      }
    }
    if (filled === 0) break;
    links = linkBrands(curated, index);
  }
  let websitesFilled = 0;
  for (const [file, { text, json }] of raw) {
    json.brands = json.brands.map((b) => {
      const link = links.get(b.id);
      if (!b.website && link?.website) websitesFilled++;
      return placed(b, {
        website: b.website ?? link?.website ?? undefined,
        wikidata_id: link?.wikidata_id,
        logo_source: link?.logo_source ?? undefined,
      });
    });
    files.set(join(dataDir, 'brands', file), `${JSON.stringify(json, null, indentOf(text))}\n`);
  }
  for (const b of curated) {
    const link = links.get(b.id);
    if (link) Object.assign(b, { wikidata_id: link.wikidata_id });
  }

  const previousIds = (path: string): Map<string, number> =>
    new Map(
      existsSync(path)
        ? (JSON.parse(readFileSync(path, 'utf8')) as { brands: { id: number; nsi_id: string }[] }).brands.map(
            (b) => [b.nsi_id, b.id],
          )
        : [],
    );
  const curatedWikidata = new Set([...links.values()].map((l) => l.wikidata_id));
  const importPath = join(dataDir, 'brands', IMPORT_FILE);
  const lineTags = readLineTags(join(dataDir, 'business-lines.json'));
  const report = importBrands(index, {
    osmTags,
    osmRefinements,
    lineTags,
    curated,
    curatedWikidata,
    previousIds: previousIds(importPath),
  });
  const file = { piece: 'nsi-mena', source: `name-suggestion-index@${index.version}`, brands: report.brands };
  files.set(importPath, `${JSON.stringify(file, null, 2)}\n`);

  // The world import comes second: what the curated catalog or the MENA/CIS import has (item, Wikidata
  // id, name or alias) is theirs.
  const worldPath = join(dataDir, 'brands', WORLD_FILE);
  const world = importBrands(index, {
    osmTags,
    osmRefinements,
    lineTags,
    curated: [...curated, ...report.brands],
    curatedWikidata: new Set([
      ...curatedWikidata,
      ...report.brands.flatMap((b) => (b.wikidata_id ? [b.wikidata_id] : [])),
    ]),
    previousIds: previousIds(worldPath),
    regions: WORLD,
    worldwide: true,
    firstId: FIRST_WORLD_ID,
    excluded: new Set(report.brands.map((b) => b.nsi_id)),
    notable: true,
  });
  const worldFile = {
    piece: 'nsi-world',
    source: `name-suggestion-index@${index.version}`,
    brands: world.brands,
  };
  files.set(worldPath, `${JSON.stringify(worldFile, null, 2)}\n`);
  if (write) for (const [path, text] of files) writeFileSync(path, text);

  const perCountry = (
    brands: readonly ImportedBrand[],
    regions: readonly string[],
  ): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const r of regions) out[r] = 0;
    for (const b of brands) for (const c of b.countries) if (regions.includes(c)) out[c] = (out[c] ?? 0) + 1;
    return out;
  };
  return {
    files,
    summary: {
      index: index.version,
      linked: links.size,
      linked_by: [...links.values()].reduce<Record<string, number>>(
        (acc, l) => ({ ...acc, [l.how]: (acc[l.how] ?? 0) + 1 }),
        {},
      ),
      websites_filled: websitesFilled,
      imported: report.brands.length,
      imported_with_arabic_name: report.brands.filter((b) => b.name_ar).length,
      imported_per_country: perCountry(report.brands, IMPORTED_REGIONS),
      skipped: report.skipped,
      world: {
        imported: world.brands.length,
        imported_per_country: perCountry(world.brands, [...WORLD, '*']),
        skipped: world.skipped,
      },
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--osm-tags');
  const osmTags = at > 0 ? (process.argv[at + 1] ?? '') : join(DEFAULT_DATA_DIR, 'osm-tags.json');
  try {
    const { summary } = runImport(DEFAULT_DATA_DIR, osmTags, true);
    console.log(JSON.stringify(summary, null, 2));
  } catch (err) {
    console.error(`data:import-nsi: ${(err as Error).message}`);
    process.exitCode = 1;
  }
}
