/**
 * Authentication: v3 takes `Authorization: Bearer <token>`, v2 takes `Api-key: <key>`. Every
 * failure is a 401 whose message says which header the version takes; the other version's header
 * or credential is recognised and named as such. Secrets are never echoed or logged.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { CREDENTIAL_PREFIX, versionOfSecret, type ApiVersion } from './credentials.js';
import { ApiError } from './errors.js';
import type { ResolvedTenant, TenantLookup } from './tenant-directory.js';

const REALM = 'tx-enrich';

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  const text = Array.isArray(value) ? value.join(', ') : value;
  return text === undefined || text.trim() === '' ? undefined : text.trim();
}

function unauthorized(
  version: ApiVersion,
  code: 'MISSING_CREDENTIAL' | 'INVALID_CREDENTIAL' | 'WRONG_CREDENTIAL_HEADER',
  field: string,
  message: string,
): ApiError {
  const challenge =
    version === 'v3'
      ? `Bearer realm="${REALM}"${code === 'MISSING_CREDENTIAL' ? '' : ', error="invalid_token"'}`
      : `Api-key realm="${REALM}"`;
  return new ApiError(401, code, message, { field, headers: { 'www-authenticate': challenge } });
}

/** The tenant the request's credential belongs to; throws a 401 {@link ApiError} otherwise. */
export function authenticate(
  version: ApiVersion,
  headers: IncomingHttpHeaders,
  tenants: TenantLookup,
): ResolvedTenant {
  return version === 'v3' ? authenticateV3(headers, tenants) : authenticateV2(headers, tenants);
}

function authenticateV3(headers: IncomingHttpHeaders, tenants: TenantLookup): ResolvedTenant {
  const authorization = header(headers, 'authorization');
  if (authorization === undefined) {
    if (header(headers, 'api-key') !== undefined) {
      throw unauthorized(
        'v3',
        'WRONG_CREDENTIAL_HEADER',
        'Api-key',
        'v3 takes its token in the Authorization header ("Authorization: Bearer <token>"); the Api-key header is for v2',
      );
    }
    throw unauthorized(
      'v3',
      'MISSING_CREDENTIAL',
      'Authorization',
      'missing credential: v3 takes "Authorization: Bearer <token>"',
    );
  }
  const match = /^Bearer +(\S+)$/i.exec(authorization);
  const token = match?.[1];
  if (token === undefined) {
    throw unauthorized(
      'v3',
      'INVALID_CREDENTIAL',
      'Authorization',
      'the Authorization header must be "Bearer <token>"',
    );
  }
  if (versionOfSecret(token) === 'v2') {
    throw unauthorized(
      'v3',
      'WRONG_CREDENTIAL_HEADER',
      'Authorization',
      `that is a v2 API key: v3 takes a v3 token (${CREDENTIAL_PREFIX.v3}…) as "Authorization: Bearer <token>"; v2 keys go to /api/v2 in the Api-key header`,
    );
  }
  const tenant = tenants.authenticate('v3', token);
  if (!tenant) {
    throw unauthorized('v3', 'INVALID_CREDENTIAL', 'Authorization', 'the bearer token is unknown or revoked');
  }
  return tenant;
}

function authenticateV2(headers: IncomingHttpHeaders, tenants: TenantLookup): ResolvedTenant {
  const key = header(headers, 'api-key');
  if (key === undefined) {
    if (header(headers, 'authorization') !== undefined) {
      throw unauthorized(
        'v2',
        'WRONG_CREDENTIAL_HEADER',
        'Authorization',
        'v2 takes its API key in the Api-key header ("Api-key: <key>"); "Authorization: Bearer" is for v3',
      );
    }
    throw unauthorized(
      'v2',
      'MISSING_CREDENTIAL',
      'Api-key',
      'missing credential: v2 takes "Api-key: <key>"',
    );
  }
  if (versionOfSecret(key) === 'v3') {
    throw unauthorized(
      'v2',
      'WRONG_CREDENTIAL_HEADER',
      'Api-key',
      `that is a v3 token: v2 takes a v2 API key (${CREDENTIAL_PREFIX.v2}…) in the Api-key header; v3 tokens go to /api/v3 as "Authorization: Bearer <token>"`,
    );
  }
  const tenant = tenants.authenticate('v2', key);
  if (!tenant) throw unauthorized('v2', 'INVALID_CREDENTIAL', 'Api-key', 'the API key is unknown or revoked');
  return tenant;
}
