/** Waiting helpers for integration tests: never a bare sleep where a condition can be polled. */

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface WaitOptions {
  /** Give up after this long (default 30 s). */
  readonly timeoutMs?: number;
  /** Pause between attempts (default 200 ms). */
  readonly intervalMs?: number;
  /** Shown in the timeout error. */
  readonly description?: string;
}

/**
 * Polls `probe` until it returns a value other than `undefined`/`false` (or stops throwing) and
 * returns that value. On timeout, throws an error with the description and the last failure.
 */
export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  options: WaitOptions = {},
): Promise<T> {
  const { timeoutMs = 30_000, intervalMs = 200, description = 'condition' } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const why =
        lastError === undefined ? '' : ` (last error: ${(lastError as Error).message ?? String(lastError)})`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}${why}`);
    }
    await sleep(intervalMs);
  }
}

/** Rejects with a clear message if `promise` does not settle within `timeoutMs`. */
export async function withTimeout<T>(
  promise: Promise<T>,
  timeoutMs: number,
  description: string,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${description} timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
