/**
 * Shared by the test/integration/api-*.test.ts files: starts the HTTP API on a free loopback port
 * with a temporary tenants file written and read through src/api/tenants.ts, and builds valid
 * transactions from the sample generator.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { TransactionInput } from '../../src/contract/transaction.js';
import { loadReferenceData } from '../../src/data/load.js';
import { buildSnapshot, type Snapshot } from '../../src/engine/snapshot.js';
import { createApiMetrics, type ApiMetrics } from '../../src/api/metrics.js';
import { TokenBucketLimiter } from '../../src/api/rate-limit.js';
import { buildApiServer } from '../../src/api/server.js';
import { staticSnapshotProvider, type SnapshotProvider } from '../../src/api/snapshot-provider.js';
import { TenantDirectory } from '../../src/api/tenant-directory.js';
import {
  addTenant,
  emptyTenantsFile,
  readTenantsFile,
  writeTenantsFile,
  type NewSecrets,
  type TenantOptions,
} from '../../src/api/tenants.js';
import { generateSamples } from '../../src/samples/generate.js';
import { startHealthServer } from '../../src/observability/health-server.js';
import { createLogger, type Logger } from '../../src/observability/logger.js';

const referenceData = loadReferenceData();
let snapshot: Snapshot | undefined;

/** The catalog snapshot, built once per test file. */
export function testSnapshot(): Snapshot {
  snapshot ??= buildSnapshot(referenceData);
  return snapshot;
}

/** `count` valid sample transactions with distinct transaction ids (`<prefix>-<i>`). */
export function sampleTransactions(count: number, seed = 11, prefix = 'txn'): TransactionInput[] {
  const out: TransactionInput[] = [];
  for (const sample of generateSamples(referenceData, count * 2, { seed })) {
    if (!sample.valid) continue;
    out.push({ ...sample.value, transaction_id: `${prefix}-${out.length}`, ref_id: null });
    if (out.length === count) break;
  }
  return out;
}

/** One transaction of a catalog brand (Starbucks) that has a logo, an Arabic name and a website. */
export function starbucks(id = 'sb-1', extra: Partial<TransactionInput> = {}): TransactionInput {
  return {
    raw_description: 'STARBUCKS DUBAI MALL DUBAI AE',
    amount: -25.5,
    transaction_id: id,
    customer_id: 'cust-1',
    account_id: 'acc-1',
    card_id: 'card-1',
    merchant_name: 'STARBUCKS',
    merchant_id: 'm-1',
    mcc: '5814',
    direction: 'DEBIT',
    is_transfer: false,
    iso_currency_cd: 'AED',
    occurred_at: '2025-06-01T10:00:00Z',
    location: { iso_country_cd: 'AE', city: 'DUBAI' },
    ...extra,
  };
}

export interface TestApi {
  readonly url: string;
  /** The operations port (/healthz, /readyz, /metrics), as `tx-enrich api` serves it. */
  readonly opsUrl: string;
  readonly secrets: Readonly<Record<string, NewSecrets>>;
  readonly metrics: ApiMetrics;
  readonly tenantsFile: string;
  close(): Promise<void>;
  /** POST to an enrichment route; `headers` replace the defaults when given. */
  enrich(
    version: 'v2' | 'v3',
    body: unknown,
    options?: { tenant?: string; headers?: Record<string, string>; query?: string; raw?: boolean },
  ): Promise<{ status: number; headers: Headers; json: unknown }>;
}

export interface StartOptions {
  readonly tenants: Readonly<Record<string, TenantOptions>>;
  readonly snapshots?: SnapshotProvider;
  readonly defaultLogoBaseUrl?: string;
  readonly now?: () => number;
  /** Defaults to a silent logger (TEST_API_LOG_LEVEL=info shows the request lines). */
  readonly logger?: Logger;
  /** The logo folder GET /logos/{brand_id} serves (default: an empty temporary folder). */
  readonly logoDir?: string;
}

export async function startApi(options: StartOptions): Promise<TestApi> {
  const dir = mkdtempSync(join(tmpdir(), 'tx-enrich-api-'));
  const tenantsFile = join(dir, 'tenants.json');
  let file = emptyTenantsFile();
  const secrets: Record<string, NewSecrets> = {};
  for (const [id, tenantOptions] of Object.entries(options.tenants)) {
    const added = addTenant(file, id, tenantOptions);
    file = added.file;
    secrets[id] = added.secrets;
  }
  writeTenantsFile(tenantsFile, file);
  const tenants = new TenantDirectory(readTenantsFile(tenantsFile).file, {
    defaultLogoBaseUrl: options.defaultLogoBaseUrl,
  });
  const metrics = createApiMetrics({ defaultMetrics: false });
  const snapshots = options.snapshots ?? staticSnapshotProvider(testSnapshot());
  const app: FastifyInstance = await buildApiServer({
    tenants,
    snapshots,
    logger: options.logger ?? createLogger(process.env.TEST_API_LOG_LEVEL ?? 'silent'),
    metrics,
    logoDir: options.logoDir ?? join(dir, 'logos'),
    ...(options.now ? { limiter: new TokenBucketLimiter(options.now) } : {}),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const ops = await startHealthServer(0, metrics.registry, () => snapshots.readiness(), '127.0.0.1');
  const opsUrl = `http://127.0.0.1:${ops.port}`;
  const firstTenant = Object.keys(options.tenants)[0] ?? '';

  return {
    url,
    opsUrl,
    secrets,
    metrics,
    tenantsFile,
    async close() {
      await app.close();
      await ops.close();
      rmSync(dir, { recursive: true, force: true });
    },
    async enrich(version, body, requestOptions = {}) {
      const tenant = requestOptions.tenant ?? firstTenant;
      const secret = secrets[tenant];
      const defaults: Record<string, string> =
        version === 'v3'
          ? { authorization: `Bearer ${secret?.v3 ?? ''}`, 'content-type': 'application/json' }
          : { 'api-key': secret?.v2 ?? '', 'content-type': 'application/json' };
      const response = await fetch(
        `${url}/api/${version}/transaction/enrich${requestOptions.query ?? '?response-type=consumer'}`,
        {
          method: 'POST',
          headers: requestOptions.headers ?? defaults,
          body: requestOptions.raw ? (body as string) : JSON.stringify(body),
        },
      );
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = text;
      }
      return { status: response.status, headers: response.headers, json };
    },
  };
}
