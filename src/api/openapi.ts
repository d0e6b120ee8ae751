/**
 * The OpenAPI 3.1 document of the API, generated from the zod schemas in schemas.ts (JSON Schema
 * 2020-12, which OpenAPI 3.1 uses as is). Served at /openapi.json and rendered at /docs.
 */
import { z } from 'zod';
import type { ApiVersion } from './credentials.js';
import { API_ERROR_CODES } from './errors.js';
import {
  enrichRequestSchema,
  errorItemSchema,
  transactionSchema,
  v2ErrorSchema,
  v2RecordSchema,
  v2SuccessSchema,
  v3ErrorSchema,
  v3RecordSchema,
  v3SuccessSchema,
} from './schemas.js';

export type OpenApiDocument = Record<string, unknown> & { openapi: string; paths: Record<string, unknown> };

const EXAMPLE_TRANSACTION = {
  raw_description: 'STARBUCKS DUBAI MALL',
  amount: -25.5,
  transaction_id: 'txn-0001',
  customer_id: 'cust-7f3a',
  account_id: 'acc-19',
  card_id: 'card-88',
  merchant_name: 'STARBUCKS',
  merchant_id: 'm-5521',
  mcc: '5814',
  direction: 'DEBIT',
  is_transfer: false,
  iso_currency_cd: 'AED',
  occurred_at: '2025-03-14T08:30:00Z',
  location: { iso_country_cd: 'AE', city: 'DUBAI' },
};

/** Request and response schemas as JSON Schema, each under #/components/schemas/<name>. */
function componentSchemas(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  const named: [string, z.ZodType][] = [
    ['Transaction', transactionSchema],
    ['EnrichRequest', enrichRequestSchema],
    ['V3Record', v3RecordSchema],
    ['V3Response', v3SuccessSchema],
    ['V2Record', v2RecordSchema],
    ['V2Response', v2SuccessSchema],
    ['ErrorItem', errorItemSchema],
    ['V3Error', v3ErrorSchema],
    ['V2Error', v2ErrorSchema],
  ];
  for (const [id, schema] of named) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  });
  const out: Record<string, unknown> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    // $id and $schema belong to stand-alone documents; OpenAPI names components by their key.
    const { $id: _id, $schema: _schema, ...rest } = schema as Record<string, unknown>;
    out[id] = rest;
  }
  return out;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function errorResponse(version: ApiVersion, description: string, headers?: Record<string, unknown>) {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: { 'application/json': { schema: ref(version === 'v3' ? 'V3Error' : 'V2Error') } },
  };
}

function enrichOperation(version: ApiVersion) {
  const v3 = version === 'v3';
  return {
    post: {
      operationId: `enrichTransactions${version.toUpperCase()}`,
      summary: `Enrich a batch of transactions (${version})`,
      description: v3
        ? 'Returns one v3 enriched record per request item, in request order. Authenticate with "Authorization: Bearer <token>".'
        : 'Returns one v2 enriched record per request item, in request order. Authenticate with "Api-key: <key>"; "Content-Type: application/json" is required.',
      tags: [version],
      security: [v3 ? { bearerToken: [] } : { apiKey: [] }],
      parameters: [
        {
          name: 'response-type',
          in: 'query',
          required: true,
          description: 'The only supported value is consumer.',
          schema: { type: 'string', enum: ['consumer'] },
        },
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: ref('EnrichRequest'),
            example: { transactions: [EXAMPLE_TRANSACTION] },
          },
        },
      },
      responses: {
        '200': {
          description: 'Enriched records, one per request item, in request order.',
          content: { 'application/json': { schema: ref(v3 ? 'V3Response' : 'V2Response') } },
        },
        '400': errorResponse(
          version,
          'Malformed JSON, a missing or invalid field (each listed with its item index and field path), an empty or missing transactions array, or a response-type other than consumer.',
        ),
        '401': errorResponse(
          version,
          v3
            ? 'Missing, malformed, unknown or revoked bearer token, or an Api-key header (v2) sent instead.'
            : 'Missing, unknown or revoked API key, or an Authorization bearer token (v3) sent instead.',
          { 'WWW-Authenticate': { schema: { type: 'string' } } },
        ),
        '413': errorResponse(version, "The body or the number of transactions is over the tenant's limit."),
        '415': errorResponse(
          version,
          v3
            ? 'A Content-Type other than application/json (a missing Content-Type is read as JSON).'
            : 'A missing Content-Type or one other than application/json.',
        ),
        '429': errorResponse(version, "The tenant's rate limit is used up.", {
          'Retry-After': {
            description: 'Seconds until a request is allowed again.',
            schema: { type: 'integer' },
          },
        }),
        '503': errorResponse(version, 'The brand store is unavailable; the service is not ready.', {
          'Retry-After': { schema: { type: 'integer' } },
        }),
      },
    },
  };
}

function plainGet(summary: string, contentType: string, description: string) {
  return {
    get: {
      summary,
      tags: ['operations'],
      responses: { '200': { description, content: { [contentType]: { schema: { type: 'string' } } } } },
    },
  };
}

/** GET /logos/{brand_id}: where v3's brand_logo points (src/api/logos.ts). */
function logoOperation() {
  return {
    get: {
      summary: 'A brand logo',
      description:
        "The image v3's brand_logo points at: the logo folder's file for the brand (LOGO_DIR, an operator's image or one mirrored from Wikimedia Commons with its licence), else a generated SVG of the brand's initials on a colour derived from its id. No credential: logos name only catalog brands.",
      tags: ['logos'],
      parameters: [
        { name: 'brand_id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
        {
          name: 'v',
          in: 'query',
          required: false,
          schema: { type: 'string' },
          description: 'Version of the brand logo (set in brand_logo; changes when the logo does).',
        },
        {
          name: 'lang',
          in: 'query',
          required: false,
          schema: { type: 'string', enum: ['ar', 'en'] },
          description:
            'ar: Arabic initials on a generated logo (brand_logo carries it for tenants with arabic_enabled).',
        },
      ],
      responses: {
        '200': {
          description: 'The logo.',
          content: {
            'image/svg+xml': { schema: { type: 'string' } },
            'image/png': { schema: { type: 'string', format: 'binary' } },
            'image/jpeg': { schema: { type: 'string', format: 'binary' } },
            'image/webp': { schema: { type: 'string', format: 'binary' } },
          },
        },
        '400': { description: 'INVALID_BRAND_ID or INVALID_LANG.' },
        '404': { description: 'BRAND_NOT_FOUND.' },
        '503': { description: 'STORE_UNAVAILABLE.' },
      },
    },
  };
}

/** The whole OpenAPI 3.1 document. */
export function buildOpenApiDocument(): OpenApiDocument {
  const codes = Object.entries(API_ERROR_CODES)
    .map(([code, meaning]) => `- \`${code}\`: ${meaning}`)
    .join('\n');
  return {
    openapi: '3.1.0',
    info: {
      title: 'tx-enrich transaction enrichment API',
      version: '3.0.0',
      description:
        'Enriches raw card and account transactions with brand, logo, website, category and sub-category (English and Arabic) and a recurring flag. Two versions of one operation: v3 (Bearer token, envelope {success, message, data}) and v2 (Api-key header, envelope {transactions}).\n\nError codes (in each error item):\n' +
        codes,
    },
    tags: [
      { name: 'v3', description: 'Enrichment API v3' },
      { name: 'v2', description: 'Enrichment API v2' },
      { name: 'logos', description: 'Brand logos (brand_logo)' },
      { name: 'operations', description: 'Health and readiness (metrics are on the operations port)' },
    ],
    paths: {
      '/api/v3/transaction/enrich': enrichOperation('v3'),
      '/api/v2/transaction/enrich': enrichOperation('v2'),
      '/logos/{brand_id}': logoOperation(),
      '/healthz': plainGet('Liveness', 'application/json', 'The process is alive.'),
      '/readyz': plainGet('Readiness', 'application/json', 'Ready (503 with the reason when not).'),
    },
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'v3: "Authorization: Bearer txe_v3_…" (issued by tx-enrich tenants add / rotate-key).',
        },
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'Api-key',
          description: 'v2: "Api-key: txe_v2_…" (issued by tx-enrich tenants add / rotate-key).',
        },
      },
    },
  };
}
