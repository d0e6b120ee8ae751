/**
 * Capped exponential backoff with jitter for infrastructure failures. Data errors never come here:
 * retrying cannot fix a bad record.
 */
import { InfrastructureError } from '../errors.js';

export interface RetryOptions {
  /** First delay, in ms. */
  readonly initialDelayMs?: number;
  /** No single delay is longer than this. */
  readonly maxDelayMs: number;
  /** Give up after this long in total (ms); Infinity retries for ever. */
  readonly budgetMs?: number;
  /** Called before each wait, for logging and metrics. */
  readonly onRetry?: (attempt: number, delayMs: number, error: unknown) => void;
  /** Stop retrying (e.g. on shutdown): the last error is rethrown. */
  readonly shouldStop?: () => boolean;
  /** Whether an error is worth retrying; others are rethrown at once. */
  readonly retriable?: (error: unknown) => boolean;
}

export function backoffDelay(attempt: number, initialDelayMs: number, maxDelayMs: number): number {
  const exponential = Math.min(maxDelayMs, initialDelayMs * 2 ** Math.min(attempt, 20));
  // Full jitter keeps many workers from retrying in lock step against a recovering broker.
  return Math.round(exponential / 2 + (Math.random() * exponential) / 2);
}

export async function withRetry<T>(what: string, fn: () => Promise<T>, options: RetryOptions): Promise<T> {
  const initial = options.initialDelayMs ?? 100;
  const budget = options.budgetMs ?? Infinity;
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (options.retriable && !options.retriable(error)) throw error;
      if (options.shouldStop?.()) throw error;
      const delay = backoffDelay(attempt, initial, options.maxDelayMs);
      if (Date.now() - started + delay > budget) {
        throw new InfrastructureError(
          'RETRIES_EXHAUSTED',
          `${what} still failing after ${attempt + 1} attempts`,
          {
            cause: error,
          },
        );
      }
      options.onRetry?.(attempt + 1, delay, error);
      await sleep(delay);
    }
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
