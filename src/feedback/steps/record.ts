/**
 * Step 7, record: the audit row and the outbox rows (brand-change events, re-enriched records, dead
 * letters) of a change, written in its transaction — the relay publishes them once it committed.
 * Also the audit rows themselves: what a correction, a proposal or a rejection leaves behind.
 */
import type { ChangeTx } from '../../store/change-store.js';
import type { AuditRow } from '../../store/corrections.js';
import type { OutboxMessage } from '../../store/outbox.js';
import { contentDigest, reporterDigest, type Correction } from '../correction.js';
import { feedbackDeadLetter } from '../dead-letter.js';
import { sourceText, type DeadLetterReason, type FeedbackSource, type Origin } from '../outcome.js';
import type { Located } from './locate.js';
import type { Trusted } from './trust.js';

export async function record(
  tx: Pick<ChangeTx, 'enqueue' | 'audit'>,
  audit: AuditRow,
  messages: readonly OutboxMessage[],
): Promise<void> {
  await tx.enqueue(messages);
  await tx.audit(audit);
}

/** The correction as kept in the audit: everything but the customer id (the reporter digest counts). */
export function auditPayload(c: Correction): Record<string, unknown> {
  return {
    brand_id: c.brand_id,
    new_brand: c.new_brand,
    category_id: c.category_id,
    sub_category_id: c.sub_category_id,
    scope: c.scope,
  };
}

/** The audit row of an accepted correction (proposed or applied). */
export function correctionAudit(
  c: Correction,
  origin: Origin,
  located: Located,
  trusted: Trusted,
  outcome: {
    status: 'applied' | 'proposed';
    reason: string | null;
    reenriched: number;
    brandId: number | null;
  },
): AuditRow {
  return {
    correction_id: c.correction_id,
    tenant: c.tenant,
    transaction_id: c.transaction_id,
    reporter: trusted.reporter,
    actor: origin.actor,
    scope: c.scope,
    status: outcome.status,
    reason: outcome.reason,
    payload: { ...auditPayload(c), indexed_merchant_key: located.row.merchant_key },
    merchant_key: located.textKey || null,
    merchant_id: located.merchantId || null,
    proposal_key: trusted.proposalKey,
    brand_id: outcome.brandId,
    sub_category_id: c.sub_category_id,
    reenriched: outcome.reenriched,
    source: sourceText(origin),
    reported_at: c.reported_at,
    content_digest: contentDigest(c),
  };
}

/** Who a rejected customer record was about, as far as it can be trusted. */
export interface RejectedIdentity {
  /** The key of the audit row: (tenant, correction_id), or the record's topic:partition:offset. */
  readonly tenant: string | null;
  readonly correctionId: string;
  /** The validated correction, when it got that far. */
  readonly correction: Correction | null;
}

/** A customer's rejected record: its audit row and its dead letter, in the change's transaction. */
export async function recordRejection(
  tx: Pick<ChangeTx, 'enqueue' | 'audit'>,
  source: FeedbackSource,
  identity: RejectedIdentity,
  error: DeadLetterReason,
): Promise<void> {
  const c = identity.correction;
  await record(
    tx,
    {
      correction_id: identity.correctionId,
      tenant: identity.tenant,
      transaction_id: c?.transaction_id ?? null,
      reporter: c ? reporterDigest(c.tenant, c.customer_id) : null,
      actor: 'customer',
      scope: c?.scope ?? 'invalid',
      status: 'rejected',
      reason: `${error.code}${error.field ? ` ${error.field}` : ''}: ${error.message}`,
      payload: c ? auditPayload(c) : {},
      merchant_key: null,
      merchant_id: null,
      proposal_key: null,
      brand_id: c?.brand_id ?? null,
      sub_category_id: c?.sub_category_id ?? null,
      reenriched: 0,
      source: sourceText({ actor: 'customer', source }),
      reported_at: c?.reported_at ?? null,
      content_digest: c ? contentDigest(c) : null,
    },
    [feedbackDeadLetter(source, error, identity.correctionId)],
  );
}

/** The key of a record that has no correction id to trust: where it was on the feedback topic. */
export function offsetKey(source: FeedbackSource): string {
  return `${source.topic}:${source.partition}:${source.offset}`;
}
