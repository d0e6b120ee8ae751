import { describe, expect, it } from 'vitest';
import { DataRejectedError, InfrastructureError } from '../../../src/errors/catalog.js';
import { RetryBoard, withRetry } from '../../../src/errors/retry.js';

const fast = { initialDelayMs: 1, maxDelayMs: 2 };

describe('withRetry', () => {
  it('retries infrastructure failures until the call succeeds', async () => {
    let calls = 0;
    const attempts: number[] = [];
    const result = await withRetry(
      'a flaky call',
      async () => {
        if (++calls < 3) throw new InfrastructureError('KAFKA_UNAVAILABLE', 'down');
        return 'done';
      },
      { ...fast, onRetry: (attempt) => attempts.push(attempt) },
    );
    expect(result).toBe('done');
    expect(attempts).toEqual([1, 2]);
  });

  it('never retries a data error or a bug', async () => {
    for (const error of [new DataRejectedError('DATABASE_REJECTED', 'NUL'), new TypeError('bug')]) {
      let calls = 0;
      await expect(
        withRetry(
          'a call',
          async () => {
            calls++;
            throw error;
          },
          fast,
        ),
      ).rejects.toBe(error);
      expect(calls).toBe(1);
    }
  });

  it('gives up with RETRIES_EXHAUSTED once the budget is spent, naming the last failure', async () => {
    const failure = withRetry(
      'reading offsets',
      async () => {
        throw new InfrastructureError('KAFKA_UNAVAILABLE', 'no broker');
      },
      { ...fast, budgetMs: 20 },
    );
    await expect(failure).rejects.toMatchObject({ code: 'RETRIES_EXHAUSTED' });
    await expect(failure).rejects.toThrow(/reading offsets still failing .*KAFKA_UNAVAILABLE/);
  });

  it('reports on the board while retrying and clears it when the loop ends', async () => {
    let now = 1_000;
    const board = new RetryBoard(() => now);
    let calls = 0;
    const seen: (number | undefined)[] = [];
    await withRetry(
      'committing',
      async () => {
        seen.push(board.longest()?.seconds);
        now += 5_000;
        if (++calls < 3) throw new InfrastructureError('KAFKA_UNAVAILABLE', 'down');
      },
      { ...fast, board, loop: 'partition t[0]' },
    );
    // First attempt: nothing failing yet; then the same loop, counted from its first failure.
    expect(seen).toEqual([undefined, 0, 5]);
    expect(board.longest()).toBeNull();
  });
});
