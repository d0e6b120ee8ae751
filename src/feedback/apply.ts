/**
 * Applying a change to the brand store — a customer's correction from the feedback topic, or an
 * operator's correction, brand edit or new brand from the CLI — always the same way: in ONE
 * database transaction, under the store's apply lock,
 *
 *   1. the audit row (corrections), idempotent by correction_id;
 *   2. the change itself (learned mapping, transaction override, brand row);
 *   3. the re-enriched records of every affected indexed transaction (the engine run again with the
 *      snapshot after the change; revision + 1) and the brand-change events, into the outbox;
 *
 * then the relay publishes the outbox. Nothing reaches Kafka unless the change committed, and
 * everything the change implies reaches Kafka exactly once (relay.ts).
 *
 * The apply lock serializes changes, so outbox ids and change numbers commit in ascending order —
 * what the relay and the workers' incremental refresh rely on.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { IHeaders } from 'kafkajs';
import type { Snapshot } from '../engine/snapshot.js';
import { dataError, type DataError } from '../errors/catalog.js';
import type { Logger } from '../observability/logger.js';
import { deadLetterHeaders } from '../kafka/headers.js';
import {
  applyLockName,
  brandFamilyIds,
  editBrand,
  findStoreBrandByName,
  insertBrand,
  type BrandEdit,
  type NewBrandRow,
} from '../store/catalog.js';
import { XACT_LOCK_SQL, type Database, type Queryable } from '../store/db.js';
import {
  findIndexed,
  historyExcluding,
  merchantCandidates,
  rowsWithBrands,
  setTransactionOverride,
  updateIndexed,
  type IndexRow,
} from '../store/index-store.js';
import { GLOBAL_TENANT, upsertMapping, type MappingRow } from '../store/mappings.js';
import type { StoreSnapshot } from '../store/store-snapshot.js';
import {
  checkAgainstCatalog,
  decideTrust,
  proposalKey,
  validateCorrection,
  type Actor,
  type Correction,
  type TrustDecision,
} from './correction.js';
import { crashPoint } from './faults.js';
import { enqueue, FEEDBACK_HEADER, type OutboxMessage } from './outbox.js';
import { merchantTextKey, reenrich, type ReenrichReason } from './reenrich.js';

export interface ApplyContext {
  readonly db: Database;
  readonly snapshots: StoreSnapshot;
  readonly logoBaseUrl: string;
  /** GLOBAL_CORRECTION_QUORUM. */
  readonly quorum: number;
  readonly log: Logger;
  /** Called after every commit that wrote outbox rows (wakes the relay, refreshes the snapshot). */
  readonly onCommitted?: () => void;
}

/** Where a customer's correction came from: its Kafka record, kept for the dead-letter topic. */
export interface FeedbackSource {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers: IHeaders;
}

export type Origin =
  | { readonly actor: 'customer'; readonly source: FeedbackSource }
  | { readonly actor: 'operator'; readonly source: string };

export type ApplyOutcome =
  | { readonly status: 'duplicate'; readonly correctionId: string }
  | { readonly status: 'rejected'; readonly correctionId: string; readonly error: DataError }
  | {
      readonly status: 'proposed';
      readonly correctionId: string;
      readonly agreeing: number;
      readonly needed: number;
    }
  | {
      readonly status: 'applied';
      readonly correctionId: string;
      readonly action: Exclude<TrustDecision['action'], 'propose'> | 'brand-edit' | 'brand-add';
      readonly reenriched: number;
      readonly events: number;
      readonly brandId: number | null;
    };

/** An operator's change that cannot be applied (the CLI prints it; nothing is written). */
export class ChangeRejected extends Error {
  constructor(readonly error: DataError) {
    super(`${error.code}${error.field ? ` (${error.field})` : ''}: ${error.message}`);
    this.name = 'ChangeRejected';
  }
}

function reporterDigest(tenant: string, customerId: string): string {
  return createHash('sha256').update(`${tenant}\u0000${customerId}`).digest('hex').slice(0, 32);
}

function sourceText(origin: Origin): string {
  return origin.actor === 'customer'
    ? `${origin.source.topic}:${origin.source.partition}:${origin.source.offset}`
    : origin.source;
}

async function exists(q: Queryable, correctionId: string): Promise<boolean> {
  const { rows } = await q.query('SELECT 1 FROM corrections WHERE correction_id = $1', [correctionId]);
  return rows.length > 0;
}

interface AuditRow {
  correction_id: string;
  tenant: string | null;
  transaction_id: string | null;
  reporter: string | null;
  actor: Actor;
  scope: 'transaction' | 'merchant' | 'global' | 'brand' | 'invalid';
  status: 'applied' | 'proposed' | 'rejected';
  reason: string | null;
  payload: Record<string, unknown>;
  merchant_key: string | null;
  merchant_id: string | null;
  proposal_key: string | null;
  brand_id: number | null;
  sub_category_id: string | null;
  reenriched: number;
  source: string;
  reported_at: number | null;
}

async function audit(q: Queryable, row: AuditRow): Promise<void> {
  await q.query(
    `INSERT INTO corrections (correction_id, tenant, transaction_id, reporter, actor, scope, status, reason, payload,
       merchant_key, merchant_id, proposal_key, brand_id, sub_category_id, reenriched, source, reported_at, applied_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12, $13, $14, $15, $16,
       CASE WHEN $17::double precision IS NULL THEN NULL ELSE to_timestamp($17::double precision / 1000) END,
       CASE WHEN $7 = 'applied' THEN now() END)`,
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
    ],
  );
}

/** The correction as kept in the audit: everything but the customer id (the reporter digest counts). */
/** The audit row of an operator's brand add or edit: the brand is the scope (no tenant, transaction or merchant). */
async function auditBrandAction(
  q: Queryable,
  a: {
    readonly correctionId: string;
    readonly reason: string;
    readonly payload: Record<string, unknown>;
    readonly brandId: number;
    readonly subCategoryId: string | null;
    readonly reenriched: number;
    readonly source: string;
  },
): Promise<void> {
  await audit(q, {
    correction_id: a.correctionId,
    tenant: null,
    transaction_id: null,
    reporter: null,
    actor: 'operator',
    scope: 'brand',
    status: 'applied',
    reason: a.reason,
    payload: a.payload,
    merchant_key: null,
    merchant_id: null,
    proposal_key: null,
    brand_id: a.brandId,
    sub_category_id: a.subCategoryId,
    reenriched: a.reenriched,
    source: a.source,
    reported_at: Date.now(),
  });
}

function auditPayload(c: Correction): Record<string, unknown> {
  return {
    brand_id: c.brand_id,
    new_brand: c.new_brand,
    category_id: c.category_id,
    sub_category_id: c.sub_category_id,
    scope: c.scope,
  };
}

function deadLetter(source: FeedbackSource, error: DataError, correctionId: string): OutboxMessage {
  return {
    kind: 'dead-letter',
    key: source.key,
    value: source.value,
    correctionId,
    headers: deadLetterHeaders(source.headers, error, source),
  };
}

/**
 * A record from the feedback topic, decoded (or the reason it could not be): validated, then
 * applied or rejected to the dead-letter topic. Idempotent: by correction_id, or by topic,
 * partition and offset for a record without a usable id.
 */
export async function applyFeedbackRecord(
  ctx: ApplyContext,
  decoded: { ok: true; value: unknown } | { ok: false; error: DataError },
  source: FeedbackSource,
): Promise<ApplyOutcome> {
  const rawId = decoded.ok ? (decoded.value as { correction_id?: unknown } | null)?.correction_id : undefined;
  const fallbackId =
    typeof rawId === 'string' && rawId.trim() !== ''
      ? rawId.trim()
      : `${source.topic}:${source.partition}:${source.offset}`;
  if (!decoded.ok) return reject(ctx, fallbackId, decoded.error, source, null);
  const valid = validateCorrection(decoded.value);
  if (!valid.ok) return reject(ctx, fallbackId, valid.error, source, null);
  return applyCorrection(ctx, valid.value, { actor: 'customer', source });
}

async function reject(
  ctx: ApplyContext,
  correctionId: string,
  error: DataError,
  source: FeedbackSource,
  correction: Correction | null,
): Promise<ApplyOutcome> {
  const outcome = await ctx.db.transaction(async (tx): Promise<ApplyOutcome> => {
    await tx.query(XACT_LOCK_SQL, [applyLockName(ctx.db)]);
    if (await exists(tx, correctionId)) return { status: 'duplicate', correctionId };
    await writeRejection(tx, correctionId, error, { actor: 'customer', source }, correction);
    return { status: 'rejected', correctionId, error };
  });
  afterCommit(ctx, outcome);
  logOutcome(ctx.log, outcome, { tenant: correction?.tenant ?? null, scope: correction?.scope ?? 'invalid' });
  return outcome;
}

async function writeRejection(
  tx: Queryable,
  correctionId: string,
  error: DataError,
  origin: { actor: 'customer'; source: FeedbackSource },
  c: Correction | null,
): Promise<void> {
  await audit(tx, {
    correction_id: correctionId,
    tenant: c?.tenant ?? null,
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
    source: sourceText(origin),
    reported_at: c?.reported_at ?? null,
  });
  await enqueue(tx, [deadLetter(origin.source, error, correctionId)]);
}

function afterCommit(ctx: ApplyContext, outcome: ApplyOutcome): void {
  if (outcome.status === 'duplicate' || outcome.status === 'proposed') return;
  crashPoint('after-correction-commit');
  ctx.onCommitted?.();
}

function catalogView(snapshot: Snapshot) {
  return {
    hasBrand: (id: number) => snapshot.brandsById.has(id),
    categoryOf: (sub: string) => snapshot.taxonomy.get(sub)?.category.id,
  };
}

function mappingEvent(m: MappingRow, correctionId: string): OutboxMessage {
  return {
    kind: 'brand-change',
    key: `mapping/${m.tenant}/${m.kind}/${m.key}`,
    value: JSON.stringify({
      type: 'mapping',
      version: m.version,
      tenant: m.tenant,
      kind: m.kind,
      key: m.key,
      brand_id: m.brand_id,
      sub_category_id: m.sub_category_id,
      correction_id: correctionId,
    }),
    correctionId,
    headers: { [FEEDBACK_HEADER.changeType]: 'mapping', [FEEDBACK_HEADER.correctionId]: correctionId },
  };
}

async function brandEvent(
  q: Queryable,
  brandId: number,
  correctionId: string,
  change: string,
): Promise<OutboxMessage> {
  const { rows } = await q.query<{ v: string }>(
    `SELECT coalesce((SELECT version FROM brands WHERE id = $1), (SELECT version FROM product_lines WHERE id = $1))::text AS v`,
    [brandId],
  );
  return {
    kind: 'brand-change',
    key: `brand/${brandId}`,
    value: JSON.stringify({
      type: 'brand',
      change,
      version: Number(rows[0]?.v ?? 0),
      brand_id: brandId,
      correction_id: correctionId,
    }),
    correctionId,
    headers: { [FEEDBACK_HEADER.changeType]: 'brand', [FEEDBACK_HEADER.correctionId]: correctionId },
  };
}

/** Rows whose normalized text has `textKey` (or whose merchant id is `merchantId`). */
function sameMerchant(
  rows: readonly IndexRow[],
  snapshot: Snapshot,
  textKey: string,
  merchantId: string,
): IndexRow[] {
  return rows.filter(
    (r) =>
      (merchantId !== '' && r.merchant_id === merchantId) ||
      (textKey !== '' && merchantTextKey(r, snapshot) === textKey),
  );
}

/**
 * Applies one validated correction. Customer corrections that fail a check against the store are
 * rejected to the dead-letter topic (in the same transaction); an operator's throw
 * {@link ChangeRejected} and write nothing.
 */
export async function applyCorrection(
  ctx: ApplyContext,
  c: Correction,
  origin: Origin,
): Promise<ApplyOutcome> {
  const outcome = await ctx.db.transaction(async (tx): Promise<ApplyOutcome> => {
    await tx.query(XACT_LOCK_SQL, [applyLockName(ctx.db)]);
    if (await exists(tx, c.correction_id)) return { status: 'duplicate', correctionId: c.correction_id };
    const fail = async (error: DataError): Promise<ApplyOutcome> => {
      if (origin.actor === 'operator') throw new ChangeRejected(error);
      await writeRejection(tx, c.correction_id, error, origin, c);
      return { status: 'rejected', correctionId: c.correction_id, error };
    };

    const view = await ctx.snapshots.view(tx);
    const catalogError = checkAgainstCatalog(c, catalogView(view.snapshot));
    if (catalogError) return fail(catalogError);
    const row = await findIndexed(tx, c.tenant, c.transaction_id);
    if (!row) {
      return fail(
        dataError(
          'UNKNOWN_TRANSACTION',
          'transaction_id',
          `transaction ${c.transaction_id} of tenant ${c.tenant} is not in the index of enriched transactions`,
        ),
      );
    }
    const textKey = merchantTextKey(row, view.snapshot);
    const merchantId = row.merchant_id.trim();
    if (c.scope === 'merchant' && textKey === '' && merchantId === '') {
      return fail(
        dataError(
          'INVALID_CORRECTION',
          'scope',
          'the transaction names no merchant to map: use scope "transaction"',
        ),
      );
    }
    if (c.scope === 'global' && textKey === '') {
      return fail(
        dataError(
          'INVALID_CORRECTION',
          'scope',
          'the transaction names no merchant to map: use scope "transaction"',
        ),
      );
    }

    const reporter = reporterDigest(c.tenant, c.customer_id);
    let agreeing = 0;
    let pkey: string | null = null;
    if (c.scope === 'global') {
      pkey = proposalKey(textKey, c);
      const { rows } = await tx.query<{ n: string }>(
        `SELECT count(DISTINCT reporter)::text AS n FROM corrections
         WHERE status = 'proposed' AND proposal_key = $1 AND reporter <> $2`,
        [pkey, reporter],
      );
      agreeing = Number(rows[0]?.n ?? 0) + 1;
    }
    const decision = decideTrust(c.scope, origin.actor, agreeing, ctx.quorum);
    const base: Omit<AuditRow, 'status' | 'reason' | 'reenriched' | 'brand_id'> = {
      correction_id: c.correction_id,
      tenant: c.tenant,
      transaction_id: c.transaction_id,
      reporter,
      actor: origin.actor,
      scope: c.scope,
      payload: { ...auditPayload(c), indexed_merchant_key: row.merchant_key },
      merchant_key: textKey || null,
      merchant_id: merchantId || null,
      proposal_key: pkey,
      sub_category_id: c.sub_category_id,
      source: sourceText(origin),
      reported_at: c.reported_at,
    };
    if (decision.action === 'propose') {
      await audit(tx, {
        ...base,
        status: 'proposed',
        reason: `global proposal: ${decision.agreeing} of ${decision.needed} agreeing reports`,
        reenriched: 0,
        brand_id: c.brand_id,
      });
      return {
        status: 'proposed',
        correctionId: c.correction_id,
        agreeing: decision.agreeing,
        needed: decision.needed,
      };
    }

    // The brand: from the catalog, or new (reusing one feedback created before under that name).
    const events: OutboxMessage[] = [];
    let brandId = c.brand_id;
    let catalogChanged = false;
    if (c.new_brand) {
      brandId = await findStoreBrandByName(tx, c.new_brand.name);
      if (brandId === null) {
        brandId = await insertBrand(tx, {
          name: c.new_brand.name,
          name_ar: c.new_brand.name_ar,
          website: c.new_brand.website,
          logo: null,
          sub_category_id: c.sub_category_id ?? row.sub_category_id,
          aliases: [],
          mccs: [],
          countries: [],
          subscription: false,
          origin: origin.actor === 'operator' ? 'operator' : 'feedback',
        });
        catalogChanged = true;
        events.push(await brandEvent(tx, brandId, c.correction_id, 'added'));
      }
    }

    const changed: MappingRow[] = [];
    let affected: IndexRow[];
    let reason: ReenrichReason;
    if (decision.action === 'transaction') {
      const updated = await setTransactionOverride(
        tx,
        c.tenant,
        c.transaction_id,
        brandId,
        c.sub_category_id,
      );
      affected = updated ? [updated] : [];
      reason = 'correction:transaction';
    } else if (decision.action === 'tenant-mapping') {
      if (textKey !== '') {
        changed.push(
          await upsertMapping(tx, {
            tenant: c.tenant,
            kind: 'merchant_key',
            key: textKey,
            brand_id: brandId,
            sub_category_id: c.sub_category_id,
            correction_id: c.correction_id,
          }),
        );
      }
      if (merchantId !== '') {
        changed.push(
          await upsertMapping(tx, {
            tenant: c.tenant,
            kind: 'merchant_id',
            key: merchantId,
            brand_id: brandId,
            sub_category_id: c.sub_category_id,
            correction_id: c.correction_id,
          }),
        );
      }
      const candidates = await merchantCandidates(tx, c.tenant, [textKey, row.merchant_key], merchantId);
      affected = sameMerchant(candidates, view.snapshot, textKey, merchantId);
      reason = 'correction:merchant';
    } else {
      changed.push(
        await upsertMapping(tx, {
          tenant: GLOBAL_TENANT,
          kind: 'merchant_key',
          key: textKey,
          brand_id: brandId,
          sub_category_id: c.sub_category_id,
          correction_id: c.correction_id,
        }),
      );
      // The agreeing proposals are applied with it; their transactions' indexed keys widen the search.
      const { rows: agreed } = await tx.query<{ k: string | null }>(
        `UPDATE corrections SET status = 'applied', applied_at = now(), brand_id = $2,
           reason = 'global: quorum reached by ' || $3
         WHERE status = 'proposed' AND proposal_key = $1
         RETURNING payload ->> 'indexed_merchant_key' AS k`,
        [pkey ?? '', brandId, c.correction_id],
      );
      const keys = new Set([
        textKey,
        row.merchant_key,
        ...agreed.map((a) => a.k).filter((k): k is string => !!k),
      ]);
      const candidates = await merchantCandidates(tx, null, [...keys], null);
      affected = sameMerchant(candidates, view.snapshot, textKey, '');
      reason = 'correction:global';
    }
    for (const m of changed) events.push(mappingEvent(m, c.correction_id));

    const after = await ctx.snapshots.preview(tx, view, changed, catalogChanged);
    const history = await historyExcluding(tx, affected);
    const result = reenrich(affected, after, history, {
      logoBaseUrl: ctx.logoBaseUrl,
      now: Date.now(),
      reason,
      correctionId: c.correction_id,
      emit: 'changed',
    });
    await updateIndexed(tx, result.updates);
    await enqueue(tx, [...events, ...result.messages]);
    await audit(tx, {
      ...base,
      status: 'applied',
      reason:
        decision.action === 'global-mapping' && origin.actor === 'customer'
          ? `global: quorum of ${ctx.quorum} reached`
          : null,
      reenriched: result.messages.length,
      brand_id: brandId,
    });
    return {
      status: 'applied',
      correctionId: c.correction_id,
      action: decision.action,
      reenriched: result.messages.length,
      events: events.length,
      brandId,
    };
  });
  afterCommit(ctx, outcome);
  logOutcome(ctx.log, outcome, c);
  return outcome;
}

function logOutcome(log: Logger, outcome: ApplyOutcome, c: { tenant: string | null; scope: string }): void {
  // No customer or transaction data at info level: the correction id, tenant, scope and counts.
  const fields = {
    correctionId: outcome.correctionId,
    tenant: c.tenant,
    scope: c.scope,
    status: outcome.status,
  };
  if (outcome.status === 'applied') {
    log.info(
      { ...fields, action: outcome.action, reenriched: outcome.reenriched, events: outcome.events },
      'correction applied',
    );
  } else if (outcome.status === 'proposed') {
    log.info({ ...fields, agreeing: outcome.agreeing, needed: outcome.needed }, 'global correction proposed');
  } else if (outcome.status === 'rejected') {
    log.info({ ...fields, code: outcome.error.code, field: outcome.error.field }, 'correction rejected');
  } else {
    log.debug(fields, 'correction already applied: skipped');
  }
}

// ---------------------------------------------------------------------------------------------------
// Operator changes of the catalog

/**
 * An operator's edit of a brand (or product line): new Arabic name, logo, website, sub-category,
 * extra aliases. Re-enriches every transaction indexed with that brand (all tenants) when a field
 * that shows in the v3 record changed, and tells every worker.
 */
export async function applyBrandEdit(
  ctx: ApplyContext,
  brandId: number,
  edit: BrandEdit,
  aliases: readonly string[] = [],
  source = 'cli',
): Promise<ApplyOutcome> {
  const correctionId = `op-brand-${randomUUID()}`;
  const outcome = await ctx.db.transaction(async (tx): Promise<ApplyOutcome> => {
    await tx.query(XACT_LOCK_SQL, [applyLockName(ctx.db)]);
    const view = await ctx.snapshots.view(tx);
    const brand = view.snapshot.brandsById.get(brandId);
    if (!brand)
      throw new ChangeRejected(
        dataError('UNKNOWN_BRAND', 'id', `brand ${brandId} is not in the brand store`),
      );
    if (edit.sub_category_id !== undefined && !view.snapshot.taxonomy.has(edit.sub_category_id)) {
      throw new ChangeRejected(
        dataError(
          'UNKNOWN_SUB_CATEGORY',
          'sub_category_id',
          `sub-category ${edit.sub_category_id} is not in the taxonomy`,
        ),
      );
    }
    const kind = await editBrand(tx, brandId, edit, aliases);
    if (kind === null)
      throw new ChangeRejected(
        dataError('UNKNOWN_BRAND', 'id', `brand ${brandId} is not in the brand store`),
      );
    if (kind === 'product_line' && edit.logo !== undefined) {
      throw new ChangeRejected(
        dataError(
          'INVALID_CORRECTION',
          'logo',
          'a product line shows its own logo path (brands/<slug>.png); edit the brand',
        ),
      );
    }
    const after = await ctx.snapshots.preview(tx, view, [], true);
    const shows = Object.keys(edit).length > 0;
    const affected = shows ? await rowsWithBrands(tx, await brandFamilyIds(tx, brandId)) : [];
    const history = await historyExcluding(tx, affected);
    const result = reenrich(affected, after, history, {
      logoBaseUrl: ctx.logoBaseUrl,
      now: Date.now(),
      reason: 'brand-update',
      correctionId,
      emit: 'all',
    });
    await updateIndexed(tx, result.updates);
    const event = await brandEvent(tx, brandId, correctionId, 'updated');
    await enqueue(tx, [event, ...result.messages]);
    await auditBrandAction(tx, {
      correctionId,
      reason: 'brand update',
      payload: { brand_id: brandId, edit, aliases },
      brandId,
      subCategoryId: edit.sub_category_id ?? null,
      reenriched: result.messages.length,
      source,
    });
    return {
      status: 'applied',
      correctionId,
      action: 'brand-edit',
      reenriched: result.messages.length,
      events: 1,
      brandId,
    };
  });
  afterCommit(ctx, outcome);
  ctx.log.info(
    {
      correctionId,
      brandId,
      fields: Object.keys(edit),
      aliases: aliases.length,
      reenriched: outcome.status === 'applied' ? outcome.reenriched : 0,
    },
    'brand updated',
  );
  return outcome;
}

/** An operator's new brand: matched by its name and aliases from now on (no re-enrichment). */
export async function applyBrandAdd(
  ctx: ApplyContext,
  brand: Omit<NewBrandRow, 'origin'>,
  source = 'cli',
): Promise<ApplyOutcome> {
  const correctionId = `op-brand-${randomUUID()}`;
  const outcome = await ctx.db.transaction(async (tx): Promise<ApplyOutcome> => {
    await tx.query(XACT_LOCK_SQL, [applyLockName(ctx.db)]);
    const view = await ctx.snapshots.view(tx);
    if (!view.snapshot.taxonomy.has(brand.sub_category_id)) {
      throw new ChangeRejected(
        dataError(
          'UNKNOWN_SUB_CATEGORY',
          'sub_category_id',
          `sub-category ${brand.sub_category_id} is not in the taxonomy`,
        ),
      );
    }
    const id = await insertBrand(tx, { ...brand, origin: 'operator' });
    await enqueue(tx, [await brandEvent(tx, id, correctionId, 'added')]);
    await auditBrandAction(tx, {
      correctionId,
      reason: 'brand added',
      payload: { brand_id: id, ...brand },
      brandId: id,
      subCategoryId: brand.sub_category_id,
      reenriched: 0,
      source,
    });
    return { status: 'applied', correctionId, action: 'brand-add', reenriched: 0, events: 1, brandId: id };
  });
  afterCommit(ctx, outcome);
  ctx.log.info(
    { correctionId, brandId: outcome.status === 'applied' ? outcome.brandId : null },
    'brand added',
  );
  return outcome;
}
