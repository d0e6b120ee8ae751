/**
 * What `/readyz` answers: the first reason not to send traffic, in order of severity, or null.
 */
import type { Admin } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { RetryBoard } from '../../../src/errors/retry.js';
import { DeadLetterGuard } from '../../../src/pipeline/dlq-guard.js';
import { ProgressMonitor } from '../../../src/pipeline/progress.js';
import { readinessOf, type WorkerState } from '../../../src/pipeline/readiness.js';

function clock() {
  const c = { now: 0 };
  return { c, now: () => c.now };
}

/** A monitor whose partition 0 has `end` records and whose position is 0: `end` records wait. */
async function waitingMonitor(end: number, secondsStalled: number): Promise<ProgressMonitor> {
  const { c, now } = clock();
  const admin = {
    fetchTopicOffsets: async () => [{ partition: 0, offset: String(end), high: String(end), low: '0' }],
  } as unknown as Admin;
  const m = new ProgressMonitor(admin, { probeTimeoutMs: 1000, now });
  m.assign([{ topic: 't', partition: 0 }]);
  m.skipped('t', 0, 0n);
  c.now += secondsStalled * 1000;
  await m.probe();
  return m;
}

function state(overrides: Partial<WorkerState> = {}): WorkerState {
  return {
    stopping: false,
    guard: new DeadLetterGuard(10, 0.5),
    assigned: true,
    monitor: null,
    board: new RetryBoard(() => 0),
    stallReadinessMs: 30_000,
    ...overrides,
  };
}

describe('readinessOf', () => {
  it('is ready (null) when assigned, progressing and nothing retries', () => {
    expect(readinessOf(state())).toBeNull();
  });

  it('is not ready while stopping, whatever else holds', () => {
    const guard = new DeadLetterGuard(2, 0.1);
    guard.record(0, 2);
    expect(readinessOf(state({ stopping: true, guard, assigned: false }))).toBe('shutting down');
  });

  it('names a tripped dead-letter guard and its share', () => {
    const guard = new DeadLetterGuard(4, 0.5);
    guard.record(1, 3);
    expect(readinessOf(state({ guard }))).toBe('dead-letter guard tripped (share 0.75)');
  });

  it('is not ready before the group assigned partitions', () => {
    expect(readinessOf(state({ assigned: false }))).toBe('not yet assigned partitions');
  });

  it('is not ready when records have waited longer than STALL_READINESS_MS, with the lag', async () => {
    const monitor = await waitingMonitor(120, 31);
    expect(readinessOf(state({ monitor }))).toBe('no progress for 31 s while records wait (lag 120)');
  });

  it('stays ready while a stall is shorter than the bound', async () => {
    const monitor = await waitingMonitor(120, 29);
    expect(readinessOf(state({ monitor }))).toBeNull();
  });

  it('is not ready when a retry loop has failed longer than the bound, naming the loop and code', () => {
    const c = { now: 0 };
    const board = new RetryBoard(() => c.now);
    board.failing('feedback', { code: 'DATABASE_UNAVAILABLE', kind: 'infrastructure', message: 'down' });
    c.now = 10_000;
    expect(readinessOf(state({ board }))).toBeNull();
    c.now = 45_000;
    expect(readinessOf(state({ board }))).toBe('feedback retrying for 45 s: DATABASE_UNAVAILABLE');
    board.recovered('feedback');
    expect(readinessOf(state({ board }))).toBeNull();
  });
});
