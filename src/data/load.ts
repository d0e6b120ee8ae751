/**
 * Reads and validates the reference data in data/. Used at the edges (CLI, worker, API, tests);
 * the engine itself never touches the file system.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import {
  brandFileSchema,
  intermediariesSchema,
  locationsSchema,
  mccMapSchema,
  osmTagMapSchema,
  rulesSchema,
  taxonomySchema,
  type Brand,
  type OsmTagMap,
  type ReferenceData,
} from './schemas.js';

/** The project's data/ folder, found upwards from this file (works from src/ and from dist/). */
export const DEFAULT_DATA_DIR = findDataDir(dirname(fileURLToPath(import.meta.url)));

function findDataDir(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'data');
    if (existsSync(join(candidate, 'taxonomy.json'))) return candidate;
    if (dirname(dir) === dir) return join(from, '..', '..', 'data');
  }
}

export class DataFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    super(`invalid data file ${file}:\n  ${problems.join('\n  ')}`);
    this.name = 'DataFileError';
  }
}

/** Reads, parses and validates one data file; the text goes into `digest` when one is given. */
function readDataFile<S extends z.ZodType>(
  dir: string,
  file: string,
  schema: S,
  digest?: ReturnType<typeof createHash>,
): z.output<S> {
  const path = join(dir, file);
  const text = readFileSync(path, 'utf8');
  digest?.update(file).update(text);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new DataFileError(path, [(err as Error).message]);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new DataFileError(
      path,
      parsed.error.issues.slice(0, 20).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`),
    );
  }
  return parsed.data;
}

/** The OSM tag → sub-category map (data/osm-tags.json), validated. */
export function loadOsmTagMap(dir: string = DEFAULT_DATA_DIR): OsmTagMap {
  return readDataFile(dir, 'osm-tags.json', osmTagMapSchema);
}

export function loadReferenceData(dir: string = DEFAULT_DATA_DIR): ReferenceData {
  const digest = createHash('sha256');
  const read = <S extends z.ZodType>(file: string, schema: S): z.output<S> =>
    readDataFile(dir, file, schema, digest);

  const taxonomy = read('taxonomy.json', taxonomySchema);
  const mccMap = read('mcc-map.json', mccMapSchema);
  const intermediaries = read('intermediaries.json', intermediariesSchema);
  const rules = read('rules.json', rulesSchema);
  const locations = read('locations.json', locationsSchema);
  const brands: Brand[] = [];
  for (const file of brandFiles(dir)) brands.push(...read(join('brands', file), brandFileSchema).brands);

  return {
    taxonomy,
    brands,
    mccMap,
    intermediaries,
    rules,
    locations,
    version: `${taxonomy.version}+${digest.digest('hex').slice(0, 12)}`,
  };
}

export function brandFiles(dir: string = DEFAULT_DATA_DIR): string[] {
  return readdirSync(join(dir, 'brands'))
    .filter((f) => f.endsWith('.json'))
    .sort();
}
