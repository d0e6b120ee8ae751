/**
 * An operator's changes of brands (`tx-enrich brands add|update|promote`), through the same unit of
 * work as corrections: audit row, change, re-enriched records and a brand-change event in one
 * transaction. A rejection is returned (nothing written), like every other outcome.
 */
import { randomUUID } from 'node:crypto';
import { dataError } from '../../errors/catalog.js';
import type { BrandEdit, NewBrandRow } from '../../store/brands.js';
import type { ChangeTx } from '../../store/change-store.js';
import type { AuditRow } from '../../store/corrections.js';
import { brandEvent } from '../events.js';
import { Rejection, type ApplyContext, type ApplyOutcome } from '../outcome.js';
import { reenrichAffected } from '../steps/reenrich.js';
import { record } from '../steps/record.js';
import { afterCommit } from './apply-correction.js';

/**
 * An edit of a brand or product line: name, Arabic name, logo, website, sub-category, extra aliases.
 * Re-enriches every transaction indexed with it (all tenants it reaches) when a field that shows in
 * the v3 record changed, and tells every worker. Aliases on a tenant's own brand are refused: they
 * would match its name in every tenant's texts (promote it first).
 */
export async function applyBrandEdit(
  ctx: ApplyContext,
  brandId: number,
  edit: BrandEdit,
  aliases: readonly string[] = [],
  source = 'cli',
): Promise<ApplyOutcome> {
  const correctionId = `op-brand-${randomUUID()}`;
  const outcome = await operatorChange(ctx, correctionId, async (tx) => {
    const view = await tx.view();
    const ownership = view.snapshot.brandsById.has(brandId) ? await tx.brandOwner(brandId) : null;
    if (ownership === null) throw unknownBrand(brandId);
    if (edit.sub_category_id !== undefined && !view.snapshot.taxonomy.has(edit.sub_category_id)) {
      throw new Rejection(
        dataError(
          'UNKNOWN_SUB_CATEGORY',
          'sub_category_id',
          `sub-category ${edit.sub_category_id} is not in the taxonomy`,
        ),
      );
    }
    if (aliases.length > 0 && ownership.owner !== null) {
      throw new Rejection(
        dataError(
          'INVALID_CORRECTION',
          'alias',
          `brand ${brandId} belongs to tenant ${ownership.owner}: aliases would match it in every tenant's texts (promote it first)`,
        ),
      );
    }
    const kind = await tx.editBrand(brandId, edit, aliases);
    if (kind === null) throw unknownBrand(brandId);
    if (kind === 'product_line' && edit.logo !== undefined) {
      throw new Rejection(
        dataError(
          'INVALID_CORRECTION',
          'logo',
          'a product line shows its own logo path (brands/<slug>.png); edit the brand',
        ),
      );
    }
    const after = await tx.preview(view, [], true);
    const affected =
      Object.keys(edit).length > 0 ? await tx.rowsWithBrands(await tx.brandFamilyIds(brandId)) : [];
    const reenriched = await reenrichAffected(tx, affected, after, {
      logoBaseUrl: ctx.logoBaseUrl,
      now: (ctx.now ?? Date.now)(),
      reason: 'brand-update',
      correctionId,
      emit: 'all',
    });
    const event = brandEvent(brandId, await tx.brandVersion(brandId), correctionId, 'updated');
    await record(
      tx,
      brandAudit(
        ctx,
        correctionId,
        'brand update',
        { brand_id: brandId, edit, aliases },
        brandId,
        edit.sub_category_id ?? null,
        reenriched.length,
        source,
      ),
      [event, ...reenriched],
    );
    return applied(correctionId, 'brand-edit', reenriched.length, brandId);
  });
  ctx.log.info(
    { correctionId, brandId, fields: Object.keys(edit), aliases: aliases.length, status: outcome.status },
    'brand update',
  );
  return outcome;
}

/** A new brand of every tenant: matched by its name and aliases from now on (no re-enrichment). */
export async function applyBrandAdd(
  ctx: ApplyContext,
  brand: Omit<NewBrandRow, 'origin' | 'owner_tenant'>,
  source = 'cli',
): Promise<ApplyOutcome> {
  const correctionId = `op-brand-${randomUUID()}`;
  const outcome = await operatorChange(ctx, correctionId, async (tx) => {
    const view = await tx.view();
    if (!view.snapshot.taxonomy.has(brand.sub_category_id)) {
      throw new Rejection(
        dataError(
          'UNKNOWN_SUB_CATEGORY',
          'sub_category_id',
          `sub-category ${brand.sub_category_id} is not in the taxonomy`,
        ),
      );
    }
    const id = await tx.insertBrand({ ...brand, origin: 'operator', owner_tenant: null });
    await record(
      tx,
      brandAudit(
        ctx,
        correctionId,
        'brand added',
        { brand_id: id, ...brand },
        id,
        brand.sub_category_id,
        0,
        source,
      ),
      [brandEvent(id, await tx.brandVersion(id), correctionId, 'added')],
    );
    return applied(correctionId, 'brand-add', 0, id);
  });
  ctx.log.info(
    { correctionId, brandId: outcome.status === 'applied' ? outcome.brandId : null },
    'brand added',
  );
  return outcome;
}

/**
 * Makes a brand created from a tenant's correction every tenant's: other tenants may then name it
 * (brand_id), global corrections may map to it, an operator may give it aliases. Its own records do
 * not change (no re-enrichment).
 */
export async function promoteBrand(
  ctx: ApplyContext,
  brandId: number,
  source = 'cli',
): Promise<ApplyOutcome> {
  const correctionId = `op-brand-${randomUUID()}`;
  const outcome = await operatorChange(ctx, correctionId, async (tx) => {
    const ownership = await tx.brandOwner(brandId);
    if (ownership === null) throw unknownBrand(brandId);
    if (ownership.owner === null || !(await tx.promoteBrand(brandId))) {
      throw new Rejection(
        dataError(
          'INVALID_CORRECTION',
          'id',
          `brand ${brandId} already belongs to every tenant: nothing to promote`,
        ),
      );
    }
    await record(
      tx,
      brandAudit(
        ctx,
        correctionId,
        `brand promoted from tenant ${ownership.owner}`,
        { brand_id: brandId, owner_tenant: ownership.owner },
        brandId,
        null,
        0,
        source,
      ),
      [brandEvent(brandId, await tx.brandVersion(brandId), correctionId, 'promoted')],
    );
    return applied(correctionId, 'brand-promote', 0, brandId);
  });
  ctx.log.info({ correctionId, brandId, status: outcome.status }, 'brand promotion');
  return outcome;
}

async function operatorChange(
  ctx: ApplyContext,
  correctionId: string,
  fn: (tx: ChangeTx) => Promise<ApplyOutcome>,
): Promise<ApplyOutcome> {
  let outcome: ApplyOutcome;
  try {
    outcome = await ctx.store.change(fn);
  } catch (error) {
    if (!(error instanceof Rejection)) throw error;
    outcome = { status: 'rejected', correctionId, error: error.error };
  }
  afterCommit(ctx, outcome, 'operator');
  return outcome;
}

function unknownBrand(id: number): Rejection {
  return new Rejection(dataError('UNKNOWN_BRAND', 'id', `brand ${id} is not in the brand store`));
}

function applied(
  correctionId: string,
  action: 'brand-edit' | 'brand-add' | 'brand-promote',
  reenriched: number,
  brandId: number,
): ApplyOutcome {
  return { status: 'applied', correctionId, action, reenriched, events: 1, brandId };
}

/** The audit row of an operator's brand action: the brand is the scope (no tenant, transaction or merchant). */
function brandAudit(
  ctx: ApplyContext,
  correctionId: string,
  reason: string,
  payload: Record<string, unknown>,
  brandId: number,
  subCategoryId: string | null,
  reenriched: number,
  source: string,
): AuditRow {
  return {
    correction_id: correctionId,
    tenant: null,
    transaction_id: null,
    reporter: null,
    actor: 'operator',
    scope: 'brand',
    status: 'applied',
    reason,
    payload,
    merchant_key: null,
    merchant_id: null,
    proposal_key: null,
    brand_id: brandId,
    sub_category_id: subCategoryId,
    reenriched,
    source,
    reported_at: (ctx.now ?? Date.now)(),
    content_digest: null,
  };
}
