/**
 * `npm run bench:api`: HTTP throughput and latency of POST /api/v3/transaction/enrich with batches of
 * 100 sample transactions. The server runs as a child process (`tx-enrich api` on a free loopback
 * port, with a temporary tenants file), so the load generator (autocannon, in this process) and the
 * server do not share an event loop. A short warm-up, then BENCH_API_SECONDS (default 10) of load
 * from BENCH_API_CONNECTIONS (default 10) connections. Prints JSON (stdout) and a table (stderr).
 * Loopback only; bounded in time; the child is stopped at the end, or killed if it will not stop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { addTenant, emptyTenantsFile, writeTenantsFile } from '../src/api/tenants.js';
import { loadReferenceData } from '../src/data/load.js';
import { generateSamples } from '../src/samples/generate.js';
import type { TransactionInput } from '../src/contract/transaction.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_API_WARMUP_SECONDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_API_CONNECTIONS ?? 10);
const BATCH = 100;
const BODIES = 20;
const START_TIMEOUT_MS = 60_000;

function log(line: string): void {
  process.stderr.write(`[bench:api] ${line}\n`);
}

/** Starts `tx-enrich api` and resolves with its port once it logs "API listening". */
function startServer(tenantsFile: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'src', 'cli', 'main.ts'),
      'api',
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--ops-port',
      '0',
      '--tenants-file',
      tenantsFile,
    ],
    { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the API did not start within ${START_TIMEOUT_MS} ms`));
    }, START_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the API exited with status ${code} before listening`));
    });
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        if (entry.msg === 'API listening' && typeof entry.port === 'number') {
          clearTimeout(timer);
          child.removeAllListeners('exit');
          // Keep draining the server's per-request log lines so its stdout never blocks.
          lines.removeAllListeners('line');
          lines.on('line', () => undefined);
          resolve({ child, port: entry.port });
        }
      } catch {
        // not a log line
      }
    });
  });
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

function bodies(): string[] {
  const data = loadReferenceData();
  const valid: TransactionInput[] = [];
  for (const sample of generateSamples(data, BATCH * BODIES * 2, { seed: 2024 })) {
    if (sample.valid) valid.push(sample.value);
    if (valid.length === BATCH * BODIES) break;
  }
  const out: string[] = [];
  for (let i = 0; i < BODIES; i++)
    out.push(JSON.stringify({ transactions: valid.slice(i * BATCH, (i + 1) * BATCH) }));
  return out;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tx-enrich-bench-api-'));
  const tenantsFile = join(dir, 'tenants.json');
  // A rate limit the benchmark cannot reach, so every request is served.
  const { file, secrets } = addTenant(emptyTenantsFile(), 'bench', {
    logoBaseUrl: 'https://cdn.example.com/logos/',
    limits: { rate_limit_per_minute: 1_000_000 },
  });
  writeTenantsFile(tenantsFile, file);
  const payloads = bodies();
  const { child, port } = await startServer(tenantsFile);
  try {
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100; i++) {
      const ready = await fetch(`${url}/readyz`).catch(() => null);
      if (ready?.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const options = {
      url,
      connections: CONNECTIONS,
      pipelining: 1,
      requests: payloads.map((body) => ({
        method: 'POST' as const,
        path: '/api/v3/transaction/enrich?response-type=consumer',
        headers: { authorization: `Bearer ${secrets.v3}`, 'content-type': 'application/json' },
        body,
      })),
    };
    log(
      `server pid ${child.pid} on ${url}; warm-up ${WARMUP_SECONDS} s, then ${SECONDS} s with ${CONNECTIONS} connections`,
    );
    if (WARMUP_SECONDS > 0) await autocannon({ ...options, duration: WARMUP_SECONDS });
    const result = await autocannon({ ...options, duration: SECONDS });

    const ok = result['2xx'];
    const report = {
      endpoint: 'POST /api/v3/transaction/enrich?response-type=consumer',
      server: 'child process (tx-enrich api), loopback',
      batch_size: BATCH,
      connections: CONNECTIONS,
      seconds: result.duration,
      requests: result.requests.total,
      requests_per_second: round(result.requests.total / result.duration),
      transactions_per_second: Math.round((ok * BATCH) / result.duration),
      latency_ms: {
        p50: result.latency.p50,
        p99: result.latency.p99,
        max: result.latency.max,
        mean: round(result.latency.mean),
      },
      non_2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      request_bytes: Math.round(payloads.reduce((n, b) => n + Buffer.byteLength(b), 0) / payloads.length),
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    const rows: [string, string][] = [
      ['requests/s', String(report.requests_per_second)],
      ['transactions/s', String(report.transactions_per_second)],
      ['latency p50', `${report.latency_ms.p50} ms`],
      ['latency p99', `${report.latency_ms.p99} ms`],
      ['latency max', `${report.latency_ms.max} ms`],
      ['non-2xx', String(report.non_2xx)],
      ['errors / timeouts', `${report.errors} / ${report.timeouts}`],
      [
        'requests',
        `${report.requests} in ${report.seconds} s, ${BATCH} transactions each (~${Math.round(report.request_bytes / 1024)} KiB)`,
      ],
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    process.stderr.write(`\nAPI benchmark (v3, ${CONNECTIONS} connections, server in a child process)\n`);
    for (const [k, v] of rows) process.stderr.write(`  ${k.padEnd(width)}  ${v}\n`);
    if (report.non_2xx > 0 || report.errors > 0) process.exitCode = 1;
  } finally {
    await stopServer(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

main().catch((error: unknown) => {
  log(`failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
