/**
 * The API's view of the tenants file: resolved tenants (effective limits and logo base URL) and
 * credential look-up. A presented secret is hashed once and compared, in constant time, with every
 * stored digest of its API version — no early exit, so the time taken does not depend on which
 * digest (if any) matched.
 */
import { digestSecret, digestsEqual, type ApiVersion } from './credentials.js';
import { effectiveLimits, type TenantsFile } from './tenants.js';

export interface ResolvedTenant {
  readonly id: string;
  /** v2: include brand_name_ar, category_name_ar, sub_category_name_ar. */
  readonly arabicEnabled: boolean;
  /** v2: return transaction_id in place of ref_id. */
  readonly returnTransactionId: boolean;
  /** Prefix of v3 logo locations; '' leaves them relative. */
  readonly logoBaseUrl: string;
  readonly limits: {
    readonly maxBodyBytes: number;
    readonly maxBatch: number;
    readonly ratePerMinute: number;
  };
}

/** What the server needs: credential → tenant. */
export interface TenantLookup {
  authenticate(version: ApiVersion, secret: string): ResolvedTenant | null;
}

interface Entry {
  readonly digest: Buffer;
  readonly tenant: ResolvedTenant;
}

export interface TenantDirectoryOptions {
  /** Used for tenants without their own logo_base_url (the LOGO_BASE_URL setting). */
  readonly defaultLogoBaseUrl?: string | undefined;
}

export class TenantDirectory implements TenantLookup {
  private entries: Record<ApiVersion, readonly Entry[]> = { v2: [], v3: [] };
  private resolved: readonly ResolvedTenant[] = [];

  constructor(
    file: TenantsFile,
    private readonly options: TenantDirectoryOptions = {},
  ) {
    this.replace(file);
  }

  /** Swaps in a new tenants file (after a reload); requests in flight keep the tenant they resolved. */
  replace(file: TenantsFile): void {
    const entries: Record<ApiVersion, Entry[]> = { v2: [], v3: [] };
    const resolved: ResolvedTenant[] = [];
    for (const [id, tenant] of Object.entries(file.tenants)) {
      const limits = effectiveLimits(file, tenant);
      const view: ResolvedTenant = Object.freeze({
        id,
        arabicEnabled: tenant.arabic_enabled,
        returnTransactionId: tenant.return_transaction_id,
        logoBaseUrl: tenant.logo_base_url ?? this.options.defaultLogoBaseUrl ?? '',
        limits: Object.freeze({
          maxBodyBytes: limits.max_body_bytes,
          maxBatch: limits.max_batch,
          ratePerMinute: limits.rate_limit_per_minute,
        }),
      });
      resolved.push(view);
      for (const version of ['v2', 'v3'] as const) {
        for (const credential of tenant.credentials[version]) {
          entries[version].push({ digest: Buffer.from(credential.sha256, 'hex'), tenant: view });
        }
      }
    }
    this.entries = entries;
    this.resolved = resolved;
  }

  get tenants(): readonly ResolvedTenant[] {
    return this.resolved;
  }

  authenticate(version: ApiVersion, secret: string): ResolvedTenant | null {
    const presented = digestSecret(secret);
    let found: ResolvedTenant | null = null;
    for (const entry of this.entries[version]) {
      // No early exit: every digest of the version is compared.
      if (digestsEqual(presented, entry.digest) && found === null) found = entry.tenant;
    }
    return found;
  }
}
