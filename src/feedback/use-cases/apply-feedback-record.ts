/**
 * A record from the feedback topic, decoded (or the reason it could not be): what can be trusted
 * about it is checked before anything else — its tenant is its `tenant-id` header (DEFAULT_TENANT
 * when absent, as on the raw topics), by the tenant pattern; the body must validate and name that
 * same tenant — then it is applied (apply-correction.ts) or rejected to the dead-letter topic.
 *
 * Idempotent: a validated correction by (tenant, correction_id); a record rejected before its
 * correction id could be trusted by its topic, partition and offset.
 */
import { dataError } from '../../errors/catalog.js';
import { HEADER } from '../../kafka/headers.js';
import { isTenantId, TENANT_ID_RULE } from '../../contract/tenant.js';
import { validateCorrection, type Correction } from '../correction.js';
import type { Decoded } from '../decode.js';
import type { ApplyContext, ApplyOutcome, DeadLetterReason, FeedbackSource } from '../outcome.js';
import { offsetKey, recordRejection, type RejectedIdentity } from '../steps/record.js';
import { afterCommit, applyCorrection, logOutcome } from './apply-correction.js';

export type RecordCheck =
  | { readonly ok: true; readonly correction: Correction }
  | { readonly ok: false; readonly error: DeadLetterReason; readonly identity: RejectedIdentity };

/** The record's own checks (no I/O): header tenant, body, and that both name the same tenant. */
export function checkRecord(decoded: Decoded, source: FeedbackSource, defaultTenant: string): RecordCheck {
  const header = recordTenant(source, defaultTenant);
  const identity = (tenant: string | null): RejectedIdentity => ({
    tenant,
    correctionId: offsetKey(source),
    correction: null,
  });
  if (!header.ok) return { ok: false, error: header.error, identity: identity(null) };
  if (!decoded.ok) return { ok: false, error: decoded.error, identity: identity(header.tenant) };
  const valid = validateCorrection(decoded.value);
  if (!valid.ok) return { ok: false, error: valid.error, identity: identity(header.tenant) };
  if (valid.value.tenant !== header.tenant) {
    return {
      ok: false,
      error: dataError(
        'TENANT_MISMATCH',
        'tenant',
        `the correction names tenant ${valid.value.tenant}, its record's tenant-id header ${header.tenant}`,
      ),
      identity: identity(header.tenant),
    };
  }
  return { ok: true, correction: valid.value };
}

function recordTenant(
  source: FeedbackSource,
  defaultTenant: string,
): { ok: true; tenant: string } | { ok: false; error: DeadLetterReason } {
  const raw = source.headers[HEADER.tenant];
  const values = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map((v) =>
    Buffer.isBuffer(v) ? v.toString('utf8') : String(v),
  );
  if (values.length === 0) return { ok: true, tenant: defaultTenant };
  const tenant = values[0] as string;
  if (values.some((v) => v !== tenant)) {
    return {
      ok: false,
      error: dataError('INVALID_HEADER', HEADER.tenant, 'the record carries more than one tenant-id header'),
    };
  }
  if (!isTenantId(tenant)) {
    return {
      ok: false,
      error: dataError('INVALID_HEADER', HEADER.tenant, `the tenant-id header ${TENANT_ID_RULE}`),
    };
  }
  return { ok: true, tenant };
}

export async function applyFeedbackRecord(
  ctx: ApplyContext,
  decoded: Decoded,
  source: FeedbackSource,
  defaultTenant: string,
): Promise<ApplyOutcome> {
  const checked = checkRecord(decoded, source, defaultTenant);
  if (!checked.ok) return rejectRecord(ctx, source, checked.identity, checked.error);
  return applyCorrection(ctx, checked.correction, { actor: 'customer', source });
}

/**
 * Dead-letters a customer's record (audit row and dead letter, once): for a record that failed its
 * checks, and for one whose correction met a data error or a bug while being applied.
 */
export async function rejectRecord(
  ctx: ApplyContext,
  source: FeedbackSource,
  identity: RejectedIdentity,
  error: DeadLetterReason,
): Promise<ApplyOutcome> {
  const outcome = await ctx.store.change(async (tx): Promise<ApplyOutcome> => {
    if (await tx.findCorrection(identity.tenant, identity.correctionId)) {
      return { status: 'duplicate', correctionId: identity.correctionId };
    }
    await recordRejection(tx, source, identity, error);
    return { status: 'rejected', correctionId: identity.correctionId, error };
  });
  afterCommit(ctx, outcome, 'customer');
  logOutcome(ctx.log, outcome, {
    tenant: identity.tenant,
    scope: identity.correction?.scope ?? 'invalid',
    actor: 'customer',
  });
  return outcome;
}
