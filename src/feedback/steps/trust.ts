/**
 * Step 3, trust: may this report change anything, and how much?
 *
 * - A customer's correction counts only if the customer owns the transaction: the index has it
 *   under that customer id. Anyone else's report about it is dead-lettered.
 * - Transaction and merchant scopes apply at once, for that transaction or that tenant.
 * - A global scope from customers is a proposal until GLOBAL_CORRECTION_QUORUM distinct customers,
 *   each with an indexed transaction at that merchant, from at least GLOBAL_CORRECTION_MIN_TENANTS
 *   tenants, agree on the merchant, the brand and the sub-category. One tenant alone never changes
 *   what every other tenant sees, however many customer ids it invents.
 * - An operator's correction applies at once, global included.
 */
import { dataError } from '../../errors/catalog.js';
import type { ChangeTx } from '../../store/change-store.js';
import type { Correction, Scope } from '../correction.js';
import { reporterDigest } from '../correction.js';
import type { Located } from './locate.js';
import { fail, ok, type StepResult } from './result.js';

export type Actor = 'customer' | 'operator';

export type TrustDecision =
  /** Override this one transaction. */
  | { readonly action: 'transaction' }
  /** Learned mapping for this tenant's merchant, at once. */
  | { readonly action: 'tenant-mapping' }
  /** Global mapping (every tenant). */
  | { readonly action: 'global-mapping' }
  /** Recorded as a proposal; the global mapping waits for more agreeing reports. */
  | {
      readonly action: 'propose';
      readonly agreeing: number;
      readonly needed: number;
      readonly tenants: number;
      readonly neededTenants: number;
    };

export interface QuorumPolicy {
  /** Distinct agreeing customers needed (GLOBAL_CORRECTION_QUORUM). */
  readonly quorum: number;
  /** Distinct tenants they must come from (GLOBAL_CORRECTION_MIN_TENANTS, at least 2). */
  readonly minTenants: number;
}

/** The policy on counts alone: who agrees has already been checked. */
export function decideTrust(
  scope: Scope,
  actor: Actor,
  agreeing: { readonly customers: number; readonly tenants: number },
  policy: QuorumPolicy,
): TrustDecision {
  if (scope === 'transaction') return { action: 'transaction' };
  if (scope === 'merchant') return { action: 'tenant-mapping' };
  if (actor === 'operator') return { action: 'global-mapping' };
  // Never fewer than two tenants, whatever the configuration says.
  const neededTenants = Math.max(2, policy.minTenants);
  if (agreeing.customers >= policy.quorum && agreeing.tenants >= neededTenants) {
    return { action: 'global-mapping' };
  }
  return {
    action: 'propose',
    agreeing: agreeing.customers,
    needed: policy.quorum,
    tenants: agreeing.tenants,
    neededTenants,
  };
}

/**
 * What global proposals must agree on to count together: the merchant, and the same brand (id, or
 * new brand by folded name) and sub-category.
 */
export function proposalKey(
  merchantKey: string,
  c: Pick<Correction, 'brand_id' | 'new_brand' | 'sub_category_id'>,
): string {
  const brand =
    c.brand_id !== null ? `id:${c.brand_id}` : c.new_brand ? `new:${foldName(c.new_brand.name)}` : 'keep';
  return JSON.stringify([merchantKey, brand, c.sub_category_id ?? 'keep']);
}

export function foldName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export interface Trusted {
  readonly decision: TrustDecision;
  /** Digest of tenant and customer id (the operator's: of "operator"). */
  readonly reporter: string;
  /** The key agreeing global proposals share; null for other scopes. */
  readonly proposalKey: string | null;
}

export async function trust(
  tx: Pick<ChangeTx, 'proposalReporters'>,
  c: Correction,
  actor: Actor,
  located: Located,
  policy: QuorumPolicy,
): Promise<StepResult<Trusted>> {
  if (actor === 'customer' && located.row.customer_id !== c.customer_id) {
    return fail(
      dataError(
        'NOT_TRANSACTION_OWNER',
        'customer_id',
        `the correction's customer is not the customer of transaction ${c.transaction_id}`,
      ),
    );
  }
  const reporter = reporterDigest(c.tenant, c.customer_id);
  if (c.scope !== 'global') {
    return ok({
      decision: decideTrust(c.scope, actor, { customers: 0, tenants: 0 }, policy),
      reporter,
      proposalKey: null,
    });
  }
  const key = proposalKey(located.textKey, c);
  const customers = new Set([reporter]);
  const tenants = new Set([c.tenant]);
  for (const p of await tx.proposalReporters(key)) {
    // A proposal counts while its customer still has the transaction it reported indexed: a
    // customer with a transaction at that merchant. (Proposals from before ownership was checked
    // count only if they pass this test.)
    if (p.indexed_customer_id === null || reporterDigest(p.tenant, p.indexed_customer_id) !== p.reporter)
      continue;
    customers.add(p.reporter);
    tenants.add(p.tenant);
  }
  const decision = decideTrust(c.scope, actor, { customers: customers.size, tenants: tenants.size }, policy);
  return ok({ decision, reporter, proposalKey: key });
}
