/**
 * Brands the store itself creates and edits — operators' brands and edits, and brands created from
 * corrections, which belong to their tenant until an operator promotes them — and the operator's
 * search and show. Every write here runs under the apply lock (it takes change numbers).
 */
import type { Queryable } from './db.js';
import { STORE_BRAND_ID_BASE } from './catalog.js';

/** Position of brands that are not in data/: after every catalog brand. */
const STORE_POSITION_BASE = 1_000_000;
/** Aliases operators add sit after every catalog alias, so re-seeding never overwrites them. */
const OPERATOR_ALIAS_POSITION = 10_000;

export interface BrandSummary {
  readonly id: number;
  readonly kind: 'brand' | 'product_line';
  readonly name: string;
  readonly name_ar: string | null;
  readonly website: string | null;
  readonly logo: string | null;
  readonly sub_category_id: string;
  readonly origin: string;
  /** The tenant a brand created from a correction belongs to; null: every tenant's. */
  readonly owner_tenant: string | null;
  readonly parent_id: number | null;
}

/** Brands and product lines whose name, Arabic name, slug or an alias contains `text`. */
export async function searchBrands(q: Queryable, text: string, limit = 25): Promise<BrandSummary[]> {
  const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { rows } = await q.query<BrandSummary & { id: number }>(
    `SELECT * FROM (
       SELECT b.id, 'brand' AS kind, b.name, b.name_ar, b.website, b.logo, b.sub_category_id, b.origin,
              (SELECT owner_tenant FROM brands o WHERE o.id = b.id) AS owner_tenant, NULL::integer AS parent_id,
              b.position
       FROM brands_effective b
       WHERE b.name ILIKE $1 OR b.name_ar ILIKE $1 OR b.slug ILIKE $1
          OR EXISTS (SELECT 1 FROM brand_aliases a WHERE a.brand_id = b.id AND a.alias ILIKE $1)
       UNION ALL
       SELECT l.id, 'product_line', l.name, l.name_ar, l.website, NULL, l.sub_category_id, l.origin, NULL,
              l.brand_id, l.position + 500000
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
    `SELECT id, 'brand' AS kind, slug, name, name_ar, website, logo, sub_category_id, origin,
            (SELECT owner_tenant FROM brands o WHERE o.id = b.id) AS owner_tenant, NULL::integer AS parent_id,
            overrides, subscription, mccs, countries
     FROM brands_effective b WHERE id = $1
     UNION ALL
     SELECT id, 'product_line', slug, name, name_ar, website, NULL, sub_category_id, origin, NULL, brand_id,
            overrides, subscription, mccs, NULL
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
    owner_tenant: (row.owner_tenant as string | null) ?? null,
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
  /** The tenant the brand belongs to (a brand from a correction), or null for every tenant. */
  readonly owner_tenant: string | null;
}

/** Inserts a brand the catalog lacks; returns its id. Call under the apply lock. */
export async function insertBrand(q: Queryable, brand: NewBrandRow): Promise<number> {
  const id = await nextBrandId(q);
  const slug = `${slugify(brand.name) || 'brand'}-${id}`;
  await q.query(
    `INSERT INTO brands (id, slug, position, name, name_ar, name_ar_source, website, logo, sub_category_id,
                         subscription, name_alias, mccs, countries, venue, origin, owner_tenant, version)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::text[], $13::text[], false, $14, $15,
             nextval('change_seq'))`,
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
      // A brand from a report, or any brand of one tenant, is reachable only through learned
      // mappings: matching its name in every tenant's texts would be a global change on one report.
      brand.origin === 'operator' && brand.owner_tenant === null,
      [...brand.mccs],
      brand.countries.length > 0 ? [...brand.countries] : ['*'],
      brand.origin,
      brand.owner_tenant,
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

/**
 * A brand this tenant's corrections created earlier under this name (case-insensitive), to reuse
 * instead of a twin (`tenant` null: a brand of every tenant that the store created). Only the
 * tenant's own: another tenant's brand of the same name carries that tenant's website and Arabic
 * name, which must never reach this tenant's records.
 */
export async function findTenantBrandByName(
  q: Queryable,
  tenant: string | null,
  name: string,
): Promise<number | null> {
  const { rows } = await q.query<{ id: number }>(
    `SELECT id FROM brands
     WHERE origin <> 'catalog' AND owner_tenant IS NOT DISTINCT FROM $1::text AND lower(name) = lower($2)
     ORDER BY id LIMIT 1`,
    [tenant, name.trim()],
  );
  return rows[0] ? Number(rows[0].id) : null;
}

/**
 * Who may use a brand or product line: `{ owner: null }` for every tenant, `{ owner: tenant }` for a
 * brand created from that tenant's correction and not promoted; null when the id is unknown.
 */
export async function brandOwner(q: Queryable, id: number): Promise<{ owner: string | null } | null> {
  const { rows } = await q.query<{ owner: string | null }>(
    `SELECT owner_tenant AS owner FROM brands WHERE id = $1
     UNION ALL
     SELECT b.owner_tenant FROM product_lines l JOIN brands b ON b.id = l.brand_id WHERE l.id = $1`,
    [id],
  );
  return rows[0] ? { owner: rows[0].owner ?? null } : null;
}

/** Makes a tenant's brand every tenant's (an operator's decision); false when it was not a tenant's. */
export async function promoteBrand(q: Queryable, id: number): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE brands SET owner_tenant = NULL, version = nextval('change_seq'), updated_at = now()
     WHERE id = $1 AND owner_tenant IS NOT NULL`,
    [id],
  );
  return rowCount > 0;
}

/** The change number of a brand or product line (0 when unknown), for its brand-change event. */
export async function brandVersion(q: Queryable, id: number): Promise<number> {
  const { rows } = await q.query<{ v: string | null }>(
    `SELECT coalesce((SELECT version FROM brands WHERE id = $1), (SELECT version FROM product_lines WHERE id = $1))::text AS v`,
    [id],
  );
  return Number(rows[0]?.v ?? 0);
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
