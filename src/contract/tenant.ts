/**
 * Tenant ids, the same rule at every door: the worker's `tenant-id` header, the HTTP API's
 * credentials and tenants file, feedback corrections and the operator CLI. The brand store uses `*`
 * as its marker for "every tenant" (a global mapping), so a tenant id must never be able to spell
 * it, nor anything else outside this pattern.
 */
import { z } from 'zod';

export const TENANT_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
export const TENANT_ID_RULE = 'must be 1-64 of A-Z a-z 0-9 . _ -';

export const tenantIdSchema = z.string().regex(TENANT_ID_PATTERN, TENANT_ID_RULE);

export function isTenantId(value: string): boolean {
  return TENANT_ID_PATTERN.test(value);
}
