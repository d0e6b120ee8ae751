/**
 * An operations port — the worker's HTTP_PORT and the HTTP API's API_OPS_PORT: `/metrics`
 * (Prometheus text), `/healthz` (the process is alive) and `/readyz` (it may receive traffic). Plain
 * node:http: three routes need no framework. Metrics name tenants and volumes, so this port binds
 * loopback unless HEALTH_HOST says otherwise (docs/decisions.md, "Ports and addresses").
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface Readiness {
  /** null when ready, else the reason it is not. */
  (): string | null;
}

export interface HealthServer {
  readonly port: number;
  /** The address it is bound to. */
  readonly host: string;
  close(): Promise<void>;
}

export async function startHealthServer(
  port: number,
  registry: Registry,
  readiness: Readiness,
  host: string,
): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
    // Answers are live state: no cache may keep them, and no client may guess their type.
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('cache-control', 'no-store');
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { 'content-type': 'application/json', allow: 'GET, HEAD' });
      res.end(JSON.stringify({ error: 'method not allowed' }));
      return;
    }
    if (path === '/healthz' || path === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'ok' }));
      return;
    }
    if (path === '/readyz') {
      const reason = readiness();
      res.writeHead(reason === null ? 200 : 503, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reason === null ? { status: 'ready' } : { status: 'not ready', reason }));
      return;
    }
    if (path === '/metrics') {
      registry.metrics().then(
        (text) => {
          res.writeHead(200, { 'content-type': registry.contentType });
          res.end(text);
        },
        (err: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(String(err));
        },
      );
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'not found', routes: ['/healthz', '/readyz', '/metrics'] }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    port: address.port,
    host: address.address,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
