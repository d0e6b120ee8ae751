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
      nsi_id: b.nsi_id ?? null,
      ticket_prefix: b.ticket_prefix ?? null,
      seed_digest: digest,
    }));
    // A new catalog can hand a slug to another id (an import re-numbered, a brand replaced): the old
    // holder gives it up first, or the unique slug would stop every start on the upgraded catalog.
    // A holder still in the catalog gets its new slug below; one dropped keeps `<slug>~<id>` and loses
    // its digest, so a later catalog that has it again writes it again.
    await retireTakenSlugs(tx, 'brands', brandRows);
    await tx.query(
      `INSERT INTO brands (id, slug, position, name, name_ar, name_ar_source, website, logo, sub_category_id,
                           subscription, name_alias, mccs, countries, venue, wikidata_id, logo_source, lines,
                           nsi_id, ticket_prefix, origin, seed_digest, version)
       SELECT r.id, r.slug, r.position, r.name, r.name_ar, r.name_ar_source, r.website, r.logo, r.sub_category_id,
              r.subscription, r.name_alias, r.mccs, r.countries, r.venue, r.wikidata_id, r.logo_source, r.lines,
              r.nsi_id, r.ticket_prefix, 'catalog', r.seed_digest, nextval('change_seq')
       FROM jsonb_to_recordset($1::jsonb) AS r(id integer, slug text, position integer, name text, name_ar text,
            name_ar_source text, website text, logo text, sub_category_id text, subscription boolean,
            name_alias boolean, mccs text[], countries text[], venue boolean, wikidata_id text, logo_source text,
            lines text[], nsi_id text, ticket_prefix text, seed_digest text)
       ORDER BY r.position
       ON CONFLICT (id) DO UPDATE SET
         slug = EXCLUDED.slug, position = EXCLUDED.position, name = EXCLUDED.name, name_ar = EXCLUDED.name_ar,
         name_ar_source = EXCLUDED.name_ar_source, website = EXCLUDED.website, logo = EXCLUDED.logo,
         sub_category_id = EXCLUDED.sub_category_id, subscription = EXCLUDED.subscription,
         name_alias = EXCLUDED.name_alias, mccs = EXCLUDED.mccs, countries = EXCLUDED.countries,
         venue = EXCLUDED.venue, wikidata_id = EXCLUDED.wikidata_id, logo_source = EXCLUDED.logo_source,
         lines = EXCLUDED.lines, nsi_id = EXCLUDED.nsi_id, ticket_prefix = EXCLUDED.ticket_prefix, seed_digest = EXCLUDED.seed_digest, version = EXCLUDED.version, updated_at = now()
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
      await retireTakenSlugs(
        tx,
        'product_lines',
        lines.map(({ line }) => ({ id: line.id, slug: line.slug })),
      );
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
  nsi_id: string | null;
  ticket_prefix: string | null;
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

/** Moves catalog rows off the slugs these entries take, when another id holds them. */
async function retireTakenSlugs(
  q: Queryable,
  table: 'brands' | 'product_lines',
  entries: readonly { id: number; slug: string }[],
): Promise<void> {
  await q.query(
    `UPDATE ${table} AS t SET slug = t.slug || '~' || t.id, seed_digest = NULL
     FROM jsonb_to_recordset($1::jsonb) AS r(id integer, slug text)
     WHERE t.slug = r.slug AND t.id <> r.id AND t.origin = 'catalog'`,
    [JSON.stringify(entries.map((e) => ({ id: e.id, slug: e.slug })))],
  );
}

/** The effective catalog (seeded data plus operator and feedback brands), in catalog order. */
export async function loadCatalog(q: Queryable): Promise<LoadedCatalog> {
  const brands = await q.query<BrandRow>(
    `SELECT id, slug, position, name, name_ar, name_ar_source, website, logo, sub_category_id, subscription,
            name_alias, mccs, countries, venue, wikidata_id, logo_source, lines, nsi_id, ticket_prefix, origin,
            version::text AS version
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
      ...(b.nsi_id ? { nsi_id: b.nsi_id } : {}),
      ...(b.ticket_prefix ? { ticket_prefix: b.ticket_prefix } : {}),
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
