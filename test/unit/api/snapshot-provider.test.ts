// Guarantee: the default snapshot provider is ready with the catalog alone when no brand-store loader
// is given, passes the loader's learned mappings into the snapshot, reports "brand store unavailable"
// (not ready, no snapshot) while the loader fails, retries with back-off, and stops retrying when closed.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DefaultSnapshotProvider } from '../../../src/api/snapshot-provider.js';
import { loadReferenceData } from '../../../src/data/load.js';
import type { LearnedMapping } from '../../../src/engine/types.js';

const referenceData = loadReferenceData();

afterEach(() => {
  vi.useRealTimers();
});

describe('DefaultSnapshotProvider', () => {
  it('is not ready before start, ready after, with no loader', async () => {
    const provider = new DefaultSnapshotProvider({ referenceData });
    expect(provider.current()).toBeNull();
    expect(provider.readiness()).toMatch(/not loaded/);
    expect(await provider.start()).toBe(true);
    expect(provider.current()).not.toBeNull();
    expect(provider.readiness()).toBeNull();
  });

  it("builds the snapshot with the loader's learned mappings", async () => {
    const mapping: LearnedMapping = {
      tenant: '*',
      merchant_id: 'M-42',
      brand_id: null,
      sub_category_id: '4-3',
    };
    const provider = new DefaultSnapshotProvider({
      referenceData,
      loadLearnedMappings: async () => [mapping],
    });
    await provider.start();
    expect(JSON.stringify([...(provider.current()?.learnedByMerchantId.keys() ?? [])])).toContain('M-42');
  });

  it('reports the store unavailable while the loader fails, and retries until it succeeds', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const errors: number[] = [];
    const provider = new DefaultSnapshotProvider({
      referenceData,
      retryInitialDelayMs: 100,
      retryMaxDelayMs: 1000,
      onLoadError: (_error, attempt) => errors.push(attempt),
      loadLearnedMappings: async () => {
        calls++;
        if (calls < 3) throw new Error('connection refused');
        return [];
      },
    });
    expect(await provider.start()).toBe(false);
    expect(provider.current()).toBeNull();
    expect(provider.readiness()).toBe('brand store unavailable: connection refused');
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toBe(2);
    expect(provider.current()).toBeNull();
    await vi.advanceTimersByTimeAsync(199);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(3);
    expect(provider.readiness()).toBeNull();
    expect(provider.current()).not.toBeNull();
    expect(errors).toEqual([1, 2]);
    provider.close();
  });

  it('stops retrying when closed', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const provider = new DefaultSnapshotProvider({
      referenceData,
      retryInitialDelayMs: 10,
      loadLearnedMappings: async () => {
        calls++;
        throw new Error('down');
      },
    });
    await provider.start();
    provider.close();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toBe(1);
  });
});
