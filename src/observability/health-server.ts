/**
 * The worker's operations port: `/metrics` (Prometheus text), `/healthz` (the process is alive) and
 * `/readyz` (it is consuming and may receive traffic). Plain node:http: three routes need no framework.
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
  close(): Promise<void>;
}

export async function startHealthServer(
  port: number,
  registry: Registry,
  readiness: Readiness,
  host = '0.0.0.0',
): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
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
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
