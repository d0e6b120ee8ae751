// Guarantee: `tx-enrich api` never serves /metrics (which names every tenant and its volumes) on the
// API port: there it is a 404 in the error envelope, while /healthz and /readyz stay for load
// balancers; the metrics are on the operations port, and both ports bind 127.0.0.1 unless an address
// is configured.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor, withTimeout } from '../support/index.js';
import { starbucks } from './api-harness.js';

const ROOT = join(import.meta.dirname, '..', '..');
const MAIN = join(ROOT, 'src', 'cli', 'main.ts');

interface Listening {
  readonly port: number;
  readonly host: string;
  readonly ops_port: number;
  readonly ops_host: string;
}

describe('API metrics on the operations port only', () => {
  let dir: string;
  let child: ChildProcess;
  let listening: Listening;
  let url: string;
  let opsUrl: string;
  let v3: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tx-enrich-api-m6-'));
    const file = join(dir, 'tenants.json');
    const added = spawnSync(
      process.execPath,
      ['--import', 'tsx', MAIN, 'tenants', 'add', 'acme', '--json', '--file', file],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(added.status, added.stderr).toBe(0);
    v3 = (JSON.parse(added.stdout) as { v3_token: string }).v3_token;
    // No address given anywhere: the defaults decide where it binds.
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info' };
    for (const name of ['API_HOST', 'HEALTH_HOST', 'API_PORT', 'API_OPS_PORT']) delete env[name];
    child = spawn(
      process.execPath,
      ['--import', 'tsx', MAIN, 'api', '--port', '0', '--ops-port', '0', '--tenants-file', file],
      { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    listening = await withTimeout(
      new Promise<Listening>((resolve) => {
        createInterface({ input: child.stdout! }).on('line', (line) => {
          let entry: Partial<Listening> & { msg?: string } = {};
          try {
            entry = JSON.parse(line) as typeof entry;
          } catch {
            // not a log line
          }
          if (entry.msg === 'API listening') resolve(entry as Listening);
        });
      }),
      60_000,
      'the "API listening" log line of tx-enrich api',
    );
    url = `http://127.0.0.1:${listening.port}`;
    opsUrl = `http://127.0.0.1:${listening.ops_port}`;
    await waitFor(async () => (await fetch(`${url}/readyz`)).status === 200, {
      timeoutMs: 120_000,
      description: 'tx-enrich api ready',
    });
  }, 180_000);

  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('binds both ports to 127.0.0.1 by default, on two different ports', () => {
    expect(listening.host).toBe('127.0.0.1');
    expect(listening.ops_host).toBe('127.0.0.1');
    expect(listening.ops_port).not.toBe(listening.port);
  });

  it('answers /metrics on the API port with 404 in the error envelope, for GET and HEAD', async () => {
    // A request first, so that a tenant label would exist if the metrics leaked.
    const enriched = await fetch(`${url}/api/v3/transaction/enrich?response-type=consumer`, {
      method: 'POST',
      headers: { authorization: `Bearer ${v3}`, 'content-type': 'application/json' },
      body: JSON.stringify({ transactions: [starbucks()] }),
    });
    expect(enriched.status).toBe(200);
    const response = await fetch(`${url}/metrics`);
    expect(response.status).toBe(404);
    const body = await response.text();
    expect(JSON.parse(body)).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect(body).not.toContain('acme');
    expect(body).not.toContain('txenrich_api_');
    expect((await fetch(`${url}/metrics`, { method: 'HEAD' })).status).toBe(404);
  });

  it('keeps /healthz and /readyz on the API port for load balancers', async () => {
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ status: 'ready' });
  });

  it('serves the metrics, with tenant labels, and health on the operations port', async () => {
    const response = await fetch(`${opsUrl}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('txenrich_api_transactions_enriched_total{version="v3",tenant="acme"} 1');
    expect(text).toContain('txenrich_api_process_cpu_seconds_total');
    expect(await (await fetch(`${opsUrl}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${opsUrl}/readyz`)).json()).toEqual({ status: 'ready' });
  });

  it('does not list /metrics in the OpenAPI document of the API port', async () => {
    const doc = (await (await fetch(`${url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/healthz', '/readyz']));
  });

  it('stops both ports on SIGTERM with status 0', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await withTimeout(exited, 30_000, 'tx-enrich api to exit after SIGTERM')).toBe(0);
    await expect(fetch(`${opsUrl}/healthz`)).rejects.toThrow();
  });
});
