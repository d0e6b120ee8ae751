/**
 * Learned mappings: a tenant's (or every tenant's, `*`) merchant id or normalized merchant key →
 * brand and/or sub-category. The engine reads them from the snapshot; corrections write them.
 */
import type { LearnedMapping } from '../engine/types.js';
import type { Queryable } from './db.js';

export const GLOBAL_TENANT = '*';

export type MappingKind = 'merchant_id' | 'merchant_key';

export interface MappingRow {
  readonly tenant: string;
  readonly kind: MappingKind;
  readonly key: string;
  readonly brand_id: number | null;
  readonly sub_category_id: string | null;
  readonly correction_id: string;
  readonly version: number;
}

export function mappingId(m: Pick<MappingRow, 'tenant' | 'kind' | 'key'>): string {
  return `${m.tenant}\u0000${m.kind}\u0000${m.key}`;
}

export function toLearned(m: MappingRow): LearnedMapping {
  return m.kind === 'merchant_id'
    ? { tenant: m.tenant, merchant_id: m.key, brand_id: m.brand_id, sub_category_id: m.sub_category_id }
    : { tenant: m.tenant, merchant_key: m.key, brand_id: m.brand_id, sub_category_id: m.sub_category_id };
}

const COLUMNS = 'tenant, kind, key, brand_id, sub_category_id, correction_id, version::text AS version';

function fromRow(r: Record<string, unknown>): MappingRow {
  return {
    tenant: String(r.tenant),
    kind: r.kind as MappingKind,
    key: String(r.key),
    brand_id: r.brand_id === null || r.brand_id === undefined ? null : Number(r.brand_id),
    sub_category_id: (r.sub_category_id as string | null) ?? null,
    correction_id: String(r.correction_id),
    version: Number(r.version),
  };
}

/** Mappings changed after `version` (all of them for 0), oldest change first. */
export async function mappingsSince(q: Queryable, version: number): Promise<MappingRow[]> {
  const { rows } = await q.query<Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM learned_mappings WHERE version > $1::bigint ORDER BY learned_mappings.version`,
    [version],
  );
  return rows.map(fromRow);
}

export async function findMapping(
  q: Queryable,
  tenant: string,
  kind: MappingKind,
  key: string,
): Promise<MappingRow | null> {
  const { rows } = await q.query<Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM learned_mappings WHERE tenant = $1 AND kind = $2 AND key = $3`,
    [tenant, kind, key],
  );
  return rows[0] ? fromRow(rows[0]) : null;
}

/**
 * Sets a mapping, keeping what the correction does not say (a brand-only correction keeps a
 * sub-category learned before, and the other way round). Returns the stored row. Call under the
 * apply lock.
 */
export interface MappingChange {
  readonly tenant: string;
  readonly kind: MappingKind;
  readonly key: string;
  readonly brand_id: number | null;
  readonly sub_category_id: string | null;
  readonly correction_id: string;
}

export async function upsertMapping(q: Queryable, change: MappingChange): Promise<MappingRow> {
  const { rows } = await q.query<Record<string, unknown>>(
    `INSERT INTO learned_mappings AS m (tenant, kind, key, brand_id, sub_category_id, correction_id, version)
     VALUES ($1, $2, $3, $4, $5, $6, nextval('change_seq'))
     ON CONFLICT (tenant, kind, key) DO UPDATE SET
       brand_id = coalesce(EXCLUDED.brand_id, m.brand_id),
       sub_category_id = coalesce(EXCLUDED.sub_category_id, m.sub_category_id),
       correction_id = EXCLUDED.correction_id, version = EXCLUDED.version, updated_at = now()
     RETURNING ${COLUMNS}`,
    [change.tenant, change.kind, change.key, change.brand_id, change.sub_category_id, change.correction_id],
  );
  return fromRow(rows[0] as Record<string, unknown>);
}
