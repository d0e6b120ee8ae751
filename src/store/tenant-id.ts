/**
 * Tenant ids as they may arrive from outside (a record's tenant-id header, a correction's tenant, an
 * operator's command): the API's pattern, 1-64 of A-Z a-z 0-9 . _ -. The store keeps `*` for itself
 * (GLOBAL_TENANT: a mapping for every tenant), so a tenant id that could be `*`, or carry a NUL byte
 * PostgreSQL refuses, must be stopped at the door rather than in a query.
 */
export const TENANT_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

export const TENANT_ID_RULE = 'must be 1-64 of A-Z a-z 0-9 . _ -';

export function isTenantId(value: string): boolean {
  return TENANT_ID_PATTERN.test(value);
}
