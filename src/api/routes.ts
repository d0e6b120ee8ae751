/**
 * The two enrichment routes, POST /api/v3/transaction/enrich and POST /api/v2/transaction/enrich.
 * Same pipeline, version-specific credentials, content-type rule and envelopes. Before the body is
 * read (onRequest), in this order: credential (401), brand store (503), rate limit (429),
 * response-type (400), Content-Type (415), declared Content-Length (413). Then the body: JSON (400),
 * batch size (413), every item (400), and the engine.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from './auth.js';
import type { ApiVersion } from './credentials.js';
import { enrichV2, enrichV3 } from './enrich.js';
import { ApiError } from './errors.js';
import type { ApiMetrics } from './metrics.js';
import type { TokenBucketLimiter } from './rate-limit.js';
import {
  ByteLimit,
  checkContentLength,
  checkContentType,
  checkResponseType,
  parseJsonBody,
} from './request-checks.js';
import type { SnapshotProvider } from './snapshot-provider.js';
import type { ResolvedTenant, TenantLookup } from './tenant-directory.js';

export const ENRICH_ROUTES: Readonly<Record<ApiVersion, string>> = {
  v3: '/api/v3/transaction/enrich',
  v2: '/api/v2/transaction/enrich',
};

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated tenant of an enrichment request. */
    apiTenant: ResolvedTenant | null;
    /** Number of transactions in the request body (0 until the body is parsed). */
    apiItems: number;
  }
  interface FastifyContextConfig {
    apiVersion?: ApiVersion;
  }
}

export interface EnrichRouteDeps {
  readonly tenants: TenantLookup;
  readonly snapshots: SnapshotProvider;
  readonly limiter: TokenBucketLimiter;
  readonly metrics: ApiMetrics;
  /** Seconds a 503 response asks the client to wait. */
  readonly unavailableRetryAfterSeconds?: number;
}

function tenantOf(request: FastifyRequest): ResolvedTenant {
  const tenant = request.apiTenant;
  if (!tenant) throw new Error('enrichment route reached without an authenticated tenant');
  return tenant;
}

/** Registers both enrichment routes, in an encapsulated scope with their own body parser. */
export async function enrichRoutes(app: FastifyInstance, deps: EnrichRouteDeps): Promise<void> {
  // Every body of these routes is JSON; which Content-Type values are allowed is decided in
  // onRequest (checkContentType), so the parser accepts all of them, a missing one included.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  for (const version of ['v3', 'v2'] as const) {
    const checks = [
      async (request: FastifyRequest) => {
        request.apiTenant = authenticate(version, request.headers, deps.tenants);
      },
      async (request: FastifyRequest) => {
        if (deps.snapshots.current() === null) throw unavailable(deps);
        void request;
      },
      async (request: FastifyRequest) => {
        const tenant = tenantOf(request);
        const decision = deps.limiter.take(tenant.id, tenant.limits.ratePerMinute);
        if (!decision.allowed) {
          throw new ApiError(
            429,
            'RATE_LIMITED',
            `rate limit of ${tenant.limits.ratePerMinute} requests per minute reached; retry after ${decision.retryAfterSeconds} s`,
            {
              field: version === 'v3' ? 'Authorization' : 'Api-key',
              headers: { 'retry-after': String(decision.retryAfterSeconds) },
            },
          );
        }
      },
      async (request: FastifyRequest) => {
        checkResponseType(request.query);
        checkContentType(version, request.headers['content-type']);
        checkContentLength(request.headers['content-length'], tenantOf(request).limits.maxBodyBytes);
      },
    ];

    app.post(
      ENRICH_ROUTES[version],
      {
        config: { apiVersion: version },
        onRequest: checks,
        preParsing: async (request: FastifyRequest, _reply: FastifyReply, payload) => {
          // A declared length was checked in onRequest; a body without one is counted as it arrives.
          if (request.headers['content-length'] !== undefined) return payload;
          const limited = new ByteLimit(tenantOf(request).limits.maxBodyBytes);
          // pipe() does not forward a client abort; without this the parser would wait for the timeout.
          payload.once('error', (error) => limited.destroy(error));
          return payload.pipe(limited);
        },
      },
      async (request: FastifyRequest) => {
        const tenant = tenantOf(request);
        const snapshot = deps.snapshots.current();
        if (snapshot === null) throw unavailable(deps);
        const body: unknown = request.body;
        const list =
          body !== null && typeof body === 'object'
            ? (body as { transactions?: unknown }).transactions
            : undefined;
        request.apiItems = Array.isArray(list) ? list.length : 0;
        const response =
          version === 'v3' ? enrichV3(body, tenant, snapshot) : enrichV2(body, tenant, snapshot);
        deps.metrics.transactions.inc({ version, tenant: tenant.id }, request.apiItems);
        return response;
      },
    );
  }
}

/** The client is told only that the store is down; the cause (hosts, errors) is in /readyz and the log. */
function unavailable(deps: EnrichRouteDeps): ApiError {
  return new ApiError(503, 'STORE_UNAVAILABLE', 'the brand store is unavailable; retry later', {
    field: '',
    headers: { 'retry-after': String(deps.unavailableRetryAfterSeconds ?? 5) },
  });
}
