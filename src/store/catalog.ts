/**
 * The catalog tables: seeding from data/ (idempotent: brands upserted by id, only when their data
 * entry changed, never over an operator's edit), reading the effective catalog back as the engine's
 * `Brand[]`, and the operator's search, show, add and update.
 */
import { createHash } from 'node:crypto';
import type { Brand, ProductLine } from '../data/schemas.js';
import { XACT_LOCK_SQL, type Database, type Queryable } from './db.js';

/** Ids of brands the store itself creates (operators, feedback) start here; catalog ids stay below. */
export const STORE_BRAND_ID_BASE = 100_000_000;
/** Position of brands that are not in data/: after every catalog brand. */
const STORE_POSITION_BASE = 1_000_000;
/** Aliases operators add sit after every catalog alias, so re-seeding never overwrites them. */
const OPERATOR_ALIAS_POSITION = 10_000;

/** The lock every change that takes a change_seq number holds (seeding, corrections, edits). */
export function applyLockName(db: Database | { schema: string }): string {
  return `${db.schema}:apply`;
}

export function brandDigest(brand: Brand): string {
  return createHash('sha256').update(JSON.stringify(brand)).digest('hex').slice(0, 24);
}

export interface SeedResult {
  readonly inserted: number;
  readonly updated: number;
  readonly unchanged: number;
  /** Catalog ids already taken by a brand the store created (left alone). */
  readonly conflicts: readonly number[];
}

/**
 * Upserts the catalog brands by id. A brand whose data entry is unchanged (same digest) is not
 * touched, so re-seeding changes nothing. A brand an operator edited keeps the edit (overrides).
 */
export async function seedCatalog(db: Database, brands: readonly Brand[]): Promise<SeedResult> {
  return db.transaction(async (tx) => {
    await tx.query(XACT_LOCK_SQL, [applyLockName(db)]);
    const { rows } = await tx.query<{ id: number; seed_digest: string | null; origin: string }>(
      'SELECT id, seed_digest, origin FROM brands',
    );
    const existing = new Map(rows.map((r) => [Number(r.id), r]));
    const changed: { brand: Brand; digest: string; position: number }[] = [];
    const conflicts: number[] = [];
    let unchanged = 0;
    brands.forEach((brand, position) => {
      const digest = brandDigest(brand);
      const row = existing.get(brand.id);
      if (row && row.origin !== 'catalog') conflicts.push(brand.id);
      else if (row?.seed_digest === digest) unchanged++;
      else changed.push({ brand, digest, position });
    });
    if (changed.length === 0) return { inserted: 0, updated: 0, unchanged, conflicts };

    const brandRows = changed.map(({ brand: b, digest, position }) => ({
      id: b.id,
      slug: b.slug,
      position,
      name: b.name,
      name_ar: b.name_ar ?? null,
      name_ar_source: b.name_ar_source ?? null,
      website: b.website ?? null,
      logo: b.logo,
      sub_category_id: b.sub_category_id,
      subscription: b.subscription,
      name_alias: b.name_alias,
      mccs: b.mccs,
      countries: b.countries,
      venue: b.venue,
      wikidata_id: b.wikidata_id ?? null,
      logo_source: b.logo_source ?? null,
      lines: b.lines,
      seed_digest: digest,
    }));
    await tx.query(
      `INSERT INTO brands (id, slug, position, name, name_ar, name_ar_source, website, logo, sub_category_id,
                           subscription, name_alias, mccs, countries, venue, wikidata_id, logo_source, lines,
                           origin, seed_digest, version)
       SELECT r.id, r.slug, r.position, r.name, r.name_ar, r.name_ar_source, r.website, r.logo, r.sub_category_id,
              r.subscription, r.name_alias, r.mccs, r.countries, r.venue, r.wikidata_id, r.logo_source, r.lines,
              'catalog', r.seed_digest, nextval('change_seq')
       FROM jsonb_to_recordset($1::jsonb) AS r(id integer, slug text, position integer, name text, name_ar text,
            name_ar_source text, website text, logo text, sub_category_id text, subscription boolean,
            name_alias boolean, mccs text[], countries text[], venue boolean, wikidata_id text, logo_source text,
            lines text[], seed_digest text)
       ORDER BY r.position
       ON CONFLICT (id) DO UPDATE SET
         slug = EXCLUDED.slug, position = EXCLUDED.position, name = EXCLUDED.name, name_ar = EXCLUDED.name_ar,
         name_ar_source = EXCLUDED.name_ar_source, website = EXCLUDED.website, logo = EXCLUDED.logo,
         sub_category_id = EXCLUDED.sub_category_id, subscription = EXCLUDED.subscription,
         name_alias = EXCLUDED.name_alias, mccs = EXCLUDED.mccs, countries = EXCLUDED.countries,
         venue = EXCLUDED.venue, wikidata_id = EXCLUDED.wikidata_id, logo_source = EXCLUDED.logo_source,
         lines = EXCLUDED.lines, seed_digest = EXCLUDED.seed_digest, version = EXCLUDED.version, updated_at = now()
       WHERE brands.origin = 'catalog'`,
      [JSON.stringify(brandRows)],
    );
    const ids = changed.map((c) => c.brand.id);
    await tx.query(`DELETE FROM brand_aliases WHERE brand_id = ANY($1::int[]) AND origin = 'catalog'`, [ids]);
    const aliasRows = changed.flatMap(({ brand: b }) => [
      ...b.aliases.map((alias, position) => ({ brand_id: b.id, weak: false, position, alias })),
      ...b.weak_aliases.map((alias, position) => ({ brand_id: b.id, weak: true, position, alias })),
    ]);
    await tx.query(
      `INSERT INTO brand_aliases (brand_id, weak, position, alias, origin)
       SELECT r.brand_id, r.weak, r.position, r.alias, 'catalog'
       FROM jsonb_to_recordset($1::jsonb) AS r(brand_id integer, weak boolean, position integer, alias text)
       ON CONFLICT (brand_id, weak, position) DO UPDATE SET alias = EXCLUDED.alias, origin = 'catalog'`,
      [JSON.stringify(aliasRows)],
    );
    const lines = changed.flatMap(({ brand: b }) =>
      (b.product_lines ?? []).map((l, position) => ({ line: l, brandId: b.id, position })),
    );
    if (lines.length > 0) {
      await tx.query(
        `INSERT INTO product_lines (id, brand_id, slug, position, name, name_ar, name_ar_source, website,
                                    sub_category_id, subscription, name_alias, mccs, origin, seed_digest, version)
         SELECT r.id, r.brand_id, r.slug, r.position, r.name, r.name_ar, r.name_ar_source, r.website,
                r.sub_category_id, r.subscription, r.name_alias, r.mccs, 'catalog', r.seed_digest, nextval('change_seq')
         FROM jsonb_to_recordset($1::jsonb) AS r(id integer, brand_id integer, slug text, position integer,
              name text, name_ar text, name_ar_source text, website text, sub_category_id text,
              subscription boolean, name_alias boolean, mccs text[], seed_digest text)
         ON CONFLICT (id) DO UPDATE SET
           brand_id = EXCLUDED.brand_id, slug = EXCLUDED.slug, position = EXCLUDED.position, name = EXCLUDED.name,
           name_ar = EXCLUDED.name_ar, name_ar_source = EXCLUDED.name_ar_source, website = EXCLUDED.website,
           sub_category_id = EXCLUDED.sub_category_id, subscription = EXCLUDED.subscription,
           name_alias = EXCLUDED.name_alias, mccs = EXCLUDED.mccs, seed_digest = EXCLUDED.seed_digest,
           version = EXCLUDED.version, updated_at = now()
         WHERE product_lines.origin = 'catalog'`,
        [
          JSON.stringify(
            lines.map(({ line: l, brandId, position }) => ({
              id: l.id,
              brand_id: brandId,
              slug: l.slug,
              position,
              name: l.name,
              name_ar: l.name_ar,
              name_ar_source: l.name_ar_source,
              website: l.website ?? null,
              sub_category_id: l.sub_category_id,
              subscription: l.subscription,
              name_alias: l.name_alias,
              mccs: l.mccs ?? null,
              seed_digest: null,
            })),
          ),
        ],
      );
      const lineIds = lines.map((l) => l.line.id);
      await tx.query(
        `DELETE FROM product_line_aliases WHERE product_line_id = ANY($1::int[]) AND origin = 'catalog'`,
        [lineIds],
      );
      await tx.query(
        `INSERT INTO product_line_aliases (product_line_id, weak, position, alias, origin)
         SELECT r.id, r.weak, r.position, r.alias, 'catalog'
         FROM jsonb_to_recordset($1::jsonb) AS r(id integer, weak boolean, position integer, alias text)
         ON CONFLICT (product_line_id, weak, position) DO UPDATE SET alias = EXCLUDED.alias, origin = 'catalog'`,
        [
          JSON.stringify(
            lines.flatMap(({ line }) => [
              ...line.aliases.map((alias, position) => ({ id: line.id, weak: false, position, alias })),
              ...line.weak_aliases.map((alias, position) => ({ id: line.id, weak: true, position, alias })),
            ]),
          ),
        ],
      );
    }
    const inserted = changed.filter((c) => !existing.has(c.brand.id)).length;
    return { inserted, updated: changed.length - inserted, unchanged, conflicts };
  });
}

// ---------------------------------------------------------------------------------------------------
// Reading the effective catalog

interface BrandRow {
  id: number;
  slug: string;
  position: number;
  name: string;
  name_ar: string | null;
  name_ar_source: string | null;
  website: string | null;
  logo: string | null;
  sub_category_id: string;
  subscription: boolean;
  name_alias: boolean;
  mccs: string[];
  countries: string[];
  venue: boolean;
  wikidata_id: string | null;
  logo_source: string | null;
  lines: string[] | null;
  origin: string;
  version: string;
}

interface LineRow {
  id: number;
  brand_id: number;
  slug: string;
  name: string;
  name_ar: string | null;
  name_ar_source: string | null;
  website: string | null;
  sub_category_id: string;
  subscription: boolean;
  name_alias: boolean;
  mccs: string[] | null;
  version: string;
}

export interface LoadedCatalog {
  readonly brands: Brand[];
  /** Highest change number among brands and product lines. */
  readonly version: number;
  /** A digest of the effective catalog (reported with every outcome as part of the catalog version). */
  readonly digest: string;
}

/** The effective catalog (seeded data plus operator and feedback brands), in catalog order. */
export async function loadCatalog(q: Queryable): Promise<LoadedCatalog> {
  const brands = await q.query<BrandRow>(
    `SELECT id, slug, position, name, name_ar, name_ar_source, website, logo, sub_category_id, subscription,
            name_alias, mccs, countries, venue, wikidata_id, logo_source, lines, origin, version::text AS version
     FROM brands_effective ORDER BY position, id`,
  );
  const lines = await q.query<LineRow>(
    `SELECT id, brand_id, slug, name, name_ar, name_ar_source, website, sub_category_id, subscription, name_alias,
            mccs, version::text AS version
     FROM product_lines_effective ORDER BY brand_id, position, id`,
  );
  const aliases = await q.query<{ brand_id: number; weak: boolean; alias: string }>(
    'SELECT brand_id, weak, alias FROM brand_aliases ORDER BY brand_id, weak, position',
  );
  const lineAliases = await q.query<{ product_line_id: number; weak: boolean; alias: string }>(
    'SELECT product_line_id, weak, alias FROM product_line_aliases ORDER BY product_line_id, weak, position',
  );
  const strong = new Map<number, string[]>();
  const weak = new Map<number, string[]>();
  for (const a of aliases.rows) push(a.weak ? weak : strong, Number(a.brand_id), a.alias);
  const lineAliasMap = new Map<number, string[]>();
  const lineWeakMap = new Map<number, string[]>();
  for (const a of lineAliases.rows)
    push(a.weak ? lineWeakMap : lineAliasMap, Number(a.product_line_id), a.alias);
  const linesByBrand = new Map<number, ProductLine[]>();
  let version = 0;
  for (const l of lines.rows) {
    version = Math.max(version, Number(l.version));
    const line = {
      id: Number(l.id),
      slug: l.slug,
      name: l.name,
      name_ar: l.name_ar ?? '',
      name_ar_source: (l.name_ar_source ?? 'transliteration') as ProductLine['name_ar_source'],
      ...(l.website ? { website: l.website } : {}),
      sub_category_id: l.sub_category_id,
      aliases: lineAliasMap.get(Number(l.id)) ?? [],
      weak_aliases: lineWeakMap.get(Number(l.id)) ?? [],
      subscription: l.subscription,
      name_alias: l.name_alias,
      ...(l.mccs ? { mccs: l.mccs } : {}),
    } satisfies ProductLine;
    push(linesByBrand, Number(l.brand_id), line);
  }
  const out: Brand[] = [];
  for (const b of brands.rows) {
    version = Math.max(version, Number(b.version));
    const id = Number(b.id);
    const productLines = linesByBrand.get(id);
    out.push({
      id,
      slug: b.slug,
      name: b.name,
      name_ar: b.name_ar ?? '',
      name_ar_source: (b.name_ar_source ?? 'transliteration') as Brand['name_ar_source'],
      ...(b.website ? { website: b.website } : {}),
      sub_category_id: b.sub_category_id,
      aliases: strong.get(id) ?? [],
      subscription: b.subscription,
      name_alias: b.name_alias,
      logo: b.logo ?? `brands/${b.slug}.png`,
      weak_aliases: weak.get(id) ?? [],
      mccs: b.mccs,
      countries: b.countries,
      venue: b.venue,
      ...(b.wikidata_id ? { wikidata_id: b.wikidata_id } : {}),
      ...(b.logo_source ? { logo_source: b.logo_source } : {}),
      lines: b.lines ?? [],
      ...(productLines ? { product_lines: productLines } : {}),
    });
  }
  const digest = createHash('sha256').update(JSON.stringify(out)).digest('hex').slice(0, 12);
  return { brands: out, version, digest };
}

/** Highest change number among brands and product lines (cheap: tells whether to reload). */
export async function catalogVersion(q: Queryable): Promise<number> {
  const { rows } = await q.query<{ v: string }>(
    `SELECT greatest((SELECT coalesce(max(version), 0) FROM brands),
                     (SELECT coalesce(max(version), 0) FROM product_lines))::text AS v`,
  );
  return Number(rows[0]?.v ?? 0);
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

// ---------------------------------------------------------------------------------------------------
// Operator queries

export interface BrandSummary {
  readonly id: number;
  readonly kind: 'brand' | 'product_line';
  readonly name: string;
  readonly name_ar: string | null;
  readonly website: string | null;
  readonly logo: string | null;
  readonly sub_category_id: string;
  readonly origin: string;
  readonly parent_id: number | null;
}

/** Brands and product lines whose name, Arabic name, slug or an alias contains `text`. */
export async function searchBrands(q: Queryable, text: string, limit = 25): Promise<BrandSummary[]> {
  const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { rows } = await q.query<BrandSummary & { id: number }>(
    `SELECT * FROM (
       SELECT b.id, 'brand' AS kind, b.name, b.name_ar, b.website, b.logo, b.sub_category_id, b.origin,
              NULL::integer AS parent_id, b.position
       FROM brands_effective b
       WHERE b.name ILIKE $1 OR b.name_ar ILIKE $1 OR b.slug ILIKE $1
          OR EXISTS (SELECT 1 FROM brand_aliases a WHERE a.brand_id = b.id AND a.alias ILIKE $1)
       UNION ALL
       SELECT l.id, 'product_line', l.name, l.name_ar, l.website, NULL, l.sub_category_id, l.origin, l.brand_id,
              l.position + 500000
       FROM product_lines_effective l
       WHERE l.name ILIKE $1 OR l.name_ar ILIKE $1 OR l.slug ILIKE $1
          OR EXISTS (SELECT 1 FROM product_line_aliases a WHERE a.product_line_id = l.id AND a.alias ILIKE $1)
     ) found ORDER BY position, id LIMIT $2`,
    [like, limit],
  );
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    parent_id: r.parent_id === null ? null : Number(r.parent_id),
  }));
}

export interface BrandDetails extends BrandSummary {
  readonly slug: string;
  readonly aliases: readonly string[];
  readonly weak_aliases: readonly string[];
  readonly product_lines: readonly { id: number; name: string }[];
  readonly overrides: Record<string, string>;
  readonly subscription: boolean;
  readonly mccs: readonly string[] | null;
  readonly countries: readonly string[] | null;
  readonly indexed_transactions: number;
  readonly learned_mappings: number;
}

export async function showBrand(q: Queryable, id: number): Promise<BrandDetails | null> {
  const brand = await q.query<Record<string, unknown>>(
    `SELECT id, 'brand' AS kind, slug, name, name_ar, website, logo, sub_category_id, origin, NULL::integer AS parent_id,
            overrides, subscription, mccs, countries
     FROM brands_effective WHERE id = $1
     UNION ALL
     SELECT id, 'product_line', slug, name, name_ar, website, NULL, sub_category_id, origin, brand_id, overrides,
            subscription, mccs, NULL
     FROM product_lines_effective WHERE id = $1`,
    [id],
  );
  const row = brand.rows[0];
  if (!row) return null;
  const isLine = row.kind === 'product_line';
  const aliases = isLine
    ? await q.query<{ alias: string; weak: boolean }>(
        'SELECT alias, weak FROM product_line_aliases WHERE product_line_id = $1 ORDER BY weak, position',
        [id],
      )
    : await q.query<{ alias: string; weak: boolean }>(
        'SELECT alias, weak FROM brand_aliases WHERE brand_id = $1 ORDER BY weak, position',
        [id],
      );
  const lines = isLine
    ? { rows: [] }
    : await q.query<{ id: number; name: string }>(
        'SELECT id, name FROM product_lines_effective WHERE brand_id = $1 ORDER BY position',
        [id],
      );
  const counts = await q.query<{ indexed: string; mappings: string }>(
    `SELECT (SELECT count(*) FROM enriched_index WHERE brand_id = $1)::text AS indexed,
            (SELECT count(*) FROM learned_mappings WHERE brand_id = $1)::text AS mappings`,
    [id],
  );
  return {
    id: Number(row.id),
    kind: isLine ? 'product_line' : 'brand',
    slug: String(row.slug),
    name: String(row.name),
    name_ar: (row.name_ar as string | null) ?? null,
    website: (row.website as string | null) ?? null,
    logo: (row.logo as string | null) ?? null,
    sub_category_id: String(row.sub_category_id),
    origin: String(row.origin),
    parent_id: row.parent_id === null ? null : Number(row.parent_id),
    aliases: aliases.rows.filter((a) => !a.weak).map((a) => a.alias),
    weak_aliases: aliases.rows.filter((a) => a.weak).map((a) => a.alias),
    product_lines: lines.rows.map((l) => ({ id: Number(l.id), name: l.name })),
    overrides: (row.overrides as Record<string, string>) ?? {},
    subscription: Boolean(row.subscription),
    mccs: (row.mccs as string[] | null) ?? null,
    countries: (row.countries as string[] | null) ?? null,
    indexed_transactions: Number(counts.rows[0]?.indexed ?? 0),
    learned_mappings: Number(counts.rows[0]?.mappings ?? 0),
  };
}

/** The next id for a brand the store creates (call under the apply lock). */
export async function nextBrandId(q: Queryable): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `SELECT greatest($1::integer,
                     (SELECT coalesce(max(id), 0) FROM brands) + 1,
                     (SELECT coalesce(max(id), 0) FROM product_lines) + 1) AS id`,
    [STORE_BRAND_ID_BASE],
  );
  return Number(rows[0]?.id ?? STORE_BRAND_ID_BASE);
}

export interface NewBrandRow {
  readonly name: string;
  readonly name_ar: string | null;
  readonly website: string | null;
  readonly logo: string | null;
  readonly sub_category_id: string;
  readonly aliases: readonly string[];
  readonly mccs: readonly string[];
  readonly countries: readonly string[];
  readonly subscription: boolean;
  readonly origin: 'operator' | 'feedback';
}

/** Inserts a brand the catalog lacks; returns its id. Call under the apply lock. */
export async function insertBrand(q: Queryable, brand: NewBrandRow): Promise<number> {
  const id = await nextBrandId(q);
  const slug = `${slugify(brand.name) || 'brand'}-${id}`;
  await q.query(
    `INSERT INTO brands (id, slug, position, name, name_ar, name_ar_source, website, logo, sub_category_id,
                         subscription, name_alias, mccs, countries, venue, origin, version)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::text[], $13::text[], false, $14, nextval('change_seq'))`,
    [
      id,
      slug,
      STORE_POSITION_BASE + (id - STORE_BRAND_ID_BASE),
      brand.name,
      brand.name_ar,
      brand.name_ar ? 'official' : null,
      brand.website,
      brand.logo ?? `brands/${slug}.png`,
      brand.sub_category_id,
      brand.subscription,
      // A brand from one customer's report is reachable only through learned mappings: matching its
      // name in every tenant's texts would be a global change on a single report.
      brand.origin === 'operator',
      [...brand.mccs],
      brand.countries.length > 0 ? [...brand.countries] : ['*'],
      brand.origin,
    ],
  );
  if (brand.aliases.length > 0) {
    await q.query(
      `INSERT INTO brand_aliases (brand_id, weak, position, alias, origin)
       SELECT $1, false, ordinality - 1, alias, 'operator' FROM unnest($2::text[]) WITH ORDINALITY AS a(alias, ordinality)`,
      [id, [...brand.aliases]],
    );
  }
  return id;
}

/** A brand created by feedback earlier with this name (case-insensitive), to reuse instead of a twin. */
export async function findStoreBrandByName(q: Queryable, name: string): Promise<number | null> {
  const { rows } = await q.query<{ id: number }>(
    `SELECT id FROM brands WHERE origin <> 'catalog' AND lower(name) = lower($1) ORDER BY id LIMIT 1`,
    [name.trim()],
  );
  return rows[0] ? Number(rows[0].id) : null;
}

export type BrandEdit = Partial<Record<'name' | 'name_ar' | 'website' | 'logo' | 'sub_category_id', string>>;

/**
 * Records an operator's edit of a brand or product line (as overrides, which re-seeding keeps) plus
 * extra aliases; returns which it was, or null when the id is unknown. Call under the apply lock.
 */
export async function editBrand(
  q: Queryable,
  id: number,
  edit: BrandEdit,
  addAliases: readonly string[] = [],
): Promise<'brand' | 'product_line' | null> {
  const patch = JSON.stringify(edit);
  const brand = await q.query(
    `UPDATE brands SET overrides = overrides || $2::jsonb, version = nextval('change_seq'), updated_at = now()
     WHERE id = $1`,
    [id, patch],
  );
  if (brand.rowCount > 0) {
    if (addAliases.length > 0) {
      await q.query(
        `INSERT INTO brand_aliases (brand_id, weak, position, alias, origin)
         SELECT $1, false, (SELECT greatest(coalesce(max(position), -1) + 1, $3) FROM brand_aliases
                            WHERE brand_id = $1 AND NOT weak) + ordinality - 1, alias, 'operator'
         FROM unnest($2::text[]) WITH ORDINALITY AS a(alias, ordinality)`,
        [id, [...addAliases], OPERATOR_ALIAS_POSITION],
      );
    }
    return 'brand';
  }
  const line = await q.query(
    `UPDATE product_lines SET overrides = overrides || $2::jsonb, version = nextval('change_seq'), updated_at = now()
     WHERE id = $1`,
    [id, patch],
  );
  if (line.rowCount === 0) return null;
  if (addAliases.length > 0) {
    await q.query(
      `INSERT INTO product_line_aliases (product_line_id, position, alias, origin)
       SELECT $1, (SELECT greatest(coalesce(max(position), -1) + 1, $3) FROM product_line_aliases
                  WHERE product_line_id = $1) + ordinality - 1, alias, 'operator'
       FROM unnest($2::text[]) WITH ORDINALITY AS a(alias, ordinality)`,
      [id, [...addAliases], OPERATOR_ALIAS_POSITION],
    );
  }
  return 'product_line';
}

/** Ids of a brand and its product lines (a product line inherits its parent's website). */
export async function brandFamilyIds(q: Queryable, id: number): Promise<number[]> {
  const { rows } = await q.query<{ id: number }>(
    'SELECT $1::integer AS id UNION SELECT id FROM product_lines WHERE brand_id = $1',
    [id],
  );
  return rows.map((r) => Number(r.id));
}

export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
}
