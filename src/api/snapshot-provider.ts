/**
 * Where the API gets its brand snapshot. The default provider builds it once from the reference data
 * (`data/`) plus the learned mappings of the brand store, read through an injectable async loader
 * (the store's `loadLearnedMappings()`). A failing loader means the brand store is unavailable: the
 * provider has no snapshot, `/readyz` answers 503 and so do the enrichment routes, and the load is
 * retried with capped exponential back-off until it succeeds or the provider is closed.
 */
import type { ReferenceData } from '../data/schemas.js';
import { loadReferenceData } from '../data/load.js';
import { buildSnapshot, type Snapshot } from '../engine/snapshot.js';
import type { LearnedMapping } from '../engine/types.js';

export interface SnapshotProvider {
  /** The snapshot to enrich with, or null while none is available. */
  current(): Snapshot | null;
  /** null when ready, else why not (shown by /readyz and in 503 responses). */
  readiness(): string | null;
}

export type LearnedMappingsLoader = () => Promise<readonly LearnedMapping[]>;

export interface DefaultSnapshotProviderOptions {
  /** Defaults to loadReferenceData() (the project's data/ folder). */
  readonly referenceData?: ReferenceData;
  /** The brand store's learned mappings; without one, learned mappings are empty. */
  readonly loadLearnedMappings?: LearnedMappingsLoader;
  /** Longest wait between two attempts after a failed load (default 30 s). */
  readonly retryMaxDelayMs?: number;
  /** First wait after a failed load (default 500 ms), doubled after each failure. */
  readonly retryInitialDelayMs?: number;
  /** Told about each failed attempt (for logging). */
  readonly onLoadError?: (error: unknown, attempt: number) => void;
}

export class DefaultSnapshotProvider implements SnapshotProvider {
  private snapshot: Snapshot | null = null;
  private reason: string | null = 'brand snapshot not loaded yet';
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private attempts = 0;

  constructor(private readonly options: DefaultSnapshotProviderOptions = {}) {}

  current(): Snapshot | null {
    return this.snapshot;
  }

  readiness(): string | null {
    return this.snapshot ? null : this.reason;
  }

  /**
   * Loads the snapshot. Resolves true once it is loaded, false when the first attempt failed (later
   * attempts then run in the background). Never rejects because of the brand store.
   */
  async start(): Promise<boolean> {
    return this.attempt();
  }

  /** Stops background retries. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async attempt(): Promise<boolean> {
    this.attempts++;
    let learned: readonly LearnedMapping[];
    try {
      learned = this.options.loadLearnedMappings ? await this.options.loadLearnedMappings() : [];
    } catch (error) {
      this.reason = `brand store unavailable: ${error instanceof Error ? error.message : String(error)}`;
      this.options.onLoadError?.(error, this.attempts);
      this.scheduleRetry();
      return false;
    }
    if (this.closed) return false;
    const referenceData = this.options.referenceData ?? loadReferenceData();
    this.snapshot = buildSnapshot(referenceData, learned);
    this.reason = null;
    return true;
  }

  private scheduleRetry(): void {
    if (this.closed) return;
    const initial = this.options.retryInitialDelayMs ?? 500;
    const max = this.options.retryMaxDelayMs ?? 30_000;
    const delay = Math.min(max, initial * 2 ** Math.min(20, this.attempts - 1));
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.attempt();
    }, delay);
    this.timer.unref();
  }
}

/** A provider that always serves the given snapshot (tests, benchmarks, the offline CLI). */
export function staticSnapshotProvider(snapshot: Snapshot): SnapshotProvider {
  return { current: () => snapshot, readiness: () => null };
}

/** A provider whose brand store is down (tests of the 503 path). */
export function unavailableSnapshotProvider(reason = 'brand store unavailable'): SnapshotProvider {
  return { current: () => null, readiness: () => reason };
}
