/**
 * Reads and validates the reference data in data/. Used at the edges (CLI, worker, API, tests);
 * the engine itself never touches the file system.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import type { MerchantModelData } from '../engine/merchant-model.js';
import {
  alertsSchema,
  aliasRulesSchema,
  brandFileSchema,
  businessLinesSchema,
  intermediariesSchema,
  locationsSchema,
  mccMapSchema,
  merchantModelHeaderSchema,
  osmTagMapSchema,
  rulesSchema,
  taxonomySchema,
  wordsSchema,
  personNamesSchema,
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
  const alerts = read('alerts.json', alertsSchema);
  const words = read('words.json', wordsSchema);
  const personNames = read('person-names.json', personNamesSchema);
  const aliasRules = read('alias-rules.json', aliasRulesSchema);
  const businessLines = read('business-lines.json', businessLinesSchema);
  const brands: Brand[] = [];
  for (const file of brandFiles(dir)) brands.push(...read(join('brands', file), brandFileSchema).brands);
  const model = existsSync(join(dir, MODEL_HEADER)) ? loadMerchantModel(dir, digest) : undefined;

  return {
    taxonomy,
    brands,
    mccMap,
    intermediaries,
    rules,
    locations,
    alerts,
    ...(model ? { model } : {}),
    words,
    personNames,
    aliasRules,
    businessLines,
    version: `${taxonomy.version}+${digest.digest('hex').slice(0, 12)}`,
  };
}

export function brandFiles(dir: string = DEFAULT_DATA_DIR): string[] {
  return readdirSync(join(dir, 'brands'))
    .filter((f) => f.endsWith('.json'))
    .sort();
}

export const MODEL_HEADER = join('model', 'merchant-type.json');
export const MODEL_WEIGHTS = join('model', 'merchant-type.bin');

/**
 * The merchant-type model: its header (JSON) and weights (binary, little-endian): one float32 bias
 * per class, one uint8 entry count per hash bucket, then each entry's class (uint8) and its weight
 * (int8 × scale), buckets in order.
 */
export function loadMerchantModel(
  dir: string = DEFAULT_DATA_DIR,
  digest?: ReturnType<typeof createHash>,
): MerchantModelData {
  const header = readDataFile(dir, MODEL_HEADER, merchantModelHeaderSchema, digest);
  const path = join(dir, MODEL_WEIGHTS);
  const bytes = readFileSync(path);
  digest?.update(MODEL_WEIGHTS).update(bytes);
  const sha = createHash('sha256').update(bytes).digest('hex');
  const classCount = header.classes.length;
  const buckets = 2 ** header.bucket_bits;
  const expected = classCount * 4 + buckets + 2 * header.entries;
  const problems: string[] = [];
  if (sha !== header.weights_sha256)
    problems.push(`sha256 ${sha} is not the header's ${header.weights_sha256}`);
  if (bytes.length !== expected) problems.push(`${bytes.length} bytes, the header implies ${expected}`);
  if (problems.length > 0) throw new DataFileError(path, problems);

  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bias = new Float32Array(classCount);
  for (let k = 0; k < classCount; k++) bias[k] = view.getFloat32(4 * k, true);
  let at = classCount * 4;
  const offsets = new Uint32Array(buckets + 1);
  for (let b = 0; b < buckets; b++) offsets[b + 1] = (offsets[b] as number) + (bytes[at + b] as number);
  at += buckets;
  if (offsets[buckets] !== header.entries) {
    throw new DataFileError(path, [
      `bucket counts add up to ${offsets[buckets]}, not ${header.entries} entries`,
    ]);
  }
  // Views on the file's bytes, not copies: the snapshot holds the weights as long as it lives.
  const entryClass = bytes.subarray(at, at + header.entries);
  at += header.entries;
  const entryWeight = new Int8Array(bytes.buffer, bytes.byteOffset + at, header.entries);
  for (let e = 0; e < entryClass.length; e++) {
    if ((entryClass[e] as number) >= classCount) {
      throw new DataFileError(path, [`entry ${e} names class ${entryClass[e]} of ${classCount}`]);
    }
  }
  return {
    id: `${header.name}@${sha.slice(0, 8)}`,
    classes: header.classes,
    bucketBits: header.bucket_bits,
    temperature: header.temperature,
    threshold: header.threshold,
    scale: header.scale,
    bias,
    offsets,
    entryClass,
    entryWeight,
  };
}
