// Guarantee: `tx-enrich api`, started as a process, serves the tenants that `tx-enrich tenants add`
// wrote to its tenants file, and picks up a rotated and revoked credential from that file without a
// restart; SIGTERM stops it with exit status 0.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/index.js';
import { starbucks } from './api-harness.js';

const ROOT = join(import.meta.dirname, '..', '..');
const MAIN = join(ROOT, 'src', 'cli', 'main.ts');

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('tx-enrich api as a process', () => {
  let dir: string;
  let file: string;
  let child: ChildProcess;
  let url: string;
  let v2: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tx-enrich-api-cli-'));
    file = join(dir, 'tenants.json');
    const added = cli('tenants', 'add', 'acme', '--arabic', '--json', '--file', file);
    expect(added.status, added.stderr).toBe(0);
    v2 = (JSON.parse(added.stdout) as { v2_api_key: string }).v2_api_key;
    child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        MAIN,
        'api',
        '--port',
        '0',
        '--host',
        '127.0.0.1',
        '--ops-port',
        '0',
        '--tenants-file',
        file,
      ],
      {
        cwd: ROOT,
        env: { ...process.env, LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('tx-enrich api did not start in 60 s')), 60_000);
      createInterface({ input: child.stdout! }).on('line', (line) => {
        let entry: { msg?: string; port?: number } = {};
        try {
          entry = JSON.parse(line) as typeof entry;
        } catch {
          // not a log line
        }
        if (entry.msg === 'API listening' && entry.port !== undefined) {
          clearTimeout(timer);
          resolve(entry.port);
        }
      });
    });
    url = `http://127.0.0.1:${port}`;
    // With DATABASE_URL set (the test stack sets it) the API loads its snapshot from the brand store
    // after it starts listening, answering 503 meanwhile: wait until it reports ready.
    await waitFor(async () => (await fetch(`${url}/readyz`)).status === 200, {
      timeoutMs: 120_000,
      description: 'tx-enrich api ready',
    });
  }, 180_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  });

  const enrichV2 = (key: string) =>
    fetch(`${url}/api/v2/transaction/enrich?response-type=consumer`, {
      method: 'POST',
      headers: { 'api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ transactions: [starbucks()] }),
    });

  it('serves a tenant added with the tenants command', async () => {
    const response = await enrichV2(v2);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { transactions: Record<string, unknown>[] };
    expect(body.transactions[0]).toHaveProperty('brand_name_ar');
  });

  it('reloads the tenants file: a rotated key works and the revoked one stops working', async () => {
    const rotated = cli('tenants', 'rotate-key', 'acme', '--v2', '--revoke-old', '--json', '--file', file);
    expect(rotated.status, rotated.stderr).toBe(0);
    const fresh = (JSON.parse(rotated.stdout) as { secret: string }).secret;
    await waitFor(async () => (await enrichV2(fresh)).status === 200, {
      timeoutMs: 15_000,
      intervalMs: 250,
      description: 'the rotated key to be accepted',
    });
    expect((await enrichV2(v2)).status).toBe(401);
  });

  it('stops with status 0 on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
