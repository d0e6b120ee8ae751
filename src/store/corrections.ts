/**
 * The corrections repository: the audit of every correction, customer or operator, applied,
 * proposed or rejected. Its key, (tenant, correction_id), is also the idempotency key of the
 * feedback consumer: a correction found here was already handled. Write under the apply lock.
 */
import type { Queryable } from './db.js';

export type AuditScope = 'transaction' | 'merchant' | 'global' | 'brand' | 'invalid';
export type AuditStatus = 'applied' | 'proposed' | 'rejected';

export interface AuditRow {
  readonly correction_id: string;
  /** null for rows no tenant can be trusted for (an undecodable record) and operator brand actions. */
  readonly tenant: string | null;
  readonly transaction_id: string | null;
  /** A digest of tenant and customer id (counts distinct customers without keeping the id). */
  readonly reporter: string | null;
  readonly actor: 'customer' | 'operator';
  readonly scope: AuditScope;
  readonly status: AuditStatus;
  readonly reason: string | null;
  readonly payload: Record<string, unknown>;
  readonly merchant_key: string | null;
  readonly merchant_id: string | null;
  readonly proposal_key: string | null;
  readonly brand_id: number | null;
  readonly sub_category_id: string | null;
  readonly reenriched: number;
  readonly source: string;
  /** Epoch ms. */
  readonly reported_at: number | null;
  /** What the correction said (see contentDigest in src/feedback): tells a redelivery from a re-used id. */
  readonly content_digest: string | null;
}

export interface StoredCorrection {
  readonly status: AuditStatus;
  /** null for rows written before content digests existed: treated as the same content. */
  readonly content_digest: string | null;
}

export async function findCorrection(
  q: Queryable,
  tenant: string | null,
  correctionId: string,
): Promise<StoredCorrection | null> {
  const { rows } = await q.query<StoredCorrection>(
    `SELECT status, content_digest FROM corrections WHERE coalesce(tenant, '') = $1 AND correction_id = $2`,
    [tenant ?? '', correctionId],
  );
  return rows[0] ?? null;
}

export async function insertAudit(q: Queryable, row: AuditRow): Promise<void> {
  await q.query(
    `INSERT INTO corrections (correction_id, tenant, transaction_id, reporter, actor, scope, status, reason, payload,
       merchant_key, merchant_id, proposal_key, brand_id, sub_category_id, reenriched, source, reported_at, applied_at,
       content_digest)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12, $13, $14, $15, $16,
       CASE WHEN $17::double precision IS NULL THEN NULL ELSE to_timestamp($17::double precision / 1000) END,
       CASE WHEN $7 = 'applied' THEN now() END, $18)`,
    [
      row.correction_id,
      row.tenant,
      row.transaction_id,
      row.reporter,
      row.actor,
      row.scope,
      row.status,
      row.reason,
      JSON.stringify(row.payload),
      row.merchant_key,
      row.merchant_id,
      row.proposal_key,
      row.brand_id,
      row.sub_category_id,
      row.reenriched,
      row.source,
      row.reported_at,
      row.content_digest,
    ],
  );
}

/** A pending global proposal, with the customer its transaction is indexed under (null: no longer indexed). */
export interface ProposalReporter {
  readonly reporter: string;
  readonly tenant: string;
  readonly indexed_customer_id: string | null;
}

/** The reporters of the pending proposals with this key, one row per proposal. */
export async function proposalReporters(q: Queryable, proposalKey: string): Promise<ProposalReporter[]> {
  const { rows } = await q.query<ProposalReporter>(
    `SELECT c.reporter, c.tenant, i.customer_id AS indexed_customer_id
     FROM corrections c
     LEFT JOIN enriched_index i ON i.tenant = c.tenant AND i.transaction_id = c.transaction_id
     WHERE c.status = 'proposed' AND c.proposal_key = $1 AND c.reporter IS NOT NULL AND c.tenant IS NOT NULL`,
    [proposalKey],
  );
  return rows;
}

/**
 * Marks the pending proposals with this key applied (the quorum was reached by `correctionId`);
 * returns the merchant keys their transactions were indexed under, to widen the re-enrichment.
 */
export async function applyProposals(
  q: Queryable,
  proposalKey: string,
  brandId: number | null,
  correctionId: string,
): Promise<string[]> {
  const { rows } = await q.query<{ k: string | null }>(
    `UPDATE corrections SET status = 'applied', applied_at = now(), brand_id = $2,
       reason = 'global: quorum reached by ' || $3
     WHERE status = 'proposed' AND proposal_key = $1
     RETURNING payload ->> 'indexed_merchant_key' AS k`,
    [proposalKey, brandId, correctionId],
  );
  return rows.map((r) => r.k).filter((k): k is string => !!k);
}

export interface CorrectionListing {
  readonly tenant?: string | undefined;
  readonly status?: AuditStatus | undefined;
  readonly limit: number;
}

/** The audit, newest first (the operator's `corrections list`). */
export async function listCorrections(
  q: Queryable,
  filter: CorrectionListing,
): Promise<Record<string, unknown>[]> {
  const { rows } = await q.query<Record<string, unknown>>(
    `SELECT correction_id, tenant, transaction_id, actor, scope, status, reason, brand_id, sub_category_id,
            merchant_key, reenriched, source, received_at, applied_at
     FROM corrections
     WHERE ($1::text IS NULL OR tenant = $1) AND ($2::text IS NULL OR status = $2)
     ORDER BY received_at DESC, correction_id LIMIT $3`,
    [filter.tenant ?? null, filter.status ?? null, filter.limit],
  );
  return rows;
}
