// Guarantee: `tx-enrich tenants add | rotate-key | list` print each new secret exactly once (on
// stdout, at creation), keep only digests in a 0600 file, and never print a secret or a digest when
// listing; the issued secrets authenticate through the tenants file.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hashSecret } from '../../../src/api/credentials.js';
import { TenantDirectory } from '../../../src/api/tenant-directory.js';
import { readTenantsFile } from '../../../src/api/tenants.js';
import { runTenantsCommand } from '../../../src/cli/tenants-command.js';
import { captureOutput } from '../../support/capture-output.js';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tenants-cli-'));
  file = join(dir, 'tenants.json');
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

async function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const code = await runTenantsCommand([...args, '--file', file]);
    return { code, stdout, stderr };
  } finally {
    vi.restoreAllMocks();
  }
}

const directory = () => new TenantDirectory(readTenantsFile(file).file);

describe('tx-enrich tenants', () => {
  it('add prints a v3 token and a v2 key once and stores their digests', async () => {
    const { code, stdout, stderr } = await run(
      'add',
      'acme',
      '--arabic',
      '--return-transaction-id',
      '--logo-base-url',
      'https://cdn.example.com/logos/',
      '--rate-limit-per-minute',
      '120',
    );
    expect(code).toBe(0);
    const v3 = /txe_v3_[A-Za-z0-9]{32}/.exec(stdout)?.[0] ?? '';
    const v2 = /txe_v2_[A-Za-z0-9]{32}/.exec(stdout)?.[0] ?? '';
    expect(stdout.split(v3)).toHaveLength(2);
    expect(stdout.split(v2)).toHaveLength(2);
    expect(stderr).toMatch(/cannot be shown again/);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(v3);
    expect(text).toContain(hashSecret(v3));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const tenant = directory().authenticate('v3', v3);
    expect(tenant).toMatchObject({
      id: 'acme',
      arabicEnabled: true,
      returnTransactionId: true,
      logoBaseUrl: 'https://cdn.example.com/logos/',
      limits: { ratePerMinute: 120, maxBatch: 1000 },
    });
    expect(directory().authenticate('v2', v2)?.id).toBe('acme');
  });

  it('add --json prints the secrets as JSON', async () => {
    const { stdout } = await run('add', 'acme', '--json');
    const parsed = JSON.parse(stdout) as { tenant: string; v3_token: string; v2_api_key: string };
    expect(parsed.tenant).toBe('acme');
    expect(directory().authenticate('v3', parsed.v3_token)?.id).toBe('acme');
  });

  it('rotate-key issues a new secret; --revoke-old removes the old ones', async () => {
    const added = JSON.parse((await run('add', 'acme', '--json')).stdout) as { v2_api_key: string };
    const rotated = await run('rotate-key', 'acme', '--v2');
    expect(rotated.code).toBe(0);
    const second = /txe_v2_[A-Za-z0-9]{32}/.exec(rotated.stdout)?.[0] ?? '';
    expect(directory().authenticate('v2', added.v2_api_key)?.id).toBe('acme');
    expect(directory().authenticate('v2', second)?.id).toBe('acme');
    const revoked = await run('rotate-key', 'acme', '--v2', '--revoke-old', '--json');
    const third = JSON.parse(revoked.stdout) as { secret: string; revoked: string[] };
    expect(third.revoked).toHaveLength(2);
    expect(directory().authenticate('v2', added.v2_api_key)).toBeNull();
    expect(directory().authenticate('v2', second)).toBeNull();
    expect(directory().authenticate('v2', third.secret)?.id).toBe('acme');
  });

  it('list shows tenants and credential ids, never secrets or digests', async () => {
    const { stdout: added } = await run('add', 'acme', '--json');
    const secrets = JSON.parse(added) as { v3_token: string; v2_api_key: string };
    for (const args of [['list'], ['list', '--json']]) {
      const { code, stdout } = await run(...args);
      expect(code).toBe(0);
      expect(stdout).toContain('acme');
      expect(stdout).toContain('…');
      expect(stdout).not.toContain(secrets.v3_token);
      expect(stdout).not.toContain(secrets.v2_api_key);
      expect(stdout).not.toContain(hashSecret(secrets.v3_token));
      expect(stdout).not.toMatch(/[0-9a-f]{64}/);
    }
  });

  it('fails with a message: duplicate tenant (1), bad usage (2)', async () => {
    await run('add', 'acme');
    expect(await run('add', 'acme')).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/already exists/),
    });
    expect(await run('rotate-key', 'acme')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--v2 or --v3/),
    });
    expect(await run('rotate-key', 'nobody', '--v3')).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/no tenant/),
    });
    expect(await run('add', 'x', '--max-batch', 'many')).toMatchObject({ code: 2 });
    expect(await run('frobnicate')).toMatchObject({ code: 2 });
  });
});

describe('tx-enrich tenants usage', () => {
  it.each([
    [['add', '*'], 'tx-enrich tenants add: the tenant id must be 1-64 of A-Z a-z 0-9 . _ -, got "*"'],
    [['add', 'a'.repeat(65)], 'the tenant id must be 1-64 of A-Z a-z 0-9 . _ -'],
    [['add'], 'tx-enrich tenants add: add needs a tenant id'],
    [['add', 'x', '--max-batch', '0'], '--max-batch must be a positive integer, got "0"'],
    [['add', 'x', '--rate-limit-per-minute', 'fast'], '--rate-limit-per-minute must be a positive integer'],
    [['rotate-key', 'acme', '--v2', '--v3'], 'rotate-key needs exactly one of --v2 or --v3'],
    [['rotate-key', 'a/b', '--v2'], 'the tenant id must be 1-64'],
    [['list', 'acme'], 'tx-enrich tenants list: unexpected arguments: acme'],
    [['add', 'x', '--v2'], 'unknown option --v2'],
    [[], 'tx-enrich tenants: needs a command'],
  ] as [string[], string][])('%j → status 2: %s', async (argv, message) => {
    const result = await captureOutput(() => runTenantsCommand([...argv, '--file', file]));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('usage: tx-enrich tenants');
  });
});
