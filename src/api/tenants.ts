/**
 * The tenants file: per tenant, its options (Arabic, transaction_id, logo base URL), its request
 * limits and the SHA-256 digests of its credentials — never the secrets themselves. Read and
 * validated with zod; written atomically (temporary file, fsync, rename) with mode 0600.
 *
 * The editing functions (`addTenant`, `rotateCredential`) are pure: they return a new file and the
 * new secrets, which the caller prints exactly once.
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, join, basename } from 'node:path';
import { z } from 'zod';
import { generateSecret, hashSecret, newCredentialId, secretHint, type ApiVersion } from './credentials.js';

/** Where the tenants file is when TENANTS_FILE is unset (relative to the working directory). */
export const DEFAULT_TENANTS_FILE = '.data/tenants.json';

/** Request limits of a tenant that sets none (and of the file's `defaults` when it sets none). */
export const DEFAULT_LIMITS = Object.freeze({
  max_body_bytes: 1024 * 1024,
  max_batch: 1000,
  rate_limit_per_minute: 600,
});

/** Upper bounds a tenant's limits may be raised to. */
export const LIMIT_CEILINGS = Object.freeze({
  max_body_bytes: 64 * 1024 * 1024,
  max_batch: 100_000,
  rate_limit_per_minute: 1_000_000,
});

export const tenantIdSchema = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1-64 of A-Z a-z 0-9 . _ -');

export const limitsSchema = z.strictObject({
  max_body_bytes: z.number().int().min(1024).max(LIMIT_CEILINGS.max_body_bytes).optional(),
  max_batch: z.number().int().min(1).max(LIMIT_CEILINGS.max_batch).optional(),
  rate_limit_per_minute: z.number().int().min(1).max(LIMIT_CEILINGS.rate_limit_per_minute).optional(),
});

export const credentialSchema = z.strictObject({
  /** Random id naming the credential (8 hex characters); not derived from the secret. */
  id: z.string().regex(/^[0-9a-f]{8}$/, 'must be 8 lowercase hex characters'),
  /** SHA-256 of the secret, lowercase hex. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex characters (SHA-256)'),
  /** Prefix and last four characters of the secret, to recognise it. */
  hint: z.string().max(40),
  created_at: z.string(),
});

const logoBaseUrlSchema = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });

export const tenantSchema = z.strictObject({
  /** v2 only: return the Arabic fields (v3 always returns them). */
  arabic_enabled: z.boolean().default(false),
  /** v2 only: return transaction_id in place of ref_id. */
  return_transaction_id: z.boolean().default(false),
  /** Prefix of logo paths; null falls back to LOGO_BASE_URL, then to relative paths. */
  logo_base_url: logoBaseUrlSchema.nullable().default(null),
  limits: limitsSchema.default({}),
  credentials: z
    .strictObject({
      v3: z.array(credentialSchema).default([]),
      v2: z.array(credentialSchema).default([]),
    })
    .default({ v3: [], v2: [] }),
  created_at: z.string().optional(),
});

export const tenantsFileSchema = z
  .strictObject({
    version: z.literal(1),
    /** Limits of tenants that do not set their own. */
    defaults: limitsSchema.default({}),
    tenants: z.record(tenantIdSchema, tenantSchema).default({}),
  })
  .superRefine((file, ctx) => {
    const seen = new Map<string, string>();
    for (const [id, tenant] of Object.entries(file.tenants)) {
      for (const version of ['v3', 'v2'] as const) {
        tenant.credentials[version].forEach((credential, index) => {
          const other = seen.get(credential.sha256);
          if (other !== undefined) {
            ctx.addIssue({
              code: 'custom',
              path: ['tenants', id, 'credentials', version, index, 'sha256'],
              message: `the same credential is also listed at ${other}`,
            });
          }
          seen.set(credential.sha256, `tenants.${id}.credentials.${version}.${index}`);
        });
      }
    }
  });

export type TenantsFile = z.output<typeof tenantsFileSchema>;
export type TenantEntry = z.output<typeof tenantSchema>;
export type TenantLimits = z.output<typeof limitsSchema>;
export type StoredCredential = z.output<typeof credentialSchema>;

export class TenantsFileError extends Error {
  constructor(
    readonly path: string,
    readonly problems: readonly string[],
  ) {
    super(`invalid tenants file ${path}:\n  ${problems.join('\n  ')}`);
    this.name = 'TenantsFileError';
  }
}

/** Thrown by the editing functions: unknown or duplicate tenant. */
export class TenantsEditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TenantsEditError';
  }
}

export function emptyTenantsFile(): TenantsFile {
  return { version: 1, defaults: {}, tenants: {} };
}

/** Validates a parsed tenants document; throws a {@link TenantsFileError} naming each problem. */
export function parseTenantsFile(json: unknown, path = '(tenants file)'): TenantsFile {
  const parsed = tenantsFileSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  throw new TenantsFileError(
    path,
    parsed.error.issues.slice(0, 20).map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`),
  );
}

export interface LoadedTenantsFile {
  readonly file: TenantsFile;
  /** False when there was no file (an empty one is returned). */
  readonly exists: boolean;
  /** Permission bits of the file when group or others may read or write it, else null. */
  readonly looseMode: number | null;
}

/** Reads the tenants file; a missing file is an empty one. Throws {@link TenantsFileError}. */
export function readTenantsFile(path: string): LoadedTenantsFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { file: emptyTenantsFile(), exists: false, looseMode: null };
    }
    throw new TenantsFileError(path, [(error as Error).message]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new TenantsFileError(path, [`not valid JSON: ${(error as Error).message}`]);
  }
  const file = parseTenantsFile(json, path);
  let looseMode: number | null = null;
  try {
    const mode = statSync(path).mode & 0o777;
    if ((mode & 0o077) !== 0) looseMode = mode;
  } catch {
    // The file was just read; a failing stat only loses the warning.
  }
  return { file, exists: true, looseMode };
}

/**
 * Writes the file atomically: a temporary file in the same directory (mode 0600), fsync, rename over
 * the target, fsync of the directory. Readers see the old or the new file, never a torn one.
 */
export function writeTenantsFile(path: string, file: TenantsFile): void {
  const checked = parseTenantsFile(file, path);
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(checked, null, 2)}\n`);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    // The umask cannot widen 0600, but be explicit in case the file system ignored the open mode.
    chmodSync(temp, 0o600);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  try {
    const dirFd = openSync(dir, 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    // Directory fsync is not supported everywhere; the rename itself is already atomic.
  }
}

export interface TenantOptions {
  readonly arabicEnabled?: boolean;
  readonly returnTransactionId?: boolean;
  readonly logoBaseUrl?: string | null;
  readonly limits?: TenantLimits;
}

export interface NewSecrets {
  readonly v3: string;
  readonly v2: string;
}

function newCredential(version: ApiVersion, now: Date): { stored: StoredCredential; secret: string } {
  const secret = generateSecret(version);
  return {
    secret,
    stored: {
      id: newCredentialId(),
      sha256: hashSecret(secret),
      hint: secretHint(secret),
      created_at: now.toISOString(),
    },
  };
}

/** Adds a tenant with one v3 token and one v2 API key; returns the new file and both secrets. */
export function addTenant(
  file: TenantsFile,
  id: string,
  options: TenantOptions = {},
  now: Date = new Date(),
): { file: TenantsFile; secrets: NewSecrets } {
  const checkedId = tenantIdSchema.safeParse(id);
  if (!checkedId.success)
    throw new TenantsEditError(`tenant id "${id}" ${checkedId.error.issues[0]?.message}`);
  if (Object.hasOwn(file.tenants, id)) throw new TenantsEditError(`tenant "${id}" already exists`);
  const v3 = newCredential('v3', now);
  const v2 = newCredential('v2', now);
  const parsed = tenantSchema.safeParse({
    arabic_enabled: options.arabicEnabled ?? false,
    return_transaction_id: options.returnTransactionId ?? false,
    logo_base_url: options.logoBaseUrl ?? null,
    limits: options.limits ?? {},
    credentials: { v3: [v3.stored], v2: [v2.stored] },
    created_at: now.toISOString(),
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.map(String).join('.')} ${i.message}`);
    throw new TenantsEditError(`invalid options for tenant "${id}": ${problems.join('; ')}`);
  }
  return {
    file: { ...file, tenants: { ...file.tenants, [id]: parsed.data } },
    secrets: { v3: v3.secret, v2: v2.secret },
  };
}

/**
 * Issues a new credential of one version for a tenant. With `revokeOld`, the tenant's other
 * credentials of that version are removed; without it they keep working (rotation without downtime).
 */
export function rotateCredential(
  file: TenantsFile,
  id: string,
  version: ApiVersion,
  options: { readonly revokeOld?: boolean } = {},
  now: Date = new Date(),
): { file: TenantsFile; secret: string; credentialId: string; revoked: readonly string[] } {
  const tenant = Object.hasOwn(file.tenants, id) ? file.tenants[id] : undefined;
  if (!tenant) throw new TenantsEditError(`no tenant "${id}"`);
  const fresh = newCredential(version, now);
  const old = tenant.credentials[version];
  const kept = options.revokeOld ? [] : old;
  const updated: TenantEntry = {
    ...tenant,
    credentials: { ...tenant.credentials, [version]: [...kept, fresh.stored] },
  };
  return {
    file: { ...file, tenants: { ...file.tenants, [id]: updated } },
    secret: fresh.secret,
    credentialId: fresh.stored.id,
    revoked: options.revokeOld ? old.map((c) => c.id) : [],
  };
}

/** Effective limits of a tenant: its own, else the file's defaults, else {@link DEFAULT_LIMITS}. */
export function effectiveLimits(file: TenantsFile, tenant: TenantEntry): Required<TenantLimits> {
  return {
    max_body_bytes:
      tenant.limits.max_body_bytes ?? file.defaults.max_body_bytes ?? DEFAULT_LIMITS.max_body_bytes,
    max_batch: tenant.limits.max_batch ?? file.defaults.max_batch ?? DEFAULT_LIMITS.max_batch,
    rate_limit_per_minute:
      tenant.limits.rate_limit_per_minute ??
      file.defaults.rate_limit_per_minute ??
      DEFAULT_LIMITS.rate_limit_per_minute,
  };
}

export interface TenantSummary {
  readonly id: string;
  readonly arabic_enabled: boolean;
  readonly return_transaction_id: boolean;
  readonly logo_base_url: string | null;
  readonly limits: Required<TenantLimits>;
  /** Id, hint and creation time of each credential; never a secret or a digest. */
  readonly credentials: Readonly<
    Record<ApiVersion, readonly { id: string; hint: string; created_at: string }[]>
  >;
}

/** What `tenants list` shows: everything but the digests. */
export function summarizeTenants(file: TenantsFile): TenantSummary[] {
  return Object.entries(file.tenants)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, tenant]) => ({
      id,
      arabic_enabled: tenant.arabic_enabled,
      return_transaction_id: tenant.return_transaction_id,
      logo_base_url: tenant.logo_base_url,
      limits: effectiveLimits(file, tenant),
      credentials: {
        v3: tenant.credentials.v3.map(({ id: credentialId, hint, created_at }) => ({
          id: credentialId,
          hint,
          created_at,
        })),
        v2: tenant.credentials.v2.map(({ id: credentialId, hint, created_at }) => ({
          id: credentialId,
          hint,
          created_at,
        })),
      },
    }));
}
