import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'bin', 'tx-enrich.js');

function run(
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), LANG: 'C.UTF-8', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('tx-enrich logos mirror', () => {
  let dir: string;
  let closedPort: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tx-enrich-logos-cli-'));
    // A port nothing listens on: what an offline machine sees.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('offline: exits 1 with one clear message naming Commons and what to do', async () => {
    const r = await run(['logos', 'mirror', '--only', 'lidl'], {
      LOGO_DIR: dir,
      COMMONS_URL: `http://127.0.0.1:${closedPort}`,
    });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /^tx-enrich logos mirror: cannot reach Wikimedia Commons at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\): 'logos mirror' needs network access/,
    );
  }, 60_000);

  it('rejects an unknown sub-command and a bad --limit', async () => {
    expect((await run(['logos', 'fetch'], { LOGO_DIR: dir })).code).toBe(2);
    const r = await run(['logos', 'mirror', '--limit', 'many'], { LOGO_DIR: dir });
    expect(r.code).toBe(2);
    expect(r.err).toContain('--limit must be a positive integer, got "many"');
  }, 60_000);
});
