/**
 * The API's Prometheus metrics, in a registry of their own (one per server, so tests can run several):
 * requests by route, method and status, request duration by route, transactions enriched by version
 * and tenant, plus the process metrics prom-client collects.
 */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface ApiMetrics {
  readonly registry: Registry;
  readonly requests: Counter<'route' | 'method' | 'status'>;
  readonly duration: Histogram<'route' | 'method'>;
  readonly transactions: Counter<'version' | 'tenant'>;
}

export function createApiMetrics(options: { defaultMetrics?: boolean } = {}): ApiMetrics {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'txenrich_api_' });
  return {
    registry,
    requests: new Counter({
      name: 'txenrich_api_requests_total',
      help: 'HTTP requests answered, by route (the route pattern; "unmatched" for 404s), method and status.',
      labelNames: ['route', 'method', 'status'],
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'txenrich_api_request_duration_seconds',
      help: 'Time from receiving a request to sending its response, by route and method.',
      labelNames: ['route', 'method'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    transactions: new Counter({
      name: 'txenrich_api_transactions_enriched_total',
      help: 'Transactions enriched and returned with status 200, by API version and tenant.',
      labelNames: ['version', 'tenant'],
      registers: [registry],
    }),
  };
}
