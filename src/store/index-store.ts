/**
 * The index of enriched transactions: (tenant, transaction_id) → the engine's inputs needed to run it
 * again and its last outcome. Written once per worker chunk (one multi-row statement, idempotent:
 * a replay writes the same row), read for recurring history (one query per chunk) and for
 * re-enrichment after a correction.
 */
import type { EngineTransaction, Enrichment, HistoryEntry, HistoryKey } from '../engine/types.js';
import type { Queryable } from './db.js';

export interface IndexedItem {
  readonly transaction: EngineTransaction;
  readonly enrichment: Enrichment;
}

/** One index row as stored. */
export interface IndexRow {
  readonly tenant: string;
  readonly transaction_id: string;
  readonly customer_id: string;
  readonly merchant_key: string;
  readonly merchant_id: string;
  readonly brand_id: number | null;
  readonly category_id: string;
  readonly sub_category_id: string;
  readonly recurring: boolean;
  readonly revision: number;
  readonly raw_description: string;
  readonly merchant_name: string;
  readonly mcc: string;
  readonly amount: number;
  readonly direction: 'DEBIT' | 'CREDIT';
  readonly is_transfer: boolean;
  readonly is_self_transaction: boolean | null;
  readonly iso_currency_cd: string;
  readonly occurred_at: string;
  readonly country: string;
  readonly ref_id: string | null;
  readonly override_brand_id: number | null;
  readonly override_sub_category_id: string | null;
}

/** The columns the worker writes (everything but revision, overrides and enriched_at). */
const WRITTEN = [
  'customer_id',
  'merchant_key',
  'merchant_id',
  'brand_id',
  'category_id',
  'sub_category_id',
  'recurring',
  'raw_description',
  'merchant_name',
  'mcc',
  'amount',
  'direction',
  'is_transfer',
  'is_self_transaction',
  'iso_currency_cd',
  'occurred_at',
  'occurred_ts',
  'country',
  'ref_id',
] as const;

const RECORDSET = `jsonb_to_recordset($1::jsonb) AS r(tenant text, transaction_id text, customer_id text,
  merchant_key text, merchant_id text, brand_id integer, category_id text, sub_category_id text, recurring boolean,
  raw_description text, merchant_name text, mcc text, amount double precision, direction text, is_transfer boolean,
  is_self_transaction boolean, iso_currency_cd text, occurred_at text, occurred_ts timestamptz, country text,
  ref_id text)`;

/**
 * The upsert, as ONE statement for the whole chunk. A row already re-enriched (revision > 1) is
 * left alone; a first-enrichment row is rewritten only when something differs, so replaying a chunk
 * after a crash changes nothing.
 */
const UPSERT_SQL = `INSERT INTO enriched_index AS i (tenant, transaction_id, ${WRITTEN.join(', ')})
SELECT r.tenant, r.transaction_id, ${WRITTEN.map((c) => `r.${c}`).join(', ')} FROM ${RECORDSET}
ON CONFLICT (tenant, transaction_id) DO UPDATE SET ${WRITTEN.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}
WHERE i.revision = 1
  AND (${WRITTEN.map((c) => `i.${c}`).join(', ')}) IS DISTINCT FROM (${WRITTEN.map((c) => `EXCLUDED.${c}`).join(', ')})`;

export function indexRecord(item: IndexedItem): Record<string, unknown> {
  const { transaction: t, enrichment: e } = item;
  const time = Date.parse(t.occurred_at);
  return {
    tenant: e.tenant,
    transaction_id: t.transaction_id,
    customer_id: t.customer_id,
    merchant_key: e.merchant_key,
    merchant_id: t.merchant_id,
    brand_id: e.brand?.id ?? null,
    category_id: e.category.id,
    sub_category_id: e.sub_category.id,
    recurring: e.recurring,
    raw_description: t.raw_description,
    merchant_name: t.merchant_name,
    mcc: t.mcc,
    amount: t.amount,
    direction: t.direction,
    is_transfer: t.is_transfer,
    is_self_transaction: t.is_self_transaction ?? null,
    iso_currency_cd: t.iso_currency_cd,
    occurred_at: t.occurred_at,
    occurred_ts: new Date(Number.isFinite(time) ? time : 0).toISOString(),
    country: t.location.iso_country_cd.toUpperCase(),
    ref_id: t.ref_id ?? null,
  };
}

/** Upserts the index rows of one chunk in a single statement; returns the rows written or changed. */
export async function upsertIndex(q: Queryable, items: readonly IndexedItem[]): Promise<number> {
  if (items.length === 0) return 0;
  const { rowCount } = await q.query(UPSERT_SQL, [indexRecordsJson(items)]);
  return rowCount;
}

/**
 * The chunk's rows as one JSON text. Made in a function of its own so that the row objects are
 * garbage before the statement's round trip, not kept alive (and copied by every young-generation
 * collection) while the worker enriches other partitions' chunks.
 */
function indexRecordsJson(items: readonly IndexedItem[]): string {
  // One statement cannot touch the same row twice: the last item for a key wins (as in sequence).
  const byKey = new Map<string, Record<string, unknown>>();
  for (const item of items) {
    const record = indexRecord(item);
    byKey.set(`${String(record.tenant)}\u0000${String(record.transaction_id)}`, record);
  }
  return JSON.stringify([...byKey.values()]);
}

/** How many recent occurrences per customer and merchant the history query returns. */
export const HISTORY_PER_MERCHANT = 8;

/**
 * Earlier transactions for recurring detection: for each (tenant, customer, merchant key) asked
 * for, the latest few, and only where there are at least two (a rhythm needs two earlier
 * occurrences). One query per chunk; each key is one short backward range of an index, so the
 * cost follows the chunk, not how much history its customers have.
 */
export async function historyFor(
  q: Queryable,
  keys: readonly HistoryKey[],
  perMerchant = HISTORY_PER_MERCHANT,
): Promise<HistoryEntry[]> {
  if (keys.length === 0) return [];
  const { rows } = await q.query<{
    tenant: string;
    customer_id: string;
    brand_id: number | null;
    merchant_key: string;
    occurred_at: string;
    amount: number;
  }>(
    `SELECT tenant, customer_id, brand_id, merchant_key, occurred_at, amount FROM (
       SELECT k.tenant, k.customer_id, h.brand_id, k.merchant_key, h.occurred_at, h.amount,
              count(*) OVER (PARTITION BY k.n) AS found
       FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS k(tenant, customer_id, merchant_key, n)
       CROSS JOIN LATERAL (
         -- A short backward range of enriched_index_merchant (or _history): the latest first.
         SELECT i.brand_id, i.occurred_at, i.amount
         FROM enriched_index i
         WHERE i.customer_id = k.customer_id AND i.merchant_key = k.merchant_key AND i.tenant = k.tenant
         ORDER BY i.occurred_ts DESC
         LIMIT $4
       ) h
     ) found
     WHERE found >= 2`,
    [keys.map((k) => k.tenant), keys.map((k) => k.customer_id), keys.map((k) => k.merchant_key), perMerchant],
  );
  return rows.map((r) => ({
    tenant: r.tenant,
    customer_id: r.customer_id,
    brand_id: r.brand_id === null ? null : Number(r.brand_id),
    merchant_key: r.merchant_key,
    occurred_at: r.occurred_at,
    amount: Number(r.amount),
  }));
}

const ROW_COLUMNS = `tenant, transaction_id, customer_id, merchant_key, merchant_id, brand_id, category_id,
  sub_category_id, recurring, revision, raw_description, merchant_name, mcc, amount, direction, is_transfer,
  is_self_transaction, iso_currency_cd, occurred_at, country, ref_id, override_brand_id, override_sub_category_id`;

function toRow(r: Record<string, unknown>): IndexRow {
  return {
    ...(r as unknown as IndexRow),
    brand_id: r.brand_id === null ? null : Number(r.brand_id),
    revision: Number(r.revision),
    amount: Number(r.amount),
    override_brand_id: r.override_brand_id === null ? null : Number(r.override_brand_id),
  };
}

export async function findIndexed(
  q: Queryable,
  tenant: string,
  transactionId: string,
): Promise<IndexRow | null> {
  const { rows } = await q.query<Record<string, unknown>>(
    `SELECT ${ROW_COLUMNS} FROM enriched_index WHERE tenant = $1 AND transaction_id = $2`,
    [tenant, transactionId],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/**
 * Candidates for a merchant-level change: rows (of one tenant, or of all for `tenant` null) whose
 * merchant key is one of `merchantKeys` or whose merchant id is `merchantId`, oldest first. The
 * caller narrows them to those whose normalized text really has the merchant key.
 */
export async function merchantCandidates(
  q: Queryable,
  tenant: string | null,
  merchantKeys: readonly string[],
  merchantId: string | null,
): Promise<IndexRow[]> {
  const { rows } = await q.query<Record<string, unknown>>(
    `SELECT ${ROW_COLUMNS} FROM enriched_index
     WHERE ($1::text IS NULL OR tenant = $1)
       AND (merchant_key = ANY($2::text[]) OR ($3::text <> '' AND merchant_id = $3))
     ORDER BY occurred_ts, tenant, transaction_id`,
    [tenant, [...merchantKeys], merchantId ?? ''],
  );
  return rows.map(toRow);
}

/** Rows indexed with one of these brands (all tenants), oldest first. */
export async function rowsWithBrands(q: Queryable, brandIds: readonly number[]): Promise<IndexRow[]> {
  const { rows } = await q.query<Record<string, unknown>>(
    `SELECT ${ROW_COLUMNS} FROM enriched_index WHERE brand_id = ANY($1::int[])
     ORDER BY occurred_ts, tenant, transaction_id`,
    [[...brandIds]],
  );
  return rows.map(toRow);
}

/**
 * History for re-running the engine on `rows`: the other indexed transactions of the same
 * customers and tenants (the rows themselves are re-run in order and become history as they go).
 */
export async function historyExcluding(q: Queryable, rows: readonly IndexRow[]): Promise<HistoryEntry[]> {
  if (rows.length === 0) return [];
  const customers = [...new Set(rows.map((r) => r.customer_id))];
  const excluded = new Set(rows.map((r) => `${r.tenant}\u0000${r.transaction_id}`));
  const tenants = [...new Set(rows.map((r) => r.tenant))];
  const { rows: found } = await q.query<{
    tenant: string;
    transaction_id: string;
    customer_id: string;
    brand_id: number | null;
    merchant_key: string;
    occurred_at: string;
    amount: number;
  }>(
    `SELECT tenant, transaction_id, customer_id, brand_id, merchant_key, occurred_at, amount FROM enriched_index
     WHERE customer_id = ANY($1::text[]) AND tenant = ANY($2::text[]) AND merchant_key <> ''`,
    [customers, tenants],
  );
  return found
    .filter((r) => !excluded.has(`${r.tenant}\u0000${r.transaction_id}`))
    .map((r) => ({
      tenant: r.tenant,
      customer_id: r.customer_id,
      brand_id: r.brand_id === null ? null : Number(r.brand_id),
      merchant_key: r.merchant_key,
      occurred_at: r.occurred_at,
      amount: Number(r.amount),
    }));
}

export interface IndexUpdate {
  readonly tenant: string;
  readonly transaction_id: string;
  readonly merchant_key: string;
  readonly brand_id: number | null;
  readonly category_id: string;
  readonly sub_category_id: string;
  readonly recurring: boolean;
  readonly revision: number;
}

/** Writes the outcome of a re-enrichment (one statement). */
export async function updateIndexed(q: Queryable, updates: readonly IndexUpdate[]): Promise<void> {
  if (updates.length === 0) return;
  await q.query(
    `UPDATE enriched_index AS i SET merchant_key = u.merchant_key, brand_id = u.brand_id, category_id = u.category_id,
       sub_category_id = u.sub_category_id, recurring = u.recurring, revision = u.revision, enriched_at = now()
     FROM jsonb_to_recordset($1::jsonb) AS u(tenant text, transaction_id text, merchant_key text, brand_id integer,
          category_id text, sub_category_id text, recurring boolean, revision integer)
     WHERE i.tenant = u.tenant AND i.transaction_id = u.transaction_id`,
    [JSON.stringify(updates)],
  );
}

export async function setTransactionOverride(
  q: Queryable,
  tenant: string,
  transactionId: string,
  brandId: number | null,
  subCategoryId: string | null,
): Promise<IndexRow | null> {
  const { rows } = await q.query<Record<string, unknown>>(
    `UPDATE enriched_index SET override_brand_id = coalesce($3, override_brand_id),
       override_sub_category_id = coalesce($4, override_sub_category_id)
     WHERE tenant = $1 AND transaction_id = $2 RETURNING ${ROW_COLUMNS}`,
    [tenant, transactionId, brandId, subCategoryId],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/** Deletes index rows whose transaction occurred more than `days` ago, and old published outbox rows. */
export async function purgeIndex(q: Queryable, days: number): Promise<{ index: number; outbox: number }> {
  const index = await q.query(
    `DELETE FROM enriched_index WHERE occurred_ts < now() - make_interval(days => $1)`,
    [days],
  );
  const outbox = await q.query(
    `DELETE FROM outbox WHERE sent_at IS NOT NULL AND sent_at < now() - make_interval(days => $1)`,
    [days],
  );
  return { index: index.rowCount, outbox: outbox.rowCount };
}
