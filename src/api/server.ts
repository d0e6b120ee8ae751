/**
 * Builds the HTTP API (fastify): the v3 and v2 enrichment routes, /logos, /openapi.json and /docs,
 * and /healthz and /readyz for load balancers. Not /metrics: it names every tenant, so it is served
 * on the operations port (API_OPS_PORT, src/observability/health-server.ts), never here. Takes its
 * collaborators as parameters — tenants, snapshot provider, logger, metrics — so tests can run it
 * with a temporary tenants file and an unavailable brand store. Call `listen()` on the result.
 */
import { randomUUID } from 'node:crypto';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Logger } from '../observability/logger.js';
import type { ApiVersion } from './credentials.js';
import { handleClientError } from './client-errors.js';
import { ApiError, errorBody } from './errors.js';
import { createApiMetrics, type ApiMetrics } from './metrics.js';
import { buildOpenApiDocument } from './openapi.js';
import { TokenBucketLimiter } from './rate-limit.js';
import { logoRoutes } from './logos.js';
import { ENRICH_ROUTES, enrichRoutes } from './routes.js';
import { addSecurityHeaders, DOCS_CSP } from './security-headers.js';
import type { SnapshotProvider } from './snapshot-provider.js';
import type { TenantLookup } from './tenant-directory.js';
import { LIMIT_CEILINGS } from './tenants.js';

export interface ApiServerOptions {
  readonly tenants: TenantLookup;
  readonly snapshots: SnapshotProvider;
  readonly logger: Logger;
  /** Defaults to a fresh registry with the process metrics; serve its registry on the ops port. */
  readonly metrics?: ApiMetrics;
  /** Defaults to a limiter on the monotonic clock. */
  readonly limiter?: TokenBucketLimiter;
  /** Longest time to receive a whole request, in ms (default 60 s; guards against slow clients). */
  readonly requestTimeoutMs?: number;
  /** The logo folder (LOGO_DIR) GET /logos/{brand_id} serves images from. */
  readonly logoDir?: string;
}

const ENRICH_PATHS = new Set(Object.values(ENRICH_ROUTES));

/** The envelope version of a request: v3 under /api/v3, else v2's (also used for non-API routes). */
function versionOf(request: FastifyRequest): ApiVersion {
  return request.routeOptions.config.apiVersion ?? (request.url.startsWith('/api/v3/') ? 'v3' : 'v2');
}

/** Any error → an ApiError with a status, a code and a message fit for the client. */
function toApiError(error: FastifyError | ApiError | Error, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  const code = (error as FastifyError).code;
  const status = (error as FastifyError).statusCode;
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(
        413,
        'BODY_TOO_LARGE',
        `the body is larger than the limit of ${LIMIT_CEILINGS.max_body_bytes} bytes`,
        {
          field: 'body',
        },
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'unsupported Content-Type; send the body as JSON with "Content-Type: application/json"',
        {
          field: 'Content-Type',
        },
      );
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(400, 'INVALID_BODY', 'the body length does not match the Content-Length header', {
        field: 'Content-Length',
      });
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ApiError(status, 'INVALID_BODY', error.message, { field: 'body' });
  }
  return new ApiError(500, 'INTERNAL_ERROR', `internal error (request id ${request.id}); see the server log`);
}

export async function buildApiServer(options: ApiServerOptions): Promise<FastifyInstance> {
  const metrics = options.metrics ?? createApiMetrics();
  const limiter = options.limiter ?? new TokenBucketLimiter();
  const app = Fastify({
    loggerInstance: options.logger,
    // One line per request is logged in onResponse, without URLs, bodies or headers.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => randomUUID(),
    bodyLimit: LIMIT_CEILINGS.max_body_bytes,
    requestTimeout: options.requestTimeoutMs ?? 60_000,
    return503OnClosing: true,
    clientErrorHandler: (error, socket) => handleClientError(options.logger, error, socket),
  }) as unknown as FastifyInstance;

  app.decorateRequest('apiTenant', null);
  app.decorateRequest('apiItems', 0);

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    addSecurityHeaders(reply);
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const method = request.method;
    metrics.requests.inc({ route, method, status: String(reply.statusCode) });
    metrics.duration.observe({ route, method }, reply.elapsedTime / 1000);
    const line = {
      route,
      method,
      status: reply.statusCode,
      tenant: request.apiTenant?.id ?? null,
      items: request.apiItems,
      duration_ms: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (ENRICH_PATHS.has(route)) request.log.info(line, 'request');
    else request.log.debug(line, 'request');
  });

  app.setErrorHandler((error: FastifyError | ApiError, request, reply: FastifyReply) => {
    const apiError = toApiError(error, request);
    if (apiError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.debug({ code: apiError.code, status: apiError.statusCode }, 'request rejected');
    void reply
      .status(apiError.statusCode)
      .headers(apiError.headers)
      .send(errorBody(versionOf(request), apiError));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const error = ENRICH_PATHS.has(path)
      ? new ApiError(405, 'METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${path}; use POST`, {
          field: '',
          headers: { allow: 'POST' },
        })
      : new ApiError(
          404,
          'NOT_FOUND',
          `no route ${request.method} ${path.slice(0, 200)}; see /openapi.json`,
          { field: '' },
        );
    void reply
      .status(error.statusCode)
      .headers(error.headers)
      .send(errorBody(versionOf(request), error));
  });

  await app.register(enrichRoutes, {
    tenants: options.tenants,
    snapshots: options.snapshots,
    limiter,
    metrics,
  });

  await app.register(logoRoutes, { snapshots: options.snapshots, logoDir: options.logoDir ?? 'logos' });

  const openapi = buildOpenApiDocument();
  app.get('/openapi.json', async () => openapi);
  await app.register(fastifySwagger, { mode: 'static', specification: { document: openapi as never } });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    // No validator badge: it would send the document to an outside service.
    uiConfig: { deepLinking: true, validatorUrl: null },
    staticCSP: DOCS_CSP,
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const reason = options.snapshots.readiness();
    if (reason === null) return { status: 'ready' };
    return reply.status(503).send({ status: 'not ready', reason });
  });

  return app;
}
