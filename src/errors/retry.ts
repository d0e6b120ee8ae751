/**
 * Capped exponential backoff with jitter, for infrastructure failures only: every error is
 * classified (classify.ts) and only the `infrastructure` kind is retried. A data error or a bug is
 * rethrown at once, since retrying cannot fix it.
 *
 * A loop that keeps failing says so: `RetryBoard` records since when each named loop has been
 * retrying, for `/readyz` and the `txenrich_retrying_since_seconds` gauge, so a dependency that stays
 * down is visible long before a budget runs out.
 */
import { InfrastructureError } from './catalog.js';
import { classifyError, type Classified } from './classify.js';

export interface RetryOptions {
  /** First delay, in ms. */
  readonly initialDelayMs?: number;
  /** No single delay is longer than this. */
  readonly maxDelayMs: number;
  /** Give up after this long in total (ms) with RETRIES_EXHAUSTED; Infinity retries for ever. */
  readonly budgetMs?: number;
  /** Called before each wait, for logging and metrics. */
  readonly onRetry?: (attempt: number, delayMs: number, error: unknown, failure: Classified) => void;
  /** Stop retrying (e.g. on shutdown): the last error is rethrown. */
  readonly shouldStop?: () => boolean;
  /** Which failures to retry; default: the infrastructure kind. */
  readonly retriable?: (failure: Classified, error: unknown) => boolean;
  /** Where this loop reports that it is retrying, under `loop`. */
  readonly board?: RetryBoard;
  readonly loop?: string;
  /** How to wait between attempts (default: sleep); the worker heartbeats its group meanwhile. */
  readonly wait?: (ms: number) => Promise<void>;
}

export function backoffDelay(attempt: number, initialDelayMs: number, maxDelayMs: number): number {
  const exponential = Math.min(maxDelayMs, initialDelayMs * 2 ** Math.min(attempt, 20));
  // Full jitter keeps many workers from retrying in lock step against a recovering broker.
  return Math.round(exponential / 2 + (Math.random() * exponential) / 2);
}

export const retryInfrastructure = (failure: Classified): boolean => failure.kind === 'infrastructure';

export async function withRetry<T>(what: string, fn: () => Promise<T>, options: RetryOptions): Promise<T> {
  const initial = options.initialDelayMs ?? 100;
  const budget = options.budgetMs ?? Infinity;
  const retriable = options.retriable ?? retryInfrastructure;
  const loop = options.loop ?? what;
  const started = Date.now();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn();
      } catch (error) {
        const failure = classifyError(error);
        if (!retriable(failure, error)) throw error;
        if (options.shouldStop?.()) throw error;
        const delay = backoffDelay(attempt, initial, options.maxDelayMs);
        if (Date.now() - started + delay > budget) {
          throw new InfrastructureError(
            'RETRIES_EXHAUSTED',
            `${what} still failing after ${attempt + 1} attempts (${failure.code}: ${failure.message})`,
            { cause: error },
          );
        }
        options.board?.failing(loop, failure);
        options.onRetry?.(attempt + 1, delay, error, failure);
        await (options.wait ?? sleep)(delay);
      }
    }
  } finally {
    options.board?.recovered(loop);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Since when each named retry loop has been failing; empty when none is. */
export class RetryBoard {
  private readonly since = new Map<string, { at: number; failure: Classified }>();

  constructor(private readonly now: () => number = Date.now) {}

  failing(loop: string, failure: Classified): void {
    const entry = this.since.get(loop);
    if (entry) this.since.set(loop, { at: entry.at, failure });
    else this.since.set(loop, { at: this.now(), failure });
  }

  recovered(loop: string): void {
    this.since.delete(loop);
  }

  /** The loop failing the longest, with how long (seconds) and its last failure; null if none. */
  longest(): { loop: string; seconds: number; failure: Classified } | null {
    let best: { loop: string; seconds: number; failure: Classified } | null = null;
    const now = this.now();
    for (const [loop, { at, failure }] of this.since) {
      const seconds = (now - at) / 1000;
      if (!best || seconds > best.seconds) best = { loop, seconds, failure };
    }
    return best;
  }

  /** Seconds each failing loop has been retrying, by loop (for the gauge). */
  entries(): { loop: string; seconds: number }[] {
    const now = this.now();
    return [...this.since].map(([loop, { at }]) => ({ loop, seconds: (now - at) / 1000 }));
  }
}
