/**
 * Applying one validated correction — a customer's from the feedback topic or an operator's from the
 * CLI — in ONE database transaction under the store's apply lock, as named steps:
 *
 *   check → locate → trust → resolve brand → change → re-enrich → record
 *
 * A correction id the tenant used before is a duplicate (same content: nothing happens) or a re-used
 * id (other content: rejected). A rejection at any step comes back as the outcome: for a customer it
 * leaves an audit row and a dead letter (in the same transaction); for an operator nothing is
 * written. Nothing reaches Kafka unless the transaction committed; the relay publishes the outbox.
 */
import { dataError } from '../../errors/catalog.js';
import type { Logger } from '../../observability/logger.js';
import type { ChangeTx } from '../../store/change-store.js';
import { contentDigest, type Correction } from '../correction.js';
import { brandEvent, mappingEvent } from '../events.js';
import { crashPoint } from '../faults.js';
import {
  Rejection,
  type ApplyContext,
  type ApplyOutcome,
  type DeadLetterReason,
  type Origin,
} from '../outcome.js';
import { change } from '../steps/change.js';
import { check } from '../steps/check.js';
import { locate } from '../steps/locate.js';
import { reenrichAffected } from '../steps/reenrich.js';
import { correctionAudit, offsetKey, record, recordRejection } from '../steps/record.js';
import { resolveBrand } from '../steps/resolve-brand.js';
import { trust } from '../steps/trust.js';

export async function applyCorrection(
  ctx: ApplyContext,
  c: Correction,
  origin: Origin,
): Promise<ApplyOutcome> {
  let outcome: ApplyOutcome;
  try {
    outcome = await ctx.store.change((tx) => steps(tx, ctx, c, origin));
  } catch (error) {
    if (!(error instanceof Rejection)) throw error;
    outcome = { status: 'rejected', correctionId: c.correction_id, error: error.error };
  }
  afterCommit(ctx, outcome, origin.actor);
  logOutcome(ctx.log, outcome, { tenant: c.tenant, scope: c.scope, actor: origin.actor });
  return outcome;
}

async function steps(tx: ChangeTx, ctx: ApplyContext, c: Correction, origin: Origin): Promise<ApplyOutcome> {
  const known = await tx.findCorrection(c.tenant, c.correction_id);
  if (known) {
    if (known.content_digest === null || known.content_digest === contentDigest(c)) {
      return { status: 'duplicate', correctionId: c.correction_id };
    }
    return reject(
      tx,
      c,
      origin,
      dataError(
        'CORRECTION_ID_REUSED',
        'correction_id',
        `tenant ${c.tenant} already sent correction ${c.correction_id} with other content: a new correction needs a new id`,
      ),
      true,
    );
  }

  const view = await tx.view();
  const checkError = await check(tx, c, origin.actor, view.snapshot);
  if (checkError) return reject(tx, c, origin, checkError);
  const located = await locate(tx, c, view.snapshot);
  if (!located.ok) return reject(tx, c, origin, located.error);
  const trusted = await trust(tx, c, origin.actor, located.value, ctx);
  if (!trusted.ok) return reject(tx, c, origin, trusted.error);

  const { decision } = trusted.value;
  if (decision.action === 'propose') {
    const reason = `global proposal: ${decision.agreeing} of ${decision.needed} customers, ${decision.tenants} of ${decision.neededTenants} tenants`;
    await record(
      tx,
      correctionAudit(c, origin, located.value, trusted.value, {
        status: 'proposed',
        reason,
        reenriched: 0,
        brandId: c.brand_id,
      }),
      [],
    );
    return {
      status: 'proposed',
      correctionId: c.correction_id,
      agreeing: decision.agreeing,
      needed: decision.needed,
      tenants: decision.tenants,
      neededTenants: decision.neededTenants,
    };
  }

  const brand = await resolveBrand(tx, c, origin.actor, located.value);
  const changed = await change(
    tx,
    c,
    decision,
    located.value,
    brand.brandId,
    trusted.value.proposalKey,
    view.snapshot,
  );
  const after = await tx.preview(view, changed.mappings, brand.created);
  const reenriched = await reenrichAffected(tx, changed.affected, after, {
    logoBaseUrl: ctx.logoBaseUrl,
    now: (ctx.now ?? Date.now)(),
    reason: changed.reason,
    correctionId: c.correction_id,
    emit: 'changed',
  });
  const events = changed.mappings.map((m) => mappingEvent(m, c.correction_id));
  if (brand.created && brand.brandId !== null) {
    const version = await tx.brandVersion(brand.brandId);
    events.unshift(brandEvent(brand.brandId, version, c.correction_id, 'added'));
  }
  const quorumReached = decision.action === 'global-mapping' && origin.actor === 'customer';
  await record(
    tx,
    correctionAudit(c, origin, located.value, trusted.value, {
      status: 'applied',
      reason: quorumReached
        ? `global: quorum of ${ctx.quorum} customers from at least ${Math.max(2, ctx.minTenants)} tenants reached`
        : null,
      reenriched: reenriched.length,
      brandId: brand.brandId,
    }),
    [...events, ...reenriched],
  );
  return {
    status: 'applied',
    correctionId: c.correction_id,
    action: decision.action,
    reenriched: reenriched.length,
    events: events.length,
    brandId: brand.brandId,
  };
}

/**
 * A rejection: an operator's rolls the transaction back (Rejection, returned by applyCorrection); a
 * customer's is audited and dead-lettered. A re-used id cannot take the correction's key (the first
 * correction has it), so its rejection is keyed by the record's place on the topic.
 */
async function reject(
  tx: ChangeTx,
  c: Correction,
  origin: Origin,
  error: DeadLetterReason,
  byOffset = false,
): Promise<ApplyOutcome> {
  if (origin.actor === 'operator') throw new Rejection(error);
  const correctionId = byOffset ? offsetKey(origin.source) : c.correction_id;
  if (byOffset && (await tx.findCorrection(c.tenant, correctionId))) {
    return { status: 'duplicate', correctionId };
  }
  await recordRejection(tx, origin.source, { tenant: c.tenant, correctionId, correction: c }, error);
  return { status: 'rejected', correctionId, error };
}

/** After a commit that wrote outbox rows: the crash point for tests, then wake the relay. */
export function afterCommit(ctx: ApplyContext, outcome: ApplyOutcome, actor: Origin['actor']): void {
  const wrote = outcome.status === 'applied' || (outcome.status === 'rejected' && actor === 'customer');
  if (!wrote) return;
  crashPoint('after-correction-commit');
  ctx.onCommitted?.();
}

export function logOutcome(
  log: Logger,
  outcome: ApplyOutcome,
  c: { tenant: string | null; scope: string; actor: Origin['actor'] },
): void {
  // No customer or transaction data at info level: the correction id, tenant, scope and counts.
  const fields = { correctionId: outcome.correctionId, tenant: c.tenant, scope: c.scope, actor: c.actor };
  if (outcome.status === 'applied') {
    log.info(
      { ...fields, action: outcome.action, reenriched: outcome.reenriched, events: outcome.events },
      'correction applied',
    );
  } else if (outcome.status === 'proposed') {
    log.info(
      { ...fields, agreeing: outcome.agreeing, needed: outcome.needed, tenants: outcome.tenants },
      'global correction proposed',
    );
  } else if (outcome.status === 'rejected') {
    log.info({ ...fields, code: outcome.error.code, field: outcome.error.field }, 'correction rejected');
  } else {
    log.debug(fields, 'correction already applied: skipped');
  }
}
