/**
 * API credentials: v3 bearer tokens and v2 API keys. A credential is a fixed textual prefix
 * (`txe_v3_`, `txe_v2_`) followed by 32 random base62 characters (about 190 bits). Only its SHA-256
 * digest is ever stored; a presented credential is hashed and compared with `timingSafeEqual`.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export type ApiVersion = 'v2' | 'v3';

export const CREDENTIAL_PREFIX: Readonly<Record<ApiVersion, string>> = { v2: 'txe_v2_', v3: 'txe_v3_' };

/** Random characters after the prefix. 32 base62 characters carry log2(62^32) ≈ 190 bits. */
export const SECRET_RANDOM_CHARS = 32;

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// 62 * 4 = 248: bytes at or above it are rejected so every character is equally likely.
const UNBIASED_LIMIT = 248;

/** `length` uniformly random base62 characters from the operating system's CSPRNG. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= UNBIASED_LIMIT) continue;
      out += BASE62.charAt(byte % 62);
      if (out.length === length) break;
    }
  }
  return out;
}

/** A new secret for one API version: prefix + 32 base62 characters. */
export function generateSecret(version: ApiVersion): string {
  return CREDENTIAL_PREFIX[version] + randomBase62(SECRET_RANDOM_CHARS);
}

/** The stored form of a secret: SHA-256 of its UTF-8 bytes, lowercase hex (64 characters). */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** The raw 32-byte digest, for comparisons. */
export function digestSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/**
 * Constant-time equality of two digests. Different lengths are unequal (and return at once: the
 * length of a SHA-256 digest is public).
 */
export function digestsEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The API version whose prefix a presented secret carries, or null. */
export function versionOfSecret(secret: string): ApiVersion | null {
  if (secret.startsWith(CREDENTIAL_PREFIX.v3)) return 'v3';
  if (secret.startsWith(CREDENTIAL_PREFIX.v2)) return 'v2';
  return null;
}

/** What `tenants list` may show of a secret: its prefix and last four characters. */
export function secretHint(secret: string): string {
  const version = versionOfSecret(secret);
  const prefix = version ? CREDENTIAL_PREFIX[version] : '';
  return `${prefix}…${secret.slice(-4)}`;
}

/** A short random id for a credential, so it can be named (listed, revoked) without its secret. */
export function newCredentialId(): string {
  return randomBytes(4).toString('hex');
}
