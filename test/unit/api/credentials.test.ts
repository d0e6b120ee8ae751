// Guarantee: credentials are a fixed prefix plus 32 unbiased base62 characters, stored only as their
// SHA-256 digest, and checked with a constant-time comparison of equal-length digests against every
// stored digest of the version, whether one matches first, last or not at all.
import * as crypto from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import {
  CREDENTIAL_PREFIX,
  digestSecret,
  digestsEqual,
  generateSecret,
  hashSecret,
  randomBase62,
  secretHint,
  versionOfSecret,
} from '../../../src/api/credentials.js';
import { TenantDirectory } from '../../../src/api/tenant-directory.js';
import { addTenant, emptyTenantsFile, rotateCredential } from '../../../src/api/tenants.js';

vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof crypto>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

describe('secrets', () => {
  it('are the version prefix plus 32 base62 characters', () => {
    expect(generateSecret('v2')).toMatch(/^txe_v2_[A-Za-z0-9]{32}$/);
    expect(generateSecret('v3')).toMatch(/^txe_v3_[A-Za-z0-9]{32}$/);
    expect(CREDENTIAL_PREFIX).toEqual({ v2: 'txe_v2_', v3: 'txe_v3_' });
  });

  it('do not repeat', () => {
    const seen = new Set(Array.from({ length: 2000 }, () => generateSecret('v3')));
    expect(seen.size).toBe(2000);
  });

  it('use every base62 character about equally often', () => {
    const text = randomBase62(62 * 2000);
    const counts = new Map<string, number>();
    for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // Expected 2000 each; a modulo bias (256 % 62 = 8) would push the first 8 characters to ~2200.
    for (const n of counts.values()) expect(Math.abs(n - 2000)).toBeLessThan(250);
  });

  it('are stored as lowercase SHA-256 hex of their UTF-8 bytes', () => {
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(digestSecret('abc').toString('hex')).toBe(hashSecret('abc'));
  });

  it('are recognised by prefix and hinted by their last four characters', () => {
    expect(versionOfSecret('txe_v2_abc')).toBe('v2');
    expect(versionOfSecret('txe_v3_abc')).toBe('v3');
    expect(versionOfSecret('sk_live_abc')).toBeNull();
    expect(secretHint('txe_v3_AAAAAAAAAAAAAAAAAAAAAAAAAAAAWXYZ')).toBe('txe_v3_…WXYZ');
  });
});

describe('digest comparison', () => {
  it('is equality of equal-length digests', () => {
    expect(digestsEqual(digestSecret('a'), digestSecret('a'))).toBe(true);
    expect(digestsEqual(digestSecret('a'), digestSecret('b'))).toBe(false);
    expect(digestsEqual(Buffer.alloc(32), Buffer.alloc(31))).toBe(false);
  });

  it('compares against every stored digest of the version, without early exit', () => {
    let file = emptyTenantsFile();
    const v3: string[] = [];
    for (const id of ['a', 'b', 'c', 'd']) {
      const added = addTenant(file, id);
      file = added.file;
      v3.push(added.secrets.v3);
    }
    const rotated = rotateCredential(file, 'd', 'v3');
    file = rotated.file;
    v3.push(rotated.secret);
    const directory = new TenantDirectory(file);
    const spy = vi.mocked(crypto.timingSafeEqual);
    for (const [secret, expected] of [
      [v3[0], 'a'],
      [v3[4], 'd'],
      [v3[3], 'd'],
      ['txe_v3_' + 'x'.repeat(32), null],
    ] as const) {
      spy.mockClear();
      expect(directory.authenticate('v3', secret ?? '')?.id ?? null).toBe(expected);
      expect(spy).toHaveBeenCalledTimes(5);
      for (const [a, b] of spy.mock.calls) expect((a as Buffer).length).toBe((b as Buffer).length);
    }
  });

  it('keeps versions apart: a v3 token is not a v2 key', () => {
    const { file, secrets } = addTenant(emptyTenantsFile(), 'acme');
    const directory = new TenantDirectory(file);
    expect(directory.authenticate('v3', secrets.v3)?.id).toBe('acme');
    expect(directory.authenticate('v2', secrets.v2)?.id).toBe('acme');
    expect(directory.authenticate('v2', secrets.v3)).toBeNull();
    expect(directory.authenticate('v3', secrets.v2)).toBeNull();
  });
});
