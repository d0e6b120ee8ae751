// Guarantee: the tenants file round-trips through write and read unchanged, is written atomically with
// mode 0600, holds digests and never secrets, rejects malformed content with the path of each problem,
// and the editing functions add tenants and rotate or revoke credentials as documented.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashSecret } from '../../../src/api/credentials.js';
import { TenantDirectory } from '../../../src/api/tenant-directory.js';
import {
  DEFAULT_LIMITS,
  TenantsEditError,
  TenantsFileError,
  addTenant,
  effectiveLimits,
  emptyTenantsFile,
  parseTenantsFile,
  readTenantsFile,
  rotateCredential,
  summarizeTenants,
  writeTenantsFile,
} from '../../../src/api/tenants.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tenants-test-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('tenants file', () => {
  it('round-trips: what is written is what is read', () => {
    const path = join(dir, 'nested', 'tenants.json');
    let { file } = addTenant(emptyTenantsFile(), 'acme', {
      arabicEnabled: true,
      returnTransactionId: true,
      logoBaseUrl: 'https://cdn.example.com/logos/',
      limits: { max_batch: 50 },
    });
    file = addTenant(file, 'beta').file;
    file = { ...file, defaults: { rate_limit_per_minute: 120 } };
    writeTenantsFile(path, file);
    const loaded = readTenantsFile(path);
    expect(loaded.exists).toBe(true);
    expect(loaded.looseMode).toBeNull();
    expect(loaded.file).toEqual(file);
  });

  it('is written with mode 0600, atomically, leaving no temporary file', () => {
    const path = join(dir, 'tenants.json');
    writeFileSync(path, 'old content that is not JSON');
    chmodSync(path, 0o644);
    const before = statSync(path).ino;
    writeTenantsFile(path, addTenant(emptyTenantsFile(), 'acme').file);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    // Replaced by rename (a new inode), not rewritten in place.
    expect(statSync(path).ino).not.toBe(before);
    expect(readdirSync(dir)).toEqual(['tenants.json']);
  });

  it('holds SHA-256 digests of the secrets, never the secrets', () => {
    const path = join(dir, 'tenants.json');
    const { file, secrets } = addTenant(emptyTenantsFile(), 'acme');
    writeTenantsFile(path, file);
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain(secrets.v3);
    expect(text).not.toContain(secrets.v2);
    expect(text).toContain(hashSecret(secrets.v3));
    expect(text).toContain(hashSecret(secrets.v2));
  });

  it('is empty when missing', () => {
    expect(readTenantsFile(join(dir, 'none.json'))).toEqual({
      file: emptyTenantsFile(),
      exists: false,
      looseMode: null,
    });
  });

  it('reports a file others may read', () => {
    const path = join(dir, 'tenants.json');
    writeTenantsFile(path, emptyTenantsFile());
    chmodSync(path, 0o644);
    expect(readTenantsFile(path).looseMode).toBe(0o644);
  });

  it('rejects invalid JSON and invalid content, naming each problem', () => {
    const path = join(dir, 'tenants.json');
    writeFileSync(path, '{"version": 1, "tenants": {');
    expect(() => readTenantsFile(path)).toThrow(TenantsFileError);
    const bad = {
      version: 1,
      tenants: {
        'bad id!': {},
        acme: { arabic_enable: true, limits: { max_batch: 0 }, logo_base_url: 'ftp://x' },
      },
    };
    let error: TenantsFileError | undefined;
    try {
      parseTenantsFile(bad, 'x.json');
    } catch (e) {
      error = e as TenantsFileError;
    }
    expect(error).toBeInstanceOf(TenantsFileError);
    const text = error?.problems.join('\n') ?? '';
    expect(text).toMatch(/tenants\.bad id!/);
    expect(text).toMatch(/arabic_enable/);
    expect(text).toMatch(/tenants\.acme\.limits\.max_batch/);
    expect(text).toMatch(/tenants\.acme\.logo_base_url: must be an http/);
  });

  it('rejects one digest listed twice', () => {
    const credential = { id: 'abcdef01', sha256: 'a'.repeat(64), hint: 'x', created_at: '2025-01-01' };
    const twice = {
      version: 1,
      tenants: { a: { credentials: { v3: [credential] } }, b: { credentials: { v2: [credential] } } },
    };
    expect(() => parseTenantsFile(twice)).toThrow(
      /tenants\.b\.credentials\.v2\.0\.sha256: the same credential is also listed at tenants\.a\.credentials\.v3\.0/,
    );
  });
});

describe('editing', () => {
  it('adds a tenant with one credential of each version', () => {
    const { file, secrets } = addTenant(emptyTenantsFile(), 'acme', { arabicEnabled: true });
    const tenant = file.tenants.acme;
    expect(tenant?.arabic_enabled).toBe(true);
    expect(tenant?.return_transaction_id).toBe(false);
    expect(tenant?.credentials.v3.map((c) => c.sha256)).toEqual([hashSecret(secrets.v3)]);
    expect(tenant?.credentials.v2.map((c) => c.sha256)).toEqual([hashSecret(secrets.v2)]);
  });

  it('refuses a duplicate or malformed tenant id and invalid options', () => {
    const { file } = addTenant(emptyTenantsFile(), 'acme');
    expect(() => addTenant(file, 'acme')).toThrow(/already exists/);
    expect(() => addTenant(file, 'no spaces')).toThrow(TenantsEditError);
    expect(() => addTenant(file, 'x', { logoBaseUrl: 'not a url' })).toThrow(/logo_base_url/);
    expect(() => addTenant(file, 'x', { limits: { max_batch: 1_000_000 } })).toThrow(/max_batch/);
  });

  it('rotates: the old credential keeps working unless revoked', () => {
    const added = addTenant(emptyTenantsFile(), 'acme');
    const kept = rotateCredential(added.file, 'acme', 'v2');
    const keptDir = new TenantDirectory(kept.file);
    expect(keptDir.authenticate('v2', added.secrets.v2)?.id).toBe('acme');
    expect(keptDir.authenticate('v2', kept.secret)?.id).toBe('acme');
    expect(kept.revoked).toEqual([]);

    const revoked = rotateCredential(kept.file, 'acme', 'v2', { revokeOld: true });
    const revokedDir = new TenantDirectory(revoked.file);
    expect(revokedDir.authenticate('v2', added.secrets.v2)).toBeNull();
    expect(revokedDir.authenticate('v2', kept.secret)).toBeNull();
    expect(revokedDir.authenticate('v2', revoked.secret)?.id).toBe('acme');
    expect(revoked.revoked).toHaveLength(2);
    // The other version is untouched.
    expect(revokedDir.authenticate('v3', added.secrets.v3)?.id).toBe('acme');
    expect(() => rotateCredential(revoked.file, 'nobody', 'v3')).toThrow(/no tenant "nobody"/);
  });

  it("takes limits from the tenant, else the file's defaults, else the built-in defaults", () => {
    let { file } = addTenant(emptyTenantsFile(), 'own', { limits: { max_batch: 10 } });
    file = { ...file, defaults: { max_batch: 20, rate_limit_per_minute: 30 } };
    file = addTenant(file, 'plain').file;
    expect(effectiveLimits(file, file.tenants.own!)).toEqual({
      max_body_bytes: DEFAULT_LIMITS.max_body_bytes,
      max_batch: 10,
      rate_limit_per_minute: 30,
    });
    expect(effectiveLimits(file, file.tenants.plain!).max_batch).toBe(20);
    expect(DEFAULT_LIMITS).toEqual({
      max_body_bytes: 1_048_576,
      max_batch: 1000,
      rate_limit_per_minute: 600,
    });
  });

  it('summarizes tenants without digests or secrets', () => {
    const { file, secrets } = addTenant(emptyTenantsFile(), 'acme', { logoBaseUrl: 'https://x.example/' });
    const text = JSON.stringify(summarizeTenants(file));
    expect(text).not.toContain(secrets.v2);
    expect(text).not.toContain(secrets.v3);
    expect(text).not.toContain(hashSecret(secrets.v2));
    expect(text).not.toContain('sha256');
    expect(summarizeTenants(file)[0]).toMatchObject({ id: 'acme', logo_base_url: 'https://x.example/' });
  });

  it('resolves the logo base URL: the tenant’s, else the default, else relative', () => {
    let { file } = addTenant(emptyTenantsFile(), 'own', { logoBaseUrl: 'https://own.example/' });
    file = addTenant(file, 'none').file;
    const withDefault = new TenantDirectory(file, { defaultLogoBaseUrl: 'https://default.example/' });
    const byId = Object.fromEntries(withDefault.tenants.map((t) => [t.id, t.logoBaseUrl]));
    expect(byId).toEqual({ own: 'https://own.example/', none: 'https://default.example/' });
    expect(new TenantDirectory(file).tenants.find((t) => t.id === 'none')?.logoBaseUrl).toBe('');
  });
});
